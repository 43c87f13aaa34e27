#include "sweep.hpp"

#include "interpreter/core/builtins.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "grammar/printer.hpp"
#include "interpreter/core/samples.hpp"
#include "interpreter/core/suggest.hpp"
#include "sweep_compile.hpp"
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

// The value of field `i` at one point. An error there (a division by zero
// at b = 2) is the cell's, not the sweep's: the cell shows its code, the
// other points stand, and the first such error is kept with a note naming
// its point, to be reported once.
SweepCell cell(Interpreter& in, Record* r, std::size_t i, SweepResult& out,
               const std::vector<std::pair<std::size_t, Value>>& point, bool& point_failed) {
  SweepCell c;
  try {
    c.value = in.field(r, i, Span{});
  } catch (const MissingInput& e) {
    c.ok = false;
    c.needs = e.field();
  } catch (const Error& e) {
    c.ok = false;
    c.error = e.diagnostic().code;
    if (!point_failed) ++out.failed_points;
    point_failed = true;
    if (!out.first_error) {
      Diagnostic d = e.diagnostic();
      std::string at;
      for (std::size_t k = 0; k < point.size(); ++k)
        at += fmt::format("{}{} = {}", k ? ", " : "", out.inputs[k], in.show(point[k].second));
      d.notes.push_back(fmt::format("at the point {} of sweep {}; its other points are shown", at, out.title()));
      out.first_error = std::move(d);
    }
  }
  return c;
}

// What every value of a swept input shares (kind, dimension, display unit,
// note), or nothing when they differ: the compiled program keeps only their
// numbers.
std::optional<Value> common_kind(const std::vector<Value>& values) {
  const Value& first = values.front();
  if (first.kind != Value::Kind::Quantity && first.kind != Value::Kind::Bool) return std::nullopt;
  for (const Value& v : values)
    if (is_range(v) || v.kind != first.kind || (v.kind == Value::Kind::Quantity && v.q.dim != first.q.dim) ||
        v.display != first.display || v.note != first.note)
      return std::nullopt;
  return first;
}

double number(const Value& v) { return v.kind == Value::Kind::Bool ? (v.b ? 1.0 : 0.0) : v.q.v; }

// The sweep's points in order, the last input varying fastest, like nested
// loops in reading order.
struct Points {
  std::vector<std::size_t> sizes;
  std::size_t count = 1;
  std::vector<std::size_t> at(std::size_t p) const {
    std::vector<std::size_t> idx(sizes.size());
    for (std::size_t k = sizes.size(); k-- > 0;) {
      idx[k] = p % sizes[k];
      p /= sizes[k];
    }
    return idx;
  }
};

struct Setup {
  const ast::Stmt* stmt = nullptr;
  Record* base = nullptr;
  std::vector<std::size_t> var_slots;
  std::vector<std::vector<Value>> var_values;
  std::vector<std::size_t> columns;
  Points points;
};

std::vector<std::pair<std::size_t, Value>> values_at(const Setup& s, std::size_t p) {
  const auto idx = s.points.at(p);
  std::vector<std::pair<std::size_t, Value>> values;
  for (std::size_t k = 0; k < idx.size(); ++k) values.emplace_back(s.var_slots[k], s.var_values[k][idx[k]]);
  return values;
}

// The samples the first point's cells hold, times the points: past
// kMaxSweepSamples the sweep is an error before it has spent the time.
void limit_samples(const Setup& s, const std::vector<SweepCell>& row) {
  std::size_t per_point = 0;
  for (const SweepCell& c : row)
    if (is_range(c.value)) per_point += c.value.samples->v.size();
  if (per_point == 0 || per_point * s.points.count <= kMaxSweepSamples) return;
  fail(codes::size_limit, s.stmt->span,
       fmt::format("this sweep's cells would hold {} samples of ranges ({} a point, {} points); a sweep may hold at most {}",
                   format_exact(static_cast<double>(per_point) * static_cast<double>(s.points.count)),
                   format_exact(static_cast<double>(per_point)), format_exact(static_cast<double>(s.points.count)),
                   format_exact(static_cast<double>(kMaxSweepSamples))),
       "sweep fewer values, or run with fewer samples (`--samples 1000`)");
}

// Every point with the tree walker. Points are retired as the sweep goes, so
// that a large sweep reuses their memory instead of touching fresh pages for
// every point. Only a record made while a point was evaluated can reach the
// point's scope (a record made before, even one first needed by this point,
// cannot).
void walk_points(Interpreter& in, const Setup& s, SweepResult& out) {
  const std::vector<std::size_t> independent = independent_fields(dependent_fields(*s.base, s.var_slots));
  Record* previous = nullptr;
  bool retire_previous = false;
  std::vector<SweepCell> row;
  for (std::size_t p = 0; p < s.points.count; ++p) {
    const auto values = values_at(s, p);
    row.clear();
    for (const auto& [slot, v] : values) row.push_back(SweepCell{true, v, {}});
    const std::size_t first_new = in.records_made();
    Record* r = in.with_values(s.base, values);
    if (previous) share_independent_fields(*r, *previous, independent);
    if (retire_previous) in.retire(*previous);
    previous = r;
    bool failed = false;
    // A point whose values break a domain of the record shows that error in
    // every column, as the record itself would (Domains).
    try {
      in.validate(r);
    } catch (const Error&) {
    }
    for (std::size_t c : s.columns) row.push_back(cell(in, r, c, out, values, failed));
    retire_previous = retirable(*r, first_new) &&
                      std::all_of(row.begin(), row.end(),
                                  [&](const SweepCell& c) { return reaches_no_point(c.value, first_new); });
    for (std::size_t i = 0; i < row.size(); ++i) out.table[i].push(row[i]);
    if (p == 0) limit_samples(s, row);
  }
}

