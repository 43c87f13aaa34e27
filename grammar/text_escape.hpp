#pragma once
// Text from a file (a string, a name, a message quoting them) as it may be
// shown: no byte of it can drive a terminal, end a line it should not end,
// or make the output invalid UTF-8. Each output syntax escapes further on top
// of this (interpreter/output/escape.hpp: Markdown, LaTeX, XML).
//
// The rule, everywhere: a control character (U+0000–U+001F bar the ones
// allowed, U+007F, U+0080–U+009F) is written as its escape, `\x1b` or
// `\u009b`; a byte that is not UTF-8 text is written `\xff`. A file cannot
// write these escapes itself without a backslash the output shows too.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "utf8.hpp"

namespace napkin {

// `s` with its control characters and stray bytes written as escapes; a
// newline and a tab are kept when `keep_lines` (text meant to span lines).
inline std::string visible_controls(std::string_view s, bool keep_lines = true) {
  // Printable ASCII (and a kept newline or tab) is copied as it stands: a
  // report is mostly that, and is checked in runs, not byte by byte.
  const auto plain = [keep_lines](unsigned char c) {
    return (c >= 0x20 && c < 0x7F) || (keep_lines && (c == '\n' || c == '\t'));
  };
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t run = i;
    while (run < s.size() && plain(p[run])) ++run;
    if (run > i) {
      out.append(s.substr(i, run - i));
      i = run;
      continue;
    }
    const unsigned char c = p[i];
    const std::size_t len = utf8_sequence(p + i, s.size() - i);
    if (len == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (len == 1 && (c < 0x20 || c == 0x7F) && !(keep_lines && (c == '\n' || c == '\t'))) {
      out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : fmt::format("\\x{:02x}", c);
      ++i;
    } else if (len == 2 && c == 0xC2 && p[i + 1] < 0xA0) {  // U+0080–U+009F: C1 controls (CSI is U+009B)
      out += fmt::format("\\u{:04x}", p[i + 1]);
      i += 2;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

// A string value as `run` shows it: quoted, as it would be written in a file
// (`\"`, `\\`, `\n`, `\t`), its other control characters as escapes. One
// line, whatever the string holds.
inline std::string shown_string(std::string_view s) {
  std::string t = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') t += '\\';
    t += c;
  }
  return visible_controls(t, false) + "\"";
}

}  // namespace napkin
