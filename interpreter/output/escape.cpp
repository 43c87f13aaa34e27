#include "escape.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "grammar/text_escape.hpp"
#include "grammar/utf8.hpp"

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

std::string xml_text(std::string_view s, bool keep_lines) {
  // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are valid UTF-8 but not XML
  // characters: shown as escapes before the controls are.
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i + 2 < s.size() && s.substr(i, 2) == "\xEF\xBF" && (s[i + 2] == '\xBE' || s[i + 2] == '\xBF')) {
      out += s[i + 2] == '\xBE' ? "\\ufffe" : "\\uffff";
      i += 2;
      continue;
    }
    out += s[i];
  }
  std::string escaped;
  escaped.reserve(out.size());
  for (const char c : visible_controls(out, keep_lines)) {
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

std::string document_controls(std::string_view doc) {
  std::string out;
  out.reserve(doc.size());
  const auto* p = reinterpret_cast<const unsigned char*>(doc.data());
  for (std::size_t i = 0; i < doc.size();) {
    const unsigned char c = p[i];
    if (c >= 0x20 && c < 0x7F) {  // most of a document: copied in runs
      std::size_t run = i + 1;
      while (run < doc.size() && p[run] >= 0x20 && p[run] < 0x7F) ++run;
      out.append(doc.substr(i, run - i));
      i = run;
      continue;
    }
    const std::size_t len = utf8_sequence(p + i, doc.size() - i);
    if (len == 0) {
      out += "\uFFFD";
      ++i;
    } else if (c == 0x7F) {
      out += "\\u007f";
      ++i;
    } else if (len == 2 && c == 0xC2 && p[i + 1] < 0xA0) {
      out += fmt::format("\\u{:04x}", p[i + 1]);
      i += 2;
    } else {
      out.append(doc.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace napkin
