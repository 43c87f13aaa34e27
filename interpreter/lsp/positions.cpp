#include "positions.hpp"

#include <algorithm>

namespace napkin::lsp {
namespace {

// Bytes in the UTF-8 sequence that starts with `c` (1 for a stray byte, so
// malformed text still advances).
std::size_t sequence_length(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return c < 0xF0 ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

Position LineIndex::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const std::size_t line = static_cast<std::size_t>(it - starts_.begin()) - 1;
  int units = 0;
  for (std::size_t i = starts_[line]; i < offset;) {
    const std::size_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return {static_cast<int>(line), units};
}

std::size_t LineIndex::offset(Position p) const {
  if (p.line < 0) return 0;
  if (static_cast<std::size_t>(p.line) >= starts_.size()) return text_.size();
  std::size_t i = starts_[static_cast<std::size_t>(p.line)];
  std::size_t end = static_cast<std::size_t>(p.line) + 1 < starts_.size() ? starts_[p.line + 1] - 1 : text_.size();
  if (end > i && text_[end - 1] == '\r') --end;
  for (int units = 0; i < end && units < p.character;) {
    const std::size_t n = sequence_length(static_cast<unsigned char>(text_[i]));
    units += n == 4 ? 2 : 1;
    i = std::min(i + n, end);
  }
  return i;
}

}  // namespace napkin::lsp
