#include "sweep.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "grammar/printer.hpp"
#include "interpreter/core/suggest.hpp"
#include "sweep_sharing.hpp"

namespace napkin {
namespace {

std::size_t field_index(Record* r, const std::string& name, Span at, const char* role) {
  auto it = r->index().find(name);
  if (it != r->index().end()) return it->second;
  std::vector<std::string> names;
  for (const auto& s : r->slots()) names.push_back(s.name);
  Diagnostic d;
  d.code = codes::unknown_field;
  d.message = fmt::format("{} has no field `{}` to {}", r->name, name, role);
  d.labels.push_back({at, "not a field of " + r->name, true});
  auto close = closest(name, names);
  if (!close.empty()) d.help = fmt::format("did you mean `{}`?", close[0]);
  throw Error(std::move(d));
}

SweepCell cell(Interpreter& in, Record* r, std::size_t i) {
  SweepCell c;
  try {
    c.value = in.field(r, i, Span{});
  } catch (const MissingInput& e) {
    c.ok = false;
    c.needs = e.field();
  }
  return c;
}

}  // namespace

std::string SweepResult::title() const {
  std::string t = target + " over ";
  for (std::size_t i = 0; i < inputs.size(); ++i) t += (i ? ", " : "") + inputs[i];
  return t;
}

SweepResult run_sweep(Interpreter& in, const ast::Stmt& s) {
  Module* m = in.module_of(s.span.file);
  SweepResult out;
  out.stmt = &s;
  out.target = print_expr(*s.value);
  Value target = in.eval_in(m, *s.value);
  if (target.kind != Value::Kind::Record)
    fail(codes::not_a_record, s.value->span, fmt::format("only a record can be swept, but `{}` is not one", out.target));
  Record* base = target.rec;

  std::vector<std::size_t> var_slots;
  std::vector<std::vector<Value>> var_values;
  std::size_t points = 1;
  for (const auto& v : s.sweep_vars) {
    out.inputs.push_back(v.name);
    var_slots.push_back(field_index(base, v.name, v.span, "sweep"));
    Value list = in.eval_in(m, *v.values);
    if (list.list->empty()) fail(codes::size_limit, v.values->span, "a sweep needs at least one value");
    var_values.push_back(*list.list);
    points *= list.list->size();
  }
  if (points > kMaxSweepPoints)
    fail(codes::size_limit, s.span,
         fmt::format("this sweep has {} points; a sweep may have at most {}", points, kMaxSweepPoints),
         "sweep fewer values (every other one, or a narrower range), or split it into several sweeps");
  std::vector<std::size_t> columns;
  for (const auto& c : s.columns) {
    out.columns.push_back(c.name);
    columns.push_back(field_index(base, c.name, c.span, "show"));
  }

  const std::vector<std::size_t> independent = independent_fields(dependent_fields(*base, var_slots));
  // Points are retired as the sweep goes, so that a large sweep reuses their
  // memory instead of touching fresh pages for every point. Only a record
  // made while a point was evaluated can reach the point's scope (a record
  // made before, even one first needed by this point, cannot).
  Record* previous = nullptr;
  bool retire_previous = false;
  in.set_tracing(false);
  try {
    std::vector<std::size_t> at(var_values.size(), 0);
    std::vector<std::pair<std::size_t, Value>> values(var_slots.size());
    out.rows.reserve(points);
    for (std::size_t p = 0; p < points; ++p) {
      std::vector<SweepCell> row;
      row.reserve(at.size() + columns.size());
      for (std::size_t k = 0; k < at.size(); ++k) {
        values[k] = {var_slots[k], var_values[k][at[k]]};
        row.push_back(SweepCell{true, var_values[k][at[k]], {}});
      }
      const std::size_t first_new = in.records_made();
      Record* r = in.with_values(base, values);
      if (previous) share_independent_fields(*r, *previous, independent);
      if (retire_previous) in.retire(*previous);
      previous = r;
      for (std::size_t c : columns) row.push_back(cell(in, r, c));
      retire_previous = retirable(*r, first_new) &&
                        std::all_of(row.begin(), row.end(),
                                    [&](const SweepCell& c) { return reaches_no_point(c.value, first_new); });
      out.rows.push_back(std::move(row));
      // The last input varies fastest, like nested loops in reading order.
      for (std::size_t k = at.size(); k-- > 0;) {
        if (++at[k] < var_values[k].size()) break;
        at[k] = 0;
      }
    }
  } catch (...) {
    in.set_tracing(true);
    throw;
  }
  in.set_tracing(true);
  return out;
}

std::vector<SweepResult> run_sweeps(Interpreter& in, Module* m) {
  std::vector<SweepResult> out;
  for (const auto& st : m->ast.statements)
    if (st.kind == ast::StmtKind::Sweep) out.push_back(run_sweep(in, st));
  return out;
}

}  // namespace napkin
