#include "whole_number.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "diagnostic.hpp"

namespace napkin {

namespace {

// The exact decimal digits of a whole double (fmt writes them all).
std::string exact_digits(double v) { return fmt::format("{:.0f}", v); }

// a < b for two numbers written as decimal digits without leading zeros.
bool less(const std::string& a, std::string_view b) {
  return a.size() != b.size() ? a.size() < b.size() : std::string_view(a) < b;
}

// 9007199254740993 -> 9,007,199,254,740,993
std::string grouped(const std::string& d) {
  std::string out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

}  // namespace

void check_whole_number(std::string_view digits, double v, Span at) {
  if (digits.find_first_of(".eE") != std::string_view::npos) return;  // a decimal: the nearest double is meant
  if (std::fabs(v) < 9007199254740992.0) return;  // below 2^53 every whole number is held
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  const std::string held = exact_digits(v);
  if (held == digits) return;
  // The two whole numbers a double holds on either side of the one written.
  const double below = less(held, digits) ? v : std::nextafter(v, 0.0);
  const double above = less(held, digits) ? std::nextafter(v, INFINITY) : v;
  const std::string lo = exact_digits(below), hi = exact_digits(above);
  std::string approx(digits.substr(0, 1));
  if (digits.size() > 1) approx += "." + std::string(digits.substr(1, 15));
  while (approx.size() > 2 && approx.back() == '0') approx.pop_back();
  if (approx.back() == '.') approx.pop_back();
  fail(codes::inexact_whole_number, at,
       fmt::format("the whole number {} cannot be held exactly: napkin holds every whole number up to 2^53 = "
                   "9,007,199,254,740,992 but only some above it, and the nearest are {} and {}",
                   grouped(std::string(digits)), grouped(lo), grouped(hi)),
       fmt::format("write `{}` or `{}` for an exact count, or `{}e{}` for an approximate value", lo, hi, approx,
                   digits.size() - 1));
}

}  // namespace napkin