// The compiled program over every point, kLanes at a time. A point the
// program marks (it would stop with an error, or its value is not finite)
// is evaluated by the tree walker, which gives its value or its error.
bool run_compiled(Interpreter& in, Module* m, const Setup& s, SweepResult& out) {
  std::vector<Value> like;
  for (std::size_t k = 0; k < s.var_values.size(); ++k) {
    auto common = common_kind(s.var_values[k]);
    if (!common) return false;
    like.push_back(*common);
    // A value of the wrong type is the tree walker's error, at its point.
    try {
      for (const Value& v : s.var_values[k]) in.check_type(s.base, s.var_slots[k], v);
    } catch (const Error&) {
      return false;
    }
  }
  const std::vector<bool> dependent = dependent_fields(*s.base, s.var_slots);
  // The program checks no record domains: a sweep whose variables reach one
  // is walked, each point checked (a plan swept over tp); one they do not
  // reach is checked once, at the first point.
  for (std::size_t i = 0; i < dependent.size() && i < s.base->slots().size(); ++i) {
    const Slot& slot = s.base->slots()[i];
    if (dependent[i] && slot.decl && slot.decl->value && is_domain_formula(*slot.decl->value)) return false;
  }
  const std::vector<std::size_t> independent = independent_fields(dependent);
  const std::size_t first_new = in.records_made();
  Record* first = in.with_values(s.base, values_at(s, 0));
  // The program checks no record domains: a record that breaks one at its
  // first point is walked, and shows it.
  try {
    in.validate(first);
  } catch (const Error&) {
    return false;
  }
  auto compiled = compile_sweep(in, m, first, s.var_slots, like, dependent, s.columns);
  if (!compiled) {
    in.retire(*first);
    return false;
  }
  const SweepProgram& program = compiled->program;
  constexpr std::size_t L = SweepProgram::kLanes;
  const std::size_t nin = s.var_slots.size(), nout = s.columns.size();
  std::vector<double> regs, inputs(nin * L), outputs(nout * L);
  std::vector<const double*> in_ptr(nin);
  std::vector<double*> out_ptr(nout);
  for (std::size_t k = 0; k < nin; ++k) in_ptr[k] = inputs.data() + k * L;
  for (std::size_t j = 0; j < nout; ++j) out_ptr[j] = outputs.data() + j * L;
  std::vector<std::uint8_t> bad(L);
  std::vector<std::size_t> idx = s.points.at(0);
  for (std::size_t start = 0; start < s.points.count; start += L) {
    const std::size_t n = std::min(L, s.points.count - start);
    for (std::size_t l = 0; l < n; ++l) {
      for (std::size_t k = 0; k < nin; ++k) inputs[k * L + l] = number(s.var_values[k][idx[k]]);
      for (std::size_t k = nin; k-- > 0;) {
        if (++idx[k] < s.points.sizes[k]) break;
        idx[k] = 0;
      }
    }
    program.run(n, in_ptr.data(), out_ptr.data(), bad.data(), regs);
    std::size_t l = 0;
    while (l < n) {
      std::size_t run = l;
      while (run < n && !bad[run]) ++run;
      if (run > l) {  // points the program computed, stored as numbers
        for (std::size_t k = 0; k < nin; ++k) out.table[k].push_numbers(like[k], inputs.data() + k * L + l, run - l);
        for (std::size_t j = 0; j < nout; ++j)
          out.table[nin + j].push_numbers(compiled->outputs[j], outputs.data() + j * L + l, run - l);
        l = run;
        continue;
      }
      const auto values = values_at(s, start + l);  // a marked point: the tree walker's value or error
      const std::size_t made = in.records_made();
      Record* r = in.with_values(s.base, values);
      share_independent_fields(*r, *first, independent);
      bool reaches = false;
      for (std::size_t k = 0; k < nin; ++k) out.table[k].push(SweepCell{true, values[k].second, {}});
      bool failed = false;
      for (std::size_t j = 0; j < nout; ++j) {
        SweepCell c = cell(in, r, s.columns[j], out, values, failed);
        reaches = reaches || !reaches_no_point(c.value, made);
        out.table[nin + j].push(c);
      }
      if (!reaches && retirable(*r, made)) in.retire(*r);
      ++l;
    }
  }
  if (retirable(*first, first_new)) in.retire(*first);
  out.compiled = true;
  return true;
}

}  // namespace

