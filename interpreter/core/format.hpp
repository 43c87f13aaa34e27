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
bool is_exact_integer(double v);

std::string format_quantity(const Quantity& q, const DisplayUnit* display, const UnitTable& units, int digits);

}  // namespace napkin
