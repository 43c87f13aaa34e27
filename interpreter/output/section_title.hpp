#pragma once
// A section's heading on every sheet, solution and handout alike: the first
// paragraph of the comment above its record (`# q1. The KV cache per
// token`, `# ---- 1. Parameters ----`) followed by the record's name, which
// a student's file must use; the name alone where there is no comment.
#include <string>

namespace napkin {

struct SectionTitle {
  std::string title;  // "" when the comment is empty
  std::string rest;   // the paragraphs after it, as the comment block holds them
};

// `doc`: a comment block's text (CommentBlock::text), an empty line between paragraphs.
inline SectionTitle section_title(const std::string& doc) {
  const std::size_t end = doc.find("\n\n");
  SectionTitle t{doc.substr(0, end), end == std::string::npos ? "" : doc.substr(end + 2)};
  for (char& c : t.title)
    if (c == '\n') c = ' ';
  while (!t.rest.empty() && t.rest.front() == '\n') t.rest.erase(0, 1);
  return t;
}

}  // namespace napkin
