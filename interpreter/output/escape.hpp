#pragma once
// User text (strings, names, messages quoting them, formulas) escaped for
// each output syntax, so that nothing a file holds can change the page it is
// shown on: every renderer calls these rather than pasting text in. All of
// them first make control characters and stray bytes visible
// (grammar/text_escape.hpp). LaTeX's is latex_text (latex_math.hpp): its
// special characters escaped, a control character or line break shown as
// its escape, so no blank line can end a paragraph inside math.
#include <string>
#include <string_view>

#include "latex_math.hpp"

namespace napkin {

// Markdown text: every character CommonMark could read as syntax
// (emphasis, links, raw HTML `<`, entities `&`, a table's `|`) escaped with
// a backslash; one line.
std::string markdown_text(std::string_view s);
// A Markdown code span: fenced with more backticks than any run inside it,
// so no backtick in `s` can close it; one line.
std::string markdown_code(std::string_view s);
// A table cell: a `|` ends a cell even inside a code span (GFM), so it is
// escaped.
std::string markdown_cell(std::string_view s);
// A fenced code block of `text` (lines kept), indented by `indent`: the fence
// is longer than any run of backticks in the text.
std::string markdown_block(std::string_view text, const std::string& indent);

// XML 1.0 character data or an attribute value in double quotes: & < > "
// escaped, and every character XML 1.0 cannot hold (control characters
// other than tab, newline and carriage return; bytes that are not UTF-8,
// lone surrogates among them; U+FFFE and U+FFFF) shown as its escape
// (`\x01`, `\xff`, `\ufffe`), as are the controls a terminal obeys (U+007F,
// U+0080-U+009F).
// With `keep_lines`, newlines and tabs stay (element text spanning lines);
// without, they are `\n` and `\t` (an attribute, where XML would fold them).
// The one XML escaper: SVG and JUnit both call it.
std::string xml_text(std::string_view s, bool keep_lines = false);

// A JSON or TOML document as it is printed: DEL and the C1 controls
// (U+0080-U+009F), which both syntaxes allow raw inside a string but a
// terminal obeys, written as `\u007f`-style escapes, which both read back as
// the same character; a byte that is not UTF-8 written as U+FFFD. Nothing
// else changes: these bytes can only stand inside a string of either.
std::string document_controls(std::string_view doc);

}  // namespace napkin
