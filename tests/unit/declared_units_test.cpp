// The base dimensions, their spellings, the names messages give dimensions
// and the spellings of names are declared in napkin (std/units,
// std/dtypes), and a file declares its own the same way: the standard
// library has no privilege. Expected values are worked by hand from the
// declarations (2^30 B in a GiB, 8 bit in a byte, 60 s in a minute).
#include <catch2/catch.hpp>

#include "interpreter/layout/formatter.hpp"
#include "support.hpp"

using napkin::test::Session;
using namespace napkin;
using Catch::Contains;

TEST_CASE("std/units declares the units a file writes without importing anything", "[units][declared]") {
  Session s;
  s.load("let a = 1 GiB\nlet b = 3 Gb\nlet c = 90 min\nlet d = 2 $\nlet e = 1.5 kbyte\n");
  CHECK(s.si("a") == 1073741824.0);  // 2^30 B
  CHECK(s.si("b") == 375000000.0);   // 3e9 bit / 8
  CHECK(s.si("c") == 5400.0);        // 90 × 60 s
  CHECK(s.si("d") == 2.0);           // $ is USD
  CHECK(s.si("e") == 1500.0);        // byte takes si
  CHECK(s.show("c") == "1.5 h");
}

TEST_CASE("which prefix family a unit takes is declared with it", "[units][declared]") {
  Session s;
  // s takes none: `ks` next to `ms` would read as either.
  CHECK_THAT(s.load_error("let x = 1 ks\n"), Contains("unknown unit `ks`"));
  // byte takes si only; B and bit take iec too.
  CHECK_THAT(s.load_error("let x = 1 Gibyte\n"), Contains("unknown unit `Gibyte`"));
  CHECK_THAT(s.load_error("let x = 1 kUSD\n"), Contains("unknown unit `kUSD`"));
  s.load("let x = 1 Kibit\n");
  CHECK(s.si("x") == 128.0);  // 1024 / 8
}

TEST_CASE("a file declares its own base unit, its spellings and its dimension's name", "[units][declared]") {
  Session s;
  s.load("unit wafer prefixes si\n"
         "unit wafers = 1 wafer\n"
         "dimension \"a wafer rate\" = wafer/s\n"
         "let made = 3 kwafer\n"
         "let rate = 12 wafers / 1 min\n");
  CHECK(s.si("made") == 3000.0);
  CHECK(s.si("rate") == 0.2);  // 12 / 60 s
  CHECK_THAT(s.error("rate + 1 token/s"), Contains("cannot add wafer/s (a wafer rate) and token/s (a token rate)"));
  // Without `prefixes`, a base unit takes si, as `unit request` always has.
  s.load("unit die\nlet dies = 2 Mdie\n");
  CHECK(s.si("dies") == 2e6);
}

TEST_CASE("errors name dimensions by the names std/units gives them", "[units][declared]") {
  Session s;
  s.load("let x = 1\n");
  CHECK_THAT(s.error("1 GB + 1 s"), Contains("cannot add B (bytes) and s (time)"));
  CHECK_THAT(s.error("1 TB/s + 1 TFLOP/s"), Contains("cannot add B/s (bandwidth) and FLOP/s (throughput)"));
  CHECK_THAT(s.error("2 B/param + 1 B/token"), Contains("cannot add B/param (bytes per parameter) and B/token (bytes per token)"));
  // A dimension nobody named is written in base units alone.
  CHECK_THAT(s.error("1 B*s + 1 FLOP/param"), Contains("cannot add B*s and FLOP/param"));
}

TEST_CASE("a spelling std/dtypes declares suggests its number format", "[units][declared][suggest]") {
  Session s;
  s.load("import \"std/dtypes\"\nlet a = bfloat16\nlet b = half\nlet c = e4m3\n");
  CHECK_THAT(s.error("a"), Contains("did you mean `bf16`?"));
  CHECK_THAT(s.error("b"), Contains("did you mean `fp16`?"));
  CHECK_THAT(s.error("c"), Contains("did you mean `fp8`?"));
  // Without std/dtypes there is no fp16 to suggest.
  Session bare;
  bare.load("let b = half\n");
  CHECK_THAT(bare.error("b"), !Contains("fp16"));
}

TEST_CASE("a file declares its own suggestion for a spelling", "[units][declared][suggest]") {
  Session s;
  s.load("let learning_rate = 3e-4\nsuggest learning_rate for lr, eta\nlet z = lr * 2\n");
  // First, before the nearest names by spelling (the builtin `ln`).
  CHECK_THAT(s.error("z"), Contains("did you mean `learning_rate` or `ln`?"));
  Session without;
  without.load("let learning_rate = 3e-4\nlet z = lr * 2\n");
  CHECK_THAT(without.error("z"), !Contains("learning_rate"));
}

TEST_CASE("fmt keeps the declarations as written", "[units][declared][fmt]") {
  const std::string text =
      "unit wafer prefixes si, iec\n"
      "unit wafers prefixes si = 1 wafer\n"
      "unit s2 prefixes none = 2 s\n"
      "dimension \"a wafer rate\" = wafer/s\n"
      "let learning_rate = 3e-4\n"
      "suggest learning_rate for lr, eta\n";
  CHECK(format_source(SourceFile{"t.napkin", text, ""}) == text);
}
