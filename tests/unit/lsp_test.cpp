// The language server's byte and position layers: framing read from
// arbitrary chunks (and back in step after a bad frame), UTF-16 positions
// against UTF-8 offsets, and where the std modules' copies may be written.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "interpreter/lsp/framing.hpp"
#include "interpreter/lsp/positions.hpp"
#include "interpreter/lsp/uris.hpp"

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

TEST_CASE("lsp framing: the frame after a bad one is read", "[lsp]") {
  const std::string body = "{\"id\":1}", good = napkin::lsp::frame("{\"b\":22}");
  for (const std::string& bad : {"Content-Length: -2\r\n\r\n" + body,         // a length that is no length
                                 "X-Nothing: 1\r\n\r\n" + body,                 // no length, and a body
                                 std::string(100'000, 'x') + body,               // noise with no blank line
                                 "Content-Length: 99999999999999999999999\r\n\r\n" + body}) {
    Reader r;
    r.feed(bad);
    for (std::size_t i = 0; i < good.size(); i += 5) {  // the good frame in pieces, its header split
      r.feed(good.substr(i, 5));
      if (i + 5 < good.size()) CHECK_FALSE(r.next());
    }
    CHECK(r.next() == std::string("{\"b\":22}"));
    CHECK(r.dropped() >= 1);
  }
  Reader r;  // a length two bytes short: the short body, then the next frame whole
  r.feed("Content-Length: 6\r\n\r\n" + body + good + good);
  CHECK(r.next() == std::string("{\"id\":"));
  CHECK(r.next() == std::string("{\"b\":22}"));
  CHECK(r.next() == std::string("{\"b\":22}"));
  CHECK(r.dropped() == 1);
}

TEST_CASE("lsp std copies: a module's name never leaves the folder", "[lsp]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("napkin-lsp-std-names-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path dir = root / "a" / "b";
  const std::string absolute = "std/" + (root / "abs").generic_string();  // inside `root`, so a failure writes nothing else
  for (const std::string& bad : {std::string("std/../../x"), std::string("std/./../x"), absolute, std::string("std/a//b"),
                                 std::string("std/"), std::string("std/.hidden"), std::string("std/a\\..\\x"),
                                 std::string("std/a/.."), std::string("other/x")}) {
    INFO(bad);
    CHECK(napkin::lsp::std_file_uri(napkin::SourceFile{bad, "let x = 1\n", ""}, dir.string()).empty());
  }
  CHECK_FALSE(fs::exists(root));  // nothing written, not even the folder
  const std::string uri = napkin::lsp::std_file_uri(napkin::SourceFile{"std/sub/m-1_v2.0", "let x = 1\n", ""}, dir.string());
  CHECK(uri == napkin::lsp::path_to_uri(fs::absolute(dir / "sub" / "m-1_v2.0.napkin").lexically_normal().generic_string()));
  CHECK(fs::exists(dir / "sub" / "m-1_v2.0.napkin"));
  fs::remove_all(root);
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
