#include "source.hpp"

#include <fmt/format.h>

namespace napkin {

std::pair<int, int> SourceFile::line_col(std::size_t offset) const {
  int line = 1;
  int col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      col = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++col;  // continuation bytes do not start a new column
    }
  }
  return {line, col};
}

std::string_view SourceFile::line_text(int line) const {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  std::size_t end = text.find('\n', pos);
  if (end == std::string::npos) end = text.size();
  std::string_view v(text);
  v = v.substr(pos, end - pos);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

std::string Span::where() const {
  if (!file) return "<unknown>";
  auto [l, c] = file->line_col(begin);
  return fmt::format("{}:{}:{}", file->name, l, c);
}

std::string Span::where_line() const {
  if (!file) return "<unknown>";
  return fmt::format("{}:{}", file->name, file->line_col(begin).first);
}

}  // namespace napkin
