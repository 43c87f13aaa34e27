#pragma once
// What `napkin solve` and `napkin sensitivity` print: text and JSON.
#include <string>

#include "sensitivity.hpp"
#include "solve.hpp"

namespace napkin {

// The solution, the condition on both sides of it, and the derivation of
// every field the condition reads at the solution, `depth` levels deep
// (< 0: all).
std::string solve_text(Interpreter& in, const SolveResult& r, int depth);
std::string solve_json(Interpreter& in, const SolveResult& r, int depth);
// A `solve` statement in `napkin run`: the solution and the condition on
// both sides of it.
std::string solve_brief_text(Interpreter& in, const SolveResult& r);

std::string sensitivity_text(Interpreter& in, const SensitivityResult& r);
std::string sensitivity_json(Interpreter& in, const SensitivityResult& r);

// An elasticity as printed: "+1 (exact)", "-0.4731".
std::string elasticity_text(const SensitivityInput& i);

}  // namespace napkin
