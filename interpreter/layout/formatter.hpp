#pragma once
// `napkin fmt`: the one layout of a napkin file. Two-space indentation,
// spaces around binary operators, `name = value` with the `=` of
// neighbouring fields aligned, one blank line around every multi-line
// statement, `≈` for `~=`, numbers and units as written, comments where
// they were. The output parses to the same AST as the input, and
// formatting it again changes nothing.
#include <string>

#include "grammar/source.hpp"

namespace napkin {

// Past this column a value wraps: an `if` puts `then` and `else` on lines
// of their own, a chain of `+`, `*`, `and` or `or` breaks before an
// operator, and a long `fn` moves its body to the next line.
inline constexpr int kFormatWidth = 100;

// Throws napkin::Error when the file does not parse.
std::string format_source(const SourceFile& file);

}  // namespace napkin
