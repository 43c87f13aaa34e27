#pragma once
// One value as JSON and TOML carry it: a quantity's SI magnitude and unit
// (a range's median, with its quantiles), a truth value or a string as
// itself, and beside either how the terminal shows it.
#include <nlohmann/json.hpp>

#include "interpreter/core/interpreter.hpp"

namespace napkin {

// {"si", "unit", ["range"], "display"} or {"value", "display"}; `digits`
// as Interpreter::show takes them (0: the interpreter's).
nlohmann::ordered_json value_json(const Interpreter& in, const Value& v, int digits = 0);

// A range's quantiles, in SI units, and how many samples it holds.
nlohmann::ordered_json range_json(const Value& v);

}  // namespace napkin
