#pragma once
// A dimension is a vector of integer exponents over the base units, each a
// `unit NAME` without a value, numbered as declared: std/units declares B,
// FLOP, s, token, param and USD first, then come those of other modules and
// files (`unit W`, `unit request`).
#include <array>
#include <cstdint>
#include <string>

namespace napkin {

inline constexpr std::size_t kMaxBaseUnits = 16;

struct Dim {
  std::array<std::int8_t, kMaxBaseUnits> e{};

  static Dim base(std::size_t i) {
    Dim d;
    d.e[i] = 1;
    return d;
  }
  bool dimensionless() const {
    for (auto x : e)
      if (x) return false;
    return true;
  }
  bool operator==(const Dim& o) const { return e == o.e; }
  bool operator!=(const Dim& o) const { return e != o.e; }
  Dim operator*(const Dim& o) const;
  Dim operator/(const Dim& o) const;
  Dim pow(int n) const;
  // Exponents are 8-bit: an operation whose result would hold a power
  // beyond ±kMaxExponent is an error at the operator, never a wrap.
  static constexpr int kMaxExponent = 100;
  bool product_in_range(const Dim& o, int sign = 1) const;  // this * o (sign 1) or this / o (sign -1)
  bool power_in_range(long long n) const;
  bool is(std::size_t base_unit, int power = 1) const;  // exactly base^power
};

}  // namespace napkin
