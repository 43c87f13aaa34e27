#pragma once
// Replace a file's contents all at once: the new text goes to a temporary
// file beside it, which is flushed to disk and renamed over the original,
// so a crash leaves either the old file or the new one, never half of each.
#include <string>

namespace napkin {

// Keeps the original's permissions. Throws std::system_error on failure,
// leaving the original untouched.
void replace_file(const std::string& path, const std::string& contents);

}  // namespace napkin
