#pragma once
// What a solve looks for: where its two sides are equal, or the largest or
// smallest input at which its condition holds. The analysis searches by
// it and every format shows it; its name is the word a `solve` statement
// writes (`max where`, `min where`; nothing for equal).
#include <string_view>

namespace napkin {

enum class SolveGoal { Equal, Max, Min };

inline std::string_view solve_goal_name(SolveGoal g) {
  return g == SolveGoal::Max ? "max" : g == SolveGoal::Min ? "min" : "equal";
}

// The goal a statement's word names: "max", "min", or anything else
// (nothing written) for equal.
inline SolveGoal solve_goal_named(std::string_view word) {
  return word == "max" ? SolveGoal::Max : word == "min" ? SolveGoal::Min : SolveGoal::Equal;
}

}  // namespace napkin
