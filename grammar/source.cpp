#include "source.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace napkin {

void normalize_source(std::string& text) {
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  for (std::size_t i = text.find('\r'); i != std::string::npos; i = text.find('\r', i + 1))
    if (i + 1 == text.size() || text[i + 1] != '\n') text[i] = '\n';
}

std::pair<int, int> SourceFile::line_col(std::size_t offset) const {
  if (line_starts.empty() || indexed_text != text.data() || indexed_size != text.size()) {
    // A line ends at \n, \r\n, or a lone \r (an old Mac file).
    // One pass over the bytes: find_first_of with a set calls memchr per byte.
    line_starts.assign(1, 0);
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
      const char c = text[i];
      if (c != '\n' && c != '\r') continue;
      if (c == '\r' && i + 1 < n && text[i + 1] == '\n') ++i;
      line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    }
    indexed_text = text.data();
    indexed_size = text.size();
  }
  const std::size_t end = std::min(offset, text.size());
  const auto after = std::upper_bound(line_starts.begin(), line_starts.end(), end);
  const std::size_t line = static_cast<std::size_t>(after - line_starts.begin());
  int col = 1;
  for (std::size_t i = line_starts[line - 1]; i < end; ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++col;  // continuation bytes do not start a new column
  return {static_cast<int>(line), col};
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1) return {};
  line_col(0);  // builds line_starts
  if (static_cast<std::size_t>(line) > line_starts.size()) return {};
  const std::size_t pos = line_starts[static_cast<std::size_t>(line) - 1];
  std::size_t end = text.find_first_of("\r\n", pos);
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
