#pragma once
// When two magnitudes in SI units are equal: the rule `==`, `!=`, `<=` and
// `>=` share in the tree walker, in `prob(...)` and in a compiled sweep.
#include <algorithm>
#include <cmath>
#include <limits>

namespace napkin {

// A double holds every whole number up to 2^53 exactly, and from there on
// only some: below it, whole numbers are counts (parameters, tokens, bytes)
// that the arithmetic on them keeps exact.
inline constexpr double kExactWhole = 9007199254740992.0;  // 2^53

inline bool exact_whole(double x) { return std::fabs(x) <= kExactWhole && x == std::trunc(x); }

// Two whole numbers held exactly are equal only when they are the same
// number (4,000,000,000,000,001 is not 4,000,000,000,000,000). Any other
// pair is equal within four units in the last place of the larger,
// |a − b| ≤ 4·2⁻⁵²·max(|a|, |b|): `7.362 ms == 7362 us` holds although the
// two conversions round apart. Tolerances are what `≈ … within` is for.
inline bool same_magnitude(double x, double y) {
  if (x == y) return true;
  if (exact_whole(x) && exact_whole(y)) return false;
  return std::fabs(x - y) <= 4 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(x), std::fabs(y));
}

}  // namespace napkin
