#include "comments.hpp"

#include <algorithm>

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

namespace {

// A comment line as prose: the markers and the one space after them
// dropped; a rule (only `#`, `-`, `=` and blanks) is ""; a heading between
// rules (`# ---- the spec ----`) is its words.
// `heading` says it was such a heading: a paragraph of its own, so that it
// never runs into the sentence below it.
std::string line_text(std::string_view line, bool& heading) {
  line.remove_prefix(std::min(line.size(), line.find_first_not_of('#')));
  if (!line.empty() && line[0] == ' ') line.remove_prefix(1);
  constexpr std::string_view rule = "-=# \t";
  heading = false;
  if (line.find_first_not_of(rule) == std::string_view::npos) return {};
  if (line.substr(0, 2) == "--" || line.substr(0, 2) == "==") {
    heading = true;
    line.remove_prefix(line.find_first_not_of(rule));
    line.remove_suffix(line.size() - 1 - line.find_last_not_of(rule));
  }
  return std::string(line);
}

CommentBlock block_of(const std::vector<const Comment*>& lines) {
  CommentBlock b;
  if (lines.empty()) return b;
  b.begin = lines.front()->begin;
  std::vector<std::string> out;
  for (const Comment* c : lines) {
    bool heading = false;
    out.push_back(line_text(c->text, heading));
    if (heading) out.emplace_back();
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  std::size_t first = 0;
  while (first < out.size() && out[first].empty()) ++first;
  for (std::size_t i = first; i < out.size(); ++i) {
    if (i > first && out[i].empty() && out[i - 1].empty()) continue;  // one empty line between paragraphs
    if (i > first) b.text += '\n';
    b.text += out[i];
  }
  return b;
}

}  // namespace

CommentBlock comment_block_above(std::string_view text, const std::vector<Comment>& comments, std::uint32_t begin) {
  std::size_t next = begin;
  std::vector<const Comment*> block;
  for (auto it = comments.rbegin(); it != comments.rend(); ++it) {
    if (it->begin >= next) continue;
    if (!it->own_line || !adjacent(text, it->end, next)) break;
    block.push_back(&*it);
    next = it->begin;
  }
  std::reverse(block.begin(), block.end());
  return block_of(block);
}

CommentBlock opening_comment(std::string_view text, const std::vector<Comment>& comments) {
  std::vector<const Comment*> block;
  std::size_t from = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  for (const auto& c : comments) {
    // Only blanks before the first; then one comment a line, no blank line between.
    if (block.empty() ? text.substr(from, c.begin - from).find_first_not_of(" \t\r\n") != std::string_view::npos
                      : !adjacent(text, from, c.begin))
      break;
    if (!c.own_line) break;
    block.push_back(&c);
    from = c.end;
  }
  return block_of(block);
}

}  // namespace napkin
