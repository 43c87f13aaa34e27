#pragma once
// A file's comments as a document's prose, in light Markdown: paragraphs
// (an empty comment line between them), `code`, *emphasis*, `- ` lists, and
// `10^9`, `d^2`, `N_blocks` as a superscript or subscript. Nothing else a
// comment holds is markup: every other character is written so that it
// shows as itself (`<!--`, `<script>`, `\section`, `&amp;`, a control
// character), whatever reads the Markdown or compiles the LaTeX.
#include <string>
#include <vector>

namespace napkin {

struct ProseSpan {
  enum class Kind { Text, Code, Emphasis, Sup, Sub };
  Kind kind = Kind::Text;
  std::string text;
};

struct ProseBlock {
  bool item = false;  // a list item; consecutive items make one list
  std::vector<ProseSpan> spans;
};

// `text`: a comment block's lines (CommentBlock::text).
std::vector<ProseBlock> parse_prose(const std::string& text);

// Paragraphs separated by blank lines; no trailing newline.
std::string prose_markdown(const std::string& text);
std::string prose_latex(const std::string& text);

}  // namespace napkin
