#pragma once
// A number written in digits alone (`9007199254740993`, `1_000_000`) is a
// whole number, and napkin holds it exactly or refuses it: a double holds
// every whole number up to 2^53 and only some beyond, so a count such as a
// parameter total is never rounded without a word.
#include <string_view>

#include "source.hpp"

namespace napkin {

// `digits`: the literal without its `_` separators; `v`: the nearest double.
// Throws E0403 at `at` when `v` is not exactly the number written.
void check_whole_number(std::string_view digits, double v, Span at);

}  // namespace napkin
