#include "solve_statements.hpp"

#include "interpreter/derivation/explain.hpp"

namespace napkin {

SolveReport solve_report(Interpreter& in, const SolveResult& r, int depth) {
  SolveReport s;
  s.qualified = r.record + "." + r.input;
  s.record = r.record;
  s.input = r.input;
  s.goal = r.goal;
  s.condition = r.condition;
  if (r.goal == SolveGoal::Equal) s.compared = std::string(r.condition_expr->items[0]->span.text());
  s.ok = true;
  s.solution = r.solution;
  s.whole_numbers = r.integer;
  s.lo = r.lo;
  s.hi = r.hi;
  s.at_bracket_end = r.at_bracket_end;
  s.evaluations = r.evaluations;
  s.set_at = r.where_set;
  s.at_solution = {r.solution, r.value, r.target};
  if (r.beyond) s.beyond = SolveReport::Seen{*r.beyond, r.beyond_value, r.beyond_target};
  s.derivation = explain_trace(in, r.trace, depth);
  return s;
}

std::vector<SolveReport> solve_statements(Interpreter& in, Module* m, int depth) {
  std::vector<SolveReport> out;
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Solve) continue;
    const ast::SweepVar& v = st.solve_input();
    SolveSpec spec;
    spec.record = st.name;
    spec.input = v.name;
    spec.goal = solve_goal_named(st.solve_goal_word());
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
    try {
      found = solve_report(in, solve(in, m, spec), depth);
    } catch (const Error& e) {
      found.record = st.name;
      found.input = v.name;
      found.qualified = st.name + "." + v.name;
      found.goal = spec.goal;
      found.condition = spec.condition;
      found.error = e.diagnostic();
    }
    found.statement = std::string(st.span.text());
    found.at = st.span;
    out.push_back(std::move(found));
  }
  return out;
}

}  // namespace napkin
