#include "formatter_rows.hpp"

#include <algorithm>

namespace napkin {
namespace {

bool starts_group(const Row& prev, const Row& row) {
  return row.blank_before || row.comment_line || row.solo || prev.solo || prev.comment_line || prev.indent != row.indent;
}

void render_group(const std::vector<Row>& rows, std::size_t begin, std::size_t end, std::string& out) {
  int lhs = 0;
  for (std::size_t i = begin; i < end; ++i)
    if (rows[i].alignable) lhs = std::max(lhs, display_width(rows[i].code));
  std::vector<std::string> code;
  int comment_column = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const Row& r = rows[i];
    code.push_back(r.alignable ? pad_right(r.code, lhs) + " = " + r.value : r.code);
    if (!r.comment.empty()) comment_column = std::max(comment_column, display_width(code.back()) + 2);
  }
  for (std::size_t i = begin; i < end; ++i) {
    const Row& r = rows[i];
    if (r.blank_before && !out.empty()) out += '\n';
    std::string line = std::string(static_cast<std::size_t>(r.indent), ' ');
    line += r.comment.empty() ? code[i - begin] : pad_right(code[i - begin], comment_column) + r.comment;
    out += line + '\n';
  }
}

}  // namespace

std::string render_rows(const std::vector<Row>& rows) {
  std::string out;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= rows.size(); ++i)
    if (i == rows.size() || starts_group(rows[i - 1], rows[i])) {
      render_group(rows, begin, i, out);
      begin = i;
    }
  return out;
}

}  // namespace napkin