bool SweepColumn::fits(const Value& v) const {
  if (!compact_) return false;
  if ((v.kind != Value::Kind::Quantity && v.kind != Value::Kind::Bool) || is_range(v)) return false;
  if (numbers_.empty()) return true;
  return v.kind == like_.kind && (v.kind != Value::Kind::Quantity || v.q.dim == like_.q.dim) &&
         v.display == like_.display && v.note == like_.note;
}

void SweepColumn::spill() {
  std::vector<SweepCell> cells;
  cells.reserve(std::max(numbers_.capacity(), numbers_.size() + 1));
  for (std::size_t r = 0; r < numbers_.size(); ++r) cells.push_back(at(r));
  cells_ = std::move(cells);
  SampleVector().swap(numbers_);
  compact_ = false;
}

void SweepColumn::push(const SweepCell& c) {
  if (c.ok && fits(c.value)) {
    if (numbers_.empty()) like_ = c.value;
    numbers_.push_back(number(c.value));
    return;
  }
  if (compact_) spill();
  cells_.push_back(c);
}

void SweepColumn::push_numbers(const Value& like, const double* v, std::size_t n) {
  if (fits(like)) {
    if (numbers_.empty()) like_ = like;
    numbers_.insert(numbers_.end(), v, v + n);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    SweepCell c;
    c.value = like;
    if (like.kind == Value::Kind::Bool)
      c.value.b = v[i] != 0;
    else
      c.value.q.v = v[i];
    push(c);
  }
}

SweepCell SweepColumn::at(std::size_t row) const {
  if (!compact_) return cells_[row];
  SweepCell c;
  c.value = like_;
  if (like_.kind == Value::Kind::Bool)
    c.value.b = numbers_[row] != 0;
  else
    c.value.q.v = numbers_[row];
  return c;
}

void SweepColumn::reserve(std::size_t n) {
  if (compact_) numbers_.reserve(n);
  else cells_.reserve(n);
}

std::vector<std::vector<SweepCell>> SweepResult::rows() const {
  std::vector<std::vector<SweepCell>> out(row_count());
  for (std::size_t r = 0; r < out.size(); ++r)
    for (const auto& col : table) out[r].push_back(col.at(r));
  return out;
}

std::string SweepResult::title() const {
  std::string t = target + " over ";
  for (std::size_t i = 0; i < inputs.size(); ++i) t += (i ? ", " : "") + inputs[i];
  return t;
}

SweepResult run_sweep(Interpreter& in, const ast::Stmt& st, bool compile) {
  Module* m = in.module_of(st.span.file);
  SweepResult out;
  out.stmt = &st;
  out.target = print_expr(*st.value);
  Value target = in.eval_in(m, *st.value);
  if (target.kind != Value::Kind::Record)
    fail(codes::not_a_record, st.value->span, fmt::format("only a record can be swept, but `{}` is not one", out.target));
  Setup s;
  s.stmt = &st;
  s.base = target.rec;
  for (const auto& v : st.sweep_vars) {
    out.inputs.push_back(v.name);
    s.var_slots.push_back(field_index(s.base, v.name, v.span, "sweep"));
    in.refuse_derived(s.base, s.base->slots()[s.var_slots.back()], v.span, "swept, but it is worked out");
    Value list = in.eval_in(m, *v.values);
    if (list.items().empty()) fail(codes::size_limit, v.values->span, "a sweep needs at least one value");
    s.var_values.push_back(list.items());
    s.points.sizes.push_back(list.items().size());
    s.points.count *= list.items().size();
  }
  if (s.points.count > kMaxSweepPoints)
    fail(codes::size_limit, st.span,
         fmt::format("this sweep has {} points; a sweep may have at most {}", s.points.count, kMaxSweepPoints),
         "sweep fewer values (every other one, or a narrower range), or split it into several sweeps");
  for (const auto& c : st.columns) {
    out.columns.push_back(c.name);
    s.columns.push_back(field_index(s.base, c.name, c.span, "show"));
  }
  out.table.resize(s.var_slots.size() + s.columns.size());
  for (auto& col : out.table) col.reserve(s.points.count);

  const Interpreter::TracingOff no_derivations(in);
  if (!compile || !run_compiled(in, m, s, out)) {
    for (auto& col : out.table) col = SweepColumn{};
    out.failed_points = 0;
    out.first_error.reset();
    walk_points(in, s, out);
  }
  return out;
}

void throw_point_error(const SweepResult& s) {
  if (s.first_error) throw Error(*s.first_error);
}

std::string point_error_text(const SweepResult& s) {
  if (!s.first_error) return "";
  std::string out = render(*s.first_error);
  if (s.failed_points > 1)
    out += fmt::format("(and {} more points of sweep {} failed; each shows its error code)\n", s.failed_points - 1, s.title());
  return out;
}

std::vector<SweepResult> run_sweeps(Interpreter& in, Module* m, bool compile) {
  std::vector<SweepResult> out;
  for (const auto& st : m->ast.statements)
    if (st.kind == ast::StmtKind::Sweep) out.push_back(run_sweep(in, st, compile));
  return out;
}

}  // namespace napkin
