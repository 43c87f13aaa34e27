#pragma once
// How quantities are shown: 4 significant digits by default, exact integers
// for counts, and an automatic prefix (GB, TFLOP/s, ms) chosen by magnitude,
// unless the value carries a unit the user asked for with `->`.
#include <string>

#include "units.hpp"
#include "value.hpp"

namespace napkin {

std::string format_number(double v, int digits);
std::string format_exact(double v);  // 124,439,808
// A zero as napkin writes it, in every format: 0, never -0.
inline double unsigned_zero(double v) { return v == 0 ? 0.0 : v; }
bool is_exact_integer(double v);

std::string format_quantity(const Quantity& q, const DisplayUnit* display, const UnitTable& units, int digits);
// A range: its median, and its 90% interval in the median's unit.
std::string format_range(const Quantity& median, double p5, double p95, const DisplayUnit* display,
                         const UnitTable& units, int digits);

// What format_quantity writes, in two parts: the number ("1.5", "1,152")
// and what follows it (" GiB", "%", "" for a plain number), with that unit
// as a display unit (so another quantity can be shown in it).
struct ShownQuantity {
  std::string number, suffix;
  DisplayUnit unit;
};
ShownQuantity shown_quantity(const Quantity& q, const DisplayUnit* display, const UnitTable& units, int digits);

}  // namespace napkin
