#pragma once
// A dimension is a vector of integer exponents over the base units: byte,
// FLOP, second, token, param, USD, and any `unit NAME` a file declares.
#include <array>
#include <cstdint>
#include <string>

namespace napkin {

inline constexpr std::size_t kMaxBaseUnits = 16;

enum BaseUnit : std::uint8_t { kByte = 0, kFlop, kSecond, kToken, kParam, kUsd, kBuiltinBaseUnits };

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
