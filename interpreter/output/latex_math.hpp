#pragma once
// LaTeX for the terms a derivation prints. A formula, its substitution and
// its result come as terms (interpreter/derivation/term.hpp), token streams
// whose tokens say what each piece is; these turn them into math that pdflatex compiles
// with amsmath and amssymb: names upright in \text{}, units in \mathrm{}
// after a thin space, `·` as \cdot.
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/derivation/term.hpp"

namespace napkin {

// `batch · 1 token / 7.362 ms` → `\text{batch} \cdot 1\,\mathrm{token} / 7.362\,\mathrm{ms}`.
std::string latex_math(const Term& t);
std::string latex_math(const Tokens& line);

// Where a long line of a derivation breaks: an `if` before its `then` and
// `else`, anything else longer than `width` characters before a `+` or `-`
// outside parentheses (then `/` and `·`, then commas, then a level deeper).
// The pieces after the first begin with that operator.
std::vector<Tokens> break_lines(const Term& t, std::size_t width);

// Plain text for text mode, with LaTeX's special characters escaped, the
// few non-ASCII characters napkin prints spelled as LaTeX commands, and a
// control character or line break shown as its escape (`\n`, `\x1b`): no
// text from a file can stop pdflatex or end a paragraph inside math.
// `underscore` is what `_` becomes: `\\_` by default, or with a break
// allowed after it for prose, or the typewriter face's own character.
std::string latex_text(const std::string& text, std::string_view underscore = "\\_");

}  // namespace napkin
