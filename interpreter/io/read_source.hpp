#pragma once
// Reading a source file whole. A directory is an error, not an empty file,
// and reading stops just past the size limit, so `import "/dev/zero"` ends
// with a size error instead of filling memory.
#include <string>

namespace napkin {

// Returns 0, or the errno value that says why `path` could not be read.
int read_source(const std::string& path, std::string& text);

}  // namespace napkin
