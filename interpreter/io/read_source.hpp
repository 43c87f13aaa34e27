#pragma once
// Reading a source file whole. Only a regular file is read (a pipe too,
// where the caller allows one, for `napkin diff <(git show ...)`): a
// directory, a device, a socket or a FIFO named by an import is an error, not
// something to block on or read without end. Reading stops just past the
// size limit, so a caller sees that the file is too big without holding it.
#include <cstddef>
#include <string>

#include "grammar/parser.hpp"

namespace napkin {

// Besides errno values, read_source returns this for a file that is not a
// regular file (or a pipe, where allowed).
inline constexpr int kNotRegularFile = -1;

// Why a read failed, for a message: strerror, or "not a regular file ...".
std::string read_error_text(int err);

// Returns 0, or why `path` could not be read (an errno value or
// kNotRegularFile). At most `limit` + 1 bytes are read.
int read_source(const std::string& path, std::string& text, bool allow_pipe = false,
                std::size_t limit = kMaxSourceBytes);

}  // namespace napkin
