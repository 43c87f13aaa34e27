#pragma once
// UTF-8 validity, for reading source files and for echoing their lines.
#include <cstddef>

namespace napkin {

// The length of the valid UTF-8 sequence at p[0], or 0 if the bytes there
// are not one: a stray continuation byte, a truncated sequence, an overlong
// form, a UTF-16 surrogate or a code point past U+10FFFF.
inline std::size_t utf8_sequence(const unsigned char* p, std::size_t available) {
  const unsigned char c = p[0];
  const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || len > available) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((p[k] & 0xC0) != 0x80) return 0;
  if (len > 1) {
    const unsigned char c1 = p[1];
    if (c == 0xC0 || c == 0xC1 || (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) ||
        (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90) || c > 0xF4)
      return 0;
  }
  return len;
}

}  // namespace napkin
