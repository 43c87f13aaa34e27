#include "escape.hpp"

#include <algorithm>

#include "grammar/text_escape.hpp"

namespace napkin {
namespace {

std::size_t longest_backtick_run(std::string_view s) {
  std::size_t run = 0, longest = 0;
  for (const char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markdown_text(std::string_view s) {
  std::string out;
  for (const char c : visible_controls(s, false)) {
    if (std::string_view("\\`*_[]<>|#&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_code(std::string_view s) {
  const std::string t = visible_controls(s, false);
  const std::string fence(longest_backtick_run(t) + 1, '`');
  const bool pad = !t.empty() && (t.front() == '`' || t.back() == '`');
  return fence + (pad ? " " : "") + t + (pad ? " " : "") + fence;
}

std::string markdown_cell(std::string_view s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string markdown_block(std::string_view text, const std::string& indent) {
  const std::string t = visible_controls(text, true);
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(t) + 1), '`');
  std::string out = indent + fence + "\n";
  for (std::size_t start = 0; start < t.size();) {
    const std::size_t end = t.find('\n', start);
    out += indent + t.substr(start, end - start) + "\n";
    start = end == std::string::npos ? t.size() : end + 1;
  }
  return out + indent + fence + "\n";
}

std::string xml_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
    if (i + 2 < s.size() && s.substr(i, 2) == "\xEF\xBF" && (s[i + 2] == '\xBE' || s[i + 2] == '\xBF')) {
      out += s[i + 2] == '\xBE' ? "\\ufffe" : "\\uffff";
      i += 2;
      continue;
    }
    out += s[i];
  }
  std::string escaped;
  for (const char c : visible_controls(out, false)) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace napkin
