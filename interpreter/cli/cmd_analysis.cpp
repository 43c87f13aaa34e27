// `napkin solve` and `napkin sensitivity`.
#include <fmt/format.h>

#include "interpreter/analysis/analysis_output.hpp"
#include "guarded.hpp"

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
    SolveResult r = solve(in, m, spec);
    if (a.format == "json") return Result{solve_json(in, r, a.depth), "", 0};
    return Result{solve_text(in, r, a.depth), "", 0};
  });
}

SolveStatements run_solve_statements(Interpreter& in, Module* m, bool steps) {
  SolveStatements out;
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Solve) continue;
    ++out.count;
    const ast::SweepVar& v = st.sweep_vars.at(0);
    SolveSpec spec;
    spec.record = st.name;
    spec.input = v.name;
    spec.goal = st.record_kind == "max" ? SolveGoal::Max : st.record_kind == "min" ? SolveGoal::Min : SolveGoal::Equal;
    spec.condition = std::string(st.value->span.text());
    spec.condition_node = st.value.get();
    if (v.values) {
      spec.lo_node = v.values->items.at(0).get();
      spec.hi_node = v.values->items.at(1).get();
    }
    spec.at = st.span;
    spec.record_at = st.name_span;
    spec.input_at = v.span;
    SolveReport found;
    found.statement = std::string(st.span.text());
    found.qualified = st.name + "." + v.name;
    try {
      SolveResult r = solve(in, m, spec);
      found.ok = true;
      found.solution = r.solution;
      out.found.push_back(found);
      const std::string brief = solve_brief_text(in, r);
      out.text += "\n" + (steps ? solve_text(in, r, 1) : brief);
      out.brief.push_back(brief);
      out.json.push_back(solve_json(in, r, steps ? 1 : 0));
    } catch (const Error& e) {
      ++out.errors;
      found.error = headline(e.diagnostic());
      out.found.push_back(found);
      out.err += render(e.diagnostic());
      const std::string failed = fmt::format("{}\n  {}\n", st.span.text(), headline(e.diagnostic()));
      out.text += "\n" + failed;
      out.brief.push_back(failed);
    }
  }
  return out;
}

Result cmd_sensitivity(const SensitivityArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    SensitivityOptions options;
    options.vary = a.vary;
    options.except = a.except;
    options.all_inputs = a.all_inputs;
    SensitivityResult r = sensitivity(in, m, a.name, options);
    if (a.format == "json") return Result{sensitivity_json(in, r), "", 0};
    return Result{sensitivity_text(in, r), "", 0};
  });
}

}  // namespace napkin::cli
