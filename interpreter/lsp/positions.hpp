#pragma once
// The protocol counts a line's characters in UTF-16 code units; napkin's
// spans count bytes of UTF-8. `≈` and `·` are three bytes and one unit, `µ`
// two bytes and one unit, a character past U+FFFF four bytes and two units.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace napkin::lsp {

struct Position {
  int line = 0;       // 0-based
  int character = 0;  // UTF-16 code units from the line's start
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  Position position(std::size_t offset) const;
  // A position past its line's end is its line's end, a line past the last
  // is the text's end (what the protocol asks of a server).
  std::size_t offset(Position p) const;

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

}  // namespace napkin::lsp
