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

namespace {

// Only blanks between `from` and `to`, with at most one line break.
bool adjacent(std::string_view text, std::size_t from, std::size_t to) {
  int breaks = 0;
  for (std::size_t i = from; i < to; ++i) {
    if (text[i] == '\n') ++breaks;
    else if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') return false;
  }
  return breaks <= 1;
}

}  // namespace

std::string leading_comment(std::string_view text, const std::vector<Comment>& comments, std::uint32_t begin) {
  std::size_t next = begin;
  std::vector<const Comment*> block;
  for (auto it = comments.rbegin(); it != comments.rend(); ++it) {
    if (it->begin >= next) continue;
    if (!it->own_line || !adjacent(text, it->end, next)) break;
    block.push_back(&*it);
    next = it->begin;
  }
  std::string out;
  for (auto it = block.rbegin(); it != block.rend(); ++it) {
    std::string_view line = (*it)->text;
    const std::size_t text_at = line.find_first_not_of('#');
    if (text_at == std::string_view::npos) continue;  // a line of `#` only
    line.remove_prefix(text_at);
    if (!line.empty() && line[0] == ' ') line.remove_prefix(1);
    if (line.empty()) continue;
    if (!out.empty()) out += ' ';
    out += line;
  }
  return out;
}

}  // namespace napkin
