#include <catch2/catch.hpp>

#include "interpreter/core/format.hpp"
#include "support.hpp"

using napkin::test::Session;

// SI prefixes are powers of 1000, IEC's (IEC 80000-13) powers of 1024; a byte is 8 bits.
TEST_CASE("SI and IEC prefixes are exact and distinct", "[units]") {
  const auto [expr, si] = GENERATE(table<const char*, double>({
      {"1 GB", 1e9},
      {"1 GiB", 1073741824.0},
      {"1 GiB / 1 GB", 1.073741824},
      {"1 KiB", 1024},
      {"1 kB", 1000},
      {"1 TB/s", 1e12},
      {"8 bit", 1},
      {"100 Gb/s", 12.5e9},
      {"1 Gparam", 1e9},
  }));
  CAPTURE(expr);
  Session s;
  CHECK(s.si(expr) == si);
}

TEST_CASE("a decimal figure with a prefix keeps its digits", "[units]") {
  Session s;
  CHECK(s.si("1307.4 TFLOP/s") == Approx(1.3074e15));
}

TEST_CASE("the lab's exactly-10-GiB KV cache", "[units]") {
  Session s;
  CHECK(s.show("2 * 80 * 8 * 128 * 32768 * 2 B -> GiB") == "10 GiB");
  CHECK(s.si("2 * 80 * 8 * 128 * 32768 * 2 B") == 10.0 * 1073741824.0);
}

// A year is 365 days (docs/language.md's unit table).
TEST_CASE("time units", "[units]") {
  const auto [expr, seconds] = GENERATE(table<const char*, double>({
      {"1 ms", 1e-3},
      {"1 µs", 1e-6},
      {"1 us", 1e-6},
      {"1 h", 3600},
      {"1 day", 86400},
      {"1 year", 365 * 86400.0},
  }));
  CAPTURE(expr);
  Session s;
  CHECK(s.si(expr) == seconds);
}

TEST_CASE("a time converts to the unit asked for", "[units]") {
  Session s;
  CHECK(s.show("39.02 GB / (5.3 TB/s) -> ms") == "7.362 ms");  // 39.02e9 / 5.3e12 s = 7.3623 ms
}

TEST_CASE("display picks a prefix by magnitude", "[units][format]") {
  const auto [expr, shown] = GENERATE(table<const char*, const char*>({
      {"39.02 GB", "39.02 GB"},
      {"5.3 TB/s", "5.3 TB/s"},
      {"989.4 TFLOP/s", "989.4 TFLOP/s"},
      {"1 token / (7.362 ms)", "135.8 token/s"},  // 1 / 0.007362 s = 135.83
      {"0.0175 s", "17.5 ms"},
      {"20.31 day", "20.31 day"},
      {"1365 FLOP/B", "1,365 FLOP/B"},
      {"124_439_808 param", "124,439,808 param"},
      {"6144", "6,144"},
      {"40%", "40%"},
      {"40% * 2", "0.8"},
      {"0.112 -> %", "11.2%"},
      {"$2/hour", "2 USD/hour"},
      {"1.756e23 FLOP", "1.756e23 FLOP"},
  }));
  CAPTURE(expr);
  Session s;
  CHECK(s.show(expr) == shown);
}

TEST_CASE("numbers keep 4 significant digits and group thousands", "[format]") {
  using napkin::format_number;
  CHECK(format_number(135.8490566, 4) == "135.8");
  CHECK(format_number(12345.6, 4) == "12,346");
  CHECK(format_number(0.5, 4) == "0.5");
  CHECK(format_number(1.756e23, 4) == "1.756e23");
  CHECK(format_number(-2.5e-7, 3) == "-2.5e-7");
  CHECK(napkin::format_exact(19509805056.0) == "19,509,805,056");
}

TEST_CASE("adding unlike dimensions names both operands", "[units][errors]") {
  Session s;
  const std::string e = s.error("1 GB + 1 s");
  CHECK(e.find("error[E0201]: cannot add B (bytes) and s (time)") != std::string::npos);
  CHECK(e.find("^^^^ this is B (bytes) (1 GB)") != std::string::npos);
  CHECK(e.find("--- this is s (time) (1 s)") != std::string::npos);
}

TEST_CASE("comparing unlike dimensions is an error", "[units][errors]") {
  Session s;
  CHECK(s.error("1 TFLOP/s > 1 TB/s").find("E0202") != std::string::npos);
  CHECK(s.error("1 GB == 1 GiB") == "");
  CHECK(s.eval("1 GB < 1 GiB").b);
}

TEST_CASE("conversion needs matching dimensions", "[units][errors]") {
  Session s;
  CHECK(s.error("1 GB -> ms").find("E0204") != std::string::npos);
}

TEST_CASE("unknown units get a suggestion", "[units][errors]") {
  Session s;
  CHECK(s.error("3 Gib").find("did you mean GiB?") != std::string::npos);
  CHECK(s.error("3 GBs").find("did you mean GB/s") != std::string::npos);
  CHECK(s.error("1 token/weight_read_time").find("unknown unit `weight_read_time`") != std::string::npos);
}

TEST_CASE("powers of dimensioned values", "[units]") {
  Session s;
  CHECK(s.si("(2 s)^2 / 1 s") == 4);
  CHECK(s.error("(2 s)^0.5").find("E0205") != std::string::npos);
  CHECK(s.error("2^(1 s)").find("E0205") != std::string::npos);
  CHECK(s.show("sqrt(16 B^2)") == "4 B");
}

TEST_CASE("user-declared units", "[units]") {
  Session s;
  s.load("unit request\nunit GPU_hour = 1 hour\nlet rate = 10 request/s\nlet busy = 3 GPU_hour\n");
  CHECK(s.show("rate * 4 s") == "40 request");
  CHECK(s.si("busy") == 3 * 3600);
}
