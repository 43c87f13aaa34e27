// `napkin solve` and `napkin sensitivity`.
#include <fmt/format.h>

#include "interpreter/output/sensitivity_output.hpp"
#include "interpreter/output/solve_output.hpp"
#include "guarded.hpp"
#include "interpreter/run/solve_statements.hpp"

namespace napkin::cli {

Result cmd_solve(const SolveArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    SolveSpec spec;
    spec.record = a.record;
    spec.input = a.input;
    const int given = !a.where.empty() + !a.max.empty() + !a.min.empty();
    if (given != 1)
      fail(codes::usage, "give exactly one of --where 'A == B', --max 'CONDITION' or --min 'CONDITION'");
    if (!a.max.empty()) spec.goal = SolveGoal::Max, spec.condition = a.max;
    else if (!a.min.empty()) spec.goal = SolveGoal::Min, spec.condition = a.min;
    else spec.goal = SolveGoal::Equal, spec.condition = a.where;
    spec.lo = a.lo;
    spec.hi = a.hi;
    const SolveReport r = solve_report(in, solve(in, m, spec), a.depth);
    if (a.format == Format::json) return Result{solve_json(in, r), "", 0};
    return Result{solve_text(in, r), "", 0};
  });
}

Result cmd_sensitivity(const SensitivityArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    SensitivityOptions options;
    options.vary = a.vary;
    options.except = a.except;
    options.all_inputs = a.all_inputs;
    SensitivityResult r = sensitivity(in, m, a.name, options);
    if (a.format == Format::json) return Result{sensitivity_json(in, r), "", 0};
    return Result{sensitivity_text(in, r), "", 0};
  });
}

}  // namespace napkin::cli
