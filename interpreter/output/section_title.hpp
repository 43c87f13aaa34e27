#pragma once
// A section's heading on every sheet, solution and handout alike: the first
// sentence of the comment above its record (`# q1. The KV cache per
// token.`, `# ---- 1. Parameters ----`) followed by the record's name, which
// a student's file must use; the name alone where there is no comment.
#include <string>

namespace napkin {

struct SectionTitle {
  std::string title;  // "" when the comment is empty
  std::string rest;   // the paragraphs after it, as the comment block holds them
};

// A paragraph's first sentence, as the file's title is its opening comment's:
// up to a `.`, `?` or `!` before a space or the end, but never right after
// a label that opens it (`2.`, `q1.`, `(a)`), so `2. How long? About a
// day.` is headed `2. How long?`. `rest`: what follows it.
inline SectionTitle first_sentence(const std::string& paragraph) {
  const std::size_t label = paragraph.find(' ');  // the first word may be a label
  for (std::size_t i = 0; i < paragraph.size(); ++i) {
    const char c = paragraph[i];
    const bool ends = (c == '.' || c == '?' || c == '!') &&
                      (i + 1 == paragraph.size() || paragraph[i + 1] == ' ' || paragraph[i + 1] == '\n');
    if (ends && label != std::string::npos && i > label) {
      const std::size_t next = paragraph.find_first_not_of(" \n", i + 1);
      return {paragraph.substr(0, i + 1), next == std::string::npos ? "" : paragraph.substr(next)};
    }
  }
  return {paragraph, ""};
}

// `doc`: a comment block's text (CommentBlock::text), an empty line between paragraphs.
inline SectionTitle section_title(const std::string& doc) {
  const std::size_t end = doc.find("\n\n");
  SectionTitle t = first_sentence(doc.substr(0, end));
  for (char& c : t.title)
    if (c == '\n') c = ' ';
  std::string after = end == std::string::npos ? "" : doc.substr(end + 2);
  while (!after.empty() && after.front() == '\n') after.erase(0, 1);
  t.rest = t.rest.empty() ? after : after.empty() ? t.rest : t.rest + "\n\n" + after;
  return t;
}

}  // namespace napkin
