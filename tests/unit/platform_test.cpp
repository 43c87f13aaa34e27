// The platform files (grammar/platform/): the strtod fallback that the
// WebAssembly build parses numbers with, held to std::from_chars on the
// texts napkin passes it and on those it must refuse alike.
#include <catch2/catch.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "grammar/platform/bit_cast.hpp"
#include "grammar/platform/from_chars.hpp"

namespace {

struct Read {
  std::errc ec;
  std::ptrdiff_t used;
  std::uint64_t bits;
};

template <class F>
Read read(F f, const std::string& s) {
  double v = -7.25;  // left as it is on an error
  const auto [p, ec] = f(s.data(), s.data() + s.size(), v);
  return {ec, p - s.data(), napkin::bit_cast<std::uint64_t>(v)};
}

}  // namespace

TEST_CASE("the strtod fallback reads as std::from_chars does", "[platform]") {
  const std::vector<std::string> texts{
      // What the grammar passes: digits, a point, an exponent, underscores removed.
      "0", "1", "42", "6144", "19510401024", "0.5", "3.14159", "1e3", "2.5e-7", "1E+9", "128256", "0.0001",
      "123456789012345678901234567890", "1.7976931348623157e308", "4.9406564584124654e-324", "2.2250738585072014e-308",
      // Out of range: overflow, and underflow to zero.
      "1e309", "1e400", "1e-400", "-1e400",
      // Rejected or read in part alike.
      "", "-", "+1", " 1", "\t1", "\n1", ".", "e5", "1e", "1e+", "1.5x", "0x10", "0X1p3", "-0x8", "12abc", "1..2",
      "-0", "-3.5", "inf", "-inf", "nan", "infinity", "1_000"};
  for (const auto& s : texts) {
    CAPTURE(s);
    const Read want = read([](const char* f, const char* l, double& v) { return std::from_chars(f, l, v); }, s);
    const Read got = read(napkin::from_chars_strtod, s);
    CHECK(got.ec == want.ec);
    CHECK(got.used == want.used);
    CHECK(got.bits == want.bits);
  }
}

TEST_CASE("bit_cast keeps every bit of a double", "[platform]") {
  // IEEE 754 binary64: 1.0 is 0x3FF0000000000000, -0.0 is the sign bit alone.
  CHECK(napkin::bit_cast<std::uint64_t>(1.0) == 0x3FF0000000000000u);
  CHECK(napkin::bit_cast<std::uint64_t>(-0.0) == 0x8000000000000000u);
  CHECK(napkin::bit_cast<double>(std::uint64_t{0x4045000000000000u}) == 42.0);
}
