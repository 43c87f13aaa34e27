#include "comments.hpp"

namespace napkin {

std::vector<Comment> find_comments(std::string_view text) {
  std::vector<Comment> out;
  const std::size_t n = text.size();
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (c == '\n') {
      line_start = i + 1;
    } else if (c == '"') {
      // Strings stay on one line; an escape may hide a quote.
      for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      if (i < n && text[i] == '\n') line_start = i + 1;
    } else if (c == '#') {
      std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = n;
      std::size_t trimmed = end;
      while (trimmed > i && (text[trimmed - 1] == ' ' || text[trimmed - 1] == '\t' || text[trimmed - 1] == '\r'))
        --trimmed;
      Comment cm;
      cm.begin = static_cast<std::uint32_t>(i);
      cm.end = static_cast<std::uint32_t>(trimmed);
      std::size_t from = line_start;
      if (from == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") from = 3;  // a byte-order mark
      cm.own_line = text.substr(from, i - from).find_first_not_of(" \t") == std::string_view::npos;
      cm.text = std::string(text.substr(i, trimmed - i));
      out.push_back(std::move(cm));
      i = end == n ? n : end - 1;  // the loop's ++i lands on the newline
    }
  }
  return out;
}

}  // namespace napkin
