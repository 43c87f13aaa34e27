#pragma once
// The formatter's output before alignment: one row per line. Consecutive
// rows at one indentation, with no blank line, comment line or multi-line
// construct between them, form a group; a group aligns its `=` signs and
// its trailing comments.
#include <string>
#include <vector>

#include "grammar/text_width.hpp"

namespace napkin {

struct Row {
  int indent = 0;
  std::string code;          // the whole line; for `alignable` rows, the part before ` = `
  std::string value;         // for `alignable` rows, the part after ` = `
  bool alignable = false;
  bool comment_line = false;  // `code` is a comment on a line of its own
  bool solo = false;          // a line of a multi-line construct: aligns with nothing
  bool blank_before = false;
  std::string comment;        // a trailing comment
};

std::string render_rows(const std::vector<Row>& rows);

}  // namespace napkin
