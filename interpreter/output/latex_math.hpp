#pragma once
// LaTeX for the texts a derivation prints. Formulas, substitutions and
// results come out of the printer and `show` as text; these turn that text
// into math that pdflatex compiles with amsmath and amssymb: names upright
// in \text{}, units in \mathrm{} after a thin space, `·` as \cdot.
#include <string>
#include <vector>

namespace napkin {

// `batch · 1 token / 7.362 ms` → `\text{batch} \cdot 1\,\mathrm{token} / 7.362\,\mathrm{ms}`.
std::string latex_math(const std::string& text);

// Where a long line of a derivation breaks: an `if` before its `then` and
// `else`, anything else longer than `width` characters before a `+` or `-`
// outside parentheses. The pieces after the first begin with that word.
std::vector<std::string> break_lines(const std::string& text, std::size_t width);

// Plain text for text mode, with LaTeX's special characters escaped and the
// few non-ASCII characters napkin prints spelled as LaTeX commands.
std::string latex_text(const std::string& text);

}  // namespace napkin
