// The language server's byte and position layers: framing read from
// arbitrary chunks, and UTF-16 positions against UTF-8 offsets.
#include <catch2/catch.hpp>

#include <string>

#include "interpreter/lsp/framing.hpp"
#include "interpreter/lsp/positions.hpp"

using napkin::lsp::LineIndex;
using napkin::lsp::Position;
using napkin::lsp::Reader;

TEST_CASE("lsp framing: split, joined and broken messages", "[lsp]") {
  const std::string a = napkin::lsp::frame("{\"a\":1}"), b = napkin::lsp::frame("{\"b\":22}");
  REQUIRE(a == "Content-Length: 7\r\n\r\n{\"a\":1}");
  Reader r;
  for (char c : a) {  // one byte at a time: nothing until the last
    REQUIRE_FALSE(r.next());
    r.feed(std::string_view(&c, 1));
  }
  CHECK(r.next() == std::string("{\"a\":1}"));
  r.feed(a + b);  // two in one read
  CHECK(r.next() == std::string("{\"a\":1}"));
  CHECK(r.next() == std::string("{\"b\":22}"));
  CHECK_FALSE(r.next());
  // A header block without a length, and one with a bad length, are skipped; the header's name is case-blind.
  r.feed("Content-Type: x\r\n\r\nContent-Length: 7x\r\n\r\ncontent-length:  3 \r\n\r\n{}x");
  CHECK(r.next() == std::string("{}x"));
  CHECK(r.dropped() == 2);
  r.feed("Content-Length: 99999999999\r\n\r\n");  // past kMaxBody
  CHECK_FALSE(r.next());
  CHECK(r.dropped() == 3);
}

TEST_CASE("lsp positions: UTF-16 code units both ways", "[lsp]") {
  // "≈" 3 bytes, "·" 2, "µ" 2, "😀" 4 (two UTF-16 units); then `x` at byte 14 of line 1.
  const std::string text = "ab\n≈·µ😀 x\r\nlast";
  const LineIndex lines(text);
  const std::size_t x = text.find('x');
  REQUIRE(x == 3 + 3 + 2 + 2 + 4 + 1);
  const Position p = lines.position(x);
  CHECK(p.line == 1);
  CHECK(p.character == 1 + 1 + 1 + 2 + 1);  // 6 units, 5 code points, 12 bytes into the line
  CHECK(lines.offset({1, 6}) == x);
  CHECK(lines.offset({1, 3}) == text.find("😀"));
  CHECK(lines.position(text.find("😀") + 4).character == 5);
  CHECK(lines.offset({1, 99}) == text.find('\r'));  // past the line's end: its end, before the \r
  CHECK(lines.offset({9, 0}) == text.size());        // past the last line: the end
  CHECK(lines.offset({0, 2}) == 2);
  CHECK(lines.position(text.size()).line == 2);
  CHECK(lines.position(text.size()).character == 4);
}
