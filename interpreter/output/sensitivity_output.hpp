#pragma once
// What `napkin sensitivity` prints: text and JSON. (`napkin solve`'s answer
// is the report's SolveReport, which output/solve_output.hpp renders.)
#include <string>

#include "interpreter/analysis/sensitivity.hpp"
#include "interpreter/analysis/solve.hpp"

namespace napkin {

std::string sensitivity_text(Interpreter& in, const SensitivityResult& r);
std::string sensitivity_json(Interpreter& in, const SensitivityResult& r);

// An elasticity as printed: "+1 (exact)", "-0.4731".
std::string elasticity_text(const SensitivityInput& i);

}  // namespace napkin
