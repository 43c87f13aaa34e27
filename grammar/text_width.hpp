#pragma once
// Columns on screen, for aligning text: one per UTF-8 code point, so `≈`,
// `·`, `×` and `→` count as one each.
#include <algorithm>
#include <string>
#include <string_view>

namespace napkin {

inline std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

inline int display_width(std::string_view s) { return static_cast<int>(code_points(s)); }

// `s` followed by spaces up to `width` columns.
inline std::string pad_right(const std::string& s, int width) {
  return s + std::string(static_cast<std::size_t>(std::max(0, width - display_width(s))), ' ');
}
inline std::string pad_right(const std::string& s, std::size_t width) {
  const std::size_t n = code_points(s);
  return s + std::string(width > n ? width - n : 0, ' ');
}

}  // namespace napkin
