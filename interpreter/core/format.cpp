#include "format.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

std::string group_thousands(std::string s) {
  const std::size_t start = (s[0] == '-') ? 1 : 0;
  std::size_t end = s.find('.');
  if (end == std::string::npos) end = s.size();
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(end) - 3; i > static_cast<std::ptrdiff_t>(start); i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

struct Scale {
  const char* symbol;
  double factor;
};

}  // namespace

// The formats below are compiled (FMT_COMPILE): a sweep's table formats
// tens of thousands of quantities, and parsing a format string at run time
// was a third of that.
bool is_exact_integer(double v) { return std::isfinite(v) && std::fabs(v) < 9007199254740992.0 && v == std::trunc(v); }

// A zero is shown as 0 whatever its sign, in every unit: `-0 GB` and a
// `-0` count both print 0. (JSON and CSV write zero as 0 too:
// unsigned_zero.)
std::string format_exact(double v) {
  if (v == 0) return "0";
  return group_thousands(fmt::format(FMT_COMPILE("{:.0f}"), v));
}

std::string format_number(double v, int digits) {
  if (v == 0) return "0";
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a >= 1e15 || a < 1e-4) {
    std::string s = fmt::format("{:.{}e}", v, digits - 1);  // 1.756e+23
    const std::size_t e = s.find('e');
    std::string mant = trim_zeros(s.substr(0, e));
    int exp = std::stoi(s.substr(e + 1));
    return fmt::format(FMT_COMPILE("{}e{}"), mant, exp);
  }
  const int mag = static_cast<int>(std::floor(std::log10(a)));
  const int decimals = std::max(0, digits - 1 - mag);
  return group_thousands(trim_zeros(fmt::format(FMT_COMPILE("{:.{}f}"), v, decimals)));
}

// How a quantity is shown: the number, scaled, and the unit after it.
struct QuantityScale {
  double factor = 1;
  bool multiply = false;        // x * factor (USD/s shown per hour), else x / factor
  double exact_below = 0;       // integers below this are shown exactly (0: never)
  std::string suffix;           // " GB", "%", " token/s"
  double apply(double x) const { return multiply ? x * factor : x / factor; }
  std::string number(double x, int digits) const {
    const double y = apply(x);
    return is_exact_integer(y) && std::fabs(y) < exact_below ? format_exact(y) : format_number(y, digits);
  }
};

namespace {

QuantityScale quantity_scale(const Quantity& q, const DisplayUnit* display, const UnitTable& units) {
  constexpr double kAny = 1e300;
  if (display) {
    if (display->text == "%") return {display->scale, false, kAny, "%"};
    return {display->scale, false, kAny, " " + display->text};
  }
  const Dim& d = q.dim;
  const double a = std::fabs(q.v);
  if (d.dimensionless()) return {1, false, 1e15, ""};

  // Which single base unit stands in the numerator (with power 1), if any.
  int head = -1;
  int numerators = 0;
  for (std::size_t i = 0; i < units.base_count(); ++i)
    if (d.e[i] > 0) {
      ++numerators;
      if (d.e[i] == 1) head = static_cast<int>(i);
    }
  if (numerators != 1) head = -1;
  std::string unit = units.format(d);

  // The conventions of the base dimensions std/units declares (UnitTable::Shown).
  const UnitTable::Shown& k = units.shown();
  auto power = [&](int base) { return base >= 0 ? d.e[static_cast<std::size_t>(base)] : 0; };
  auto only = [&](int base) { return base >= 0 && d.is(static_cast<std::size_t>(base)); };
  const bool counted = head >= 0 && (head == k.token || head == k.param);

  if (head >= 0 && head == k.second) {
    Dim rest = d;
    rest.e[static_cast<std::size_t>(k.second)] = 0;
    const std::string tail = unit.substr(units.base_name(static_cast<std::size_t>(head)).size());  // "" or "/token"
    static constexpr Scale small[] = {{"ns", 1e-9}, {"µs", 1e-6}, {"ms", 1e-3}, {"s", 1}};
    static constexpr Scale large[] = {{"min", 60}, {"h", 3600}, {"day", 86400}, {"year", 365 * 86400.0}};
    Scale pick = {"s", 1};
    if (a > 0 && a < 1) {
      for (const auto& s : small)
        if (a >= s.factor * 0.99995) pick = s;
      if (a < 1e-9) pick = small[0];
    } else if (rest.dimensionless()) {
      for (const auto& s : large)
        if (a >= s.factor) pick = s;
    }
    return {pick.factor, false, 0, fmt::format(FMT_COMPILE(" {}{}"), pick.symbol, tail)};
  }
  // Money per second reads as money per hour.
  if (k.second >= 0 && !only(k.usd) && power(k.usd) == 1 && power(k.second) == -1) {
    Dim rest = d;
    rest.e[static_cast<std::size_t>(k.usd)] = 0;
    rest.e[static_cast<std::size_t>(k.second)] = 0;
    if (rest.dimensionless()) return {3600, true, 0, " USD/hour"};
  }
  if (counted) {
    if (is_exact_integer(q.v) && a < 1e15) return {1, false, 1e15, " " + unit};
  }
  if (counted || (head >= 0 && (head == k.byte || head == k.flop))) {
    static constexpr Scale si[] = {{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
    if (a >= 1e4 && a < 1e21) {
      // Throughput reads in TFLOP/s, as spec sheets print it, even past 1000.
      const bool flop_rate = !only(k.flop) && power(k.flop) == 1 && power(k.second) == -1 &&
                             std::count_if(d.e.begin(), d.e.end(), [](auto x) { return x != 0; }) == 2;
      Scale pick = si[0];
      for (const auto& s : si)
        if (a >= s.factor * 0.99995 && !(flop_rate && s.factor > 1e12)) pick = s;
      return {pick.factor, false, 0, fmt::format(FMT_COMPILE(" {}{}"), pick.symbol, unit)};
    }
  }
  return {1, false, 0, " " + unit};
}

}  // namespace

std::string format_quantity(const Quantity& q, const DisplayUnit* display, const UnitTable& units, int digits) {
  const QuantityScale s = quantity_scale(q, display, units);
  return s.number(q.v, digits) + s.suffix;
}

// `135.8 token/s (90%: 121–150)`: the median as a number is shown, and the
// interval's ends in the same unit with one digit fewer.
std::string format_range(const Quantity& median, double p5, double p95, const DisplayUnit* display,
                         const UnitTable& units, int digits) {
  const QuantityScale s = quantity_scale(median, display, units);
  const int end_digits = std::max(2, digits - 1);
  return fmt::format("{}{} (90%: {}–{})", s.number(median.v, digits), s.suffix, s.number(p5, end_digits),
                     s.number(p95, end_digits));
}

ShownQuantity shown_quantity(const Quantity& q, const DisplayUnit* display, const UnitTable& units, int digits) {
  const QuantityScale s = quantity_scale(q, display, units);
  const std::string unit = !s.suffix.empty() && s.suffix[0] == ' ' ? s.suffix.substr(1) : s.suffix;
  return {s.number(q.v, digits), s.suffix, DisplayUnit{unit, s.multiply ? 1 / s.factor : s.factor}};
}

}  // namespace napkin
