#include "diff.hpp"

#include "interpreter/core/builtins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "grammar/printer.hpp"
#include "interpreter/derivation/derivation.hpp"
#include "interpreter/core/format.hpp"
#include "interpreter/output/check_results.hpp"
#include "interpreter/output/error_info.hpp"
#include "interpreter/output/record_figures.hpp"

namespace napkin {
namespace {

// Hashed, not ordered: a file of 100,000 fields compares 200,000 names.
struct Values {
  std::vector<std::string> order;  // file order
  std::unordered_map<std::string, DiffSide> by_name;
  std::unordered_map<std::string, const void*> decl;  // the declaration each value's formula comes from
};

std::string pretty(const ast::Expr& e) {
  PrintOptions o;
  o.pretty = true;
  return print_expr(e, o);
}

struct Formula {
  const ast::Expr* expr = nullptr;
  const void* decl = nullptr;
  bool own = false;       // written in the file itself
  std::string alias_of;  // the formula is a plain name or member chain
};

// `x`, `model.params`: a formula that only names another value.
std::string plain_alias(const ast::Expr* e) {
  if (!e) return "";
  if (e->kind == ast::ExprKind::Name) return e->text;
  if (e->kind == ast::ExprKind::Convert && !e->items.empty()) return plain_alias(e->items[0].get());  // `x -> GiB`
  if (e->kind == ast::ExprKind::Member && !e->items.empty()) {
    const std::string base = plain_alias(e->items[0].get());
    return base.empty() ? "" : base + "." + e->text;
  }
  return "";
}

// The formula behind every field of every section, read from the records
// themselves, so a field that cannot be computed still has one.
std::unordered_map<std::string, Formula> formulas(Version& v) {
  std::unordered_map<std::string, Formula> out;
  for (const Section& s : v.report.sections) {
    Binding* b = v.in->find_binding(v.module, s.name);
    if (!b || !b->stmt) continue;
    if (s.kind == SectionKind::lets) {
      if (b->stmt->value) out[s.name] = {b->stmt->value.get(), b->stmt, true, plain_alias(b->stmt->value.get())};
      continue;
    }
    try {
      const Value rv = v.in->top_value(b, Span{});
      if (rv.kind != Value::Kind::Record) continue;
      for (const Slot& slot : rv.rec->slots()) {
        const ast::Expr* value = slot.decl ? slot.decl->value.get() : nullptr;
        out[rv.rec->name + "." + slot.name] = {value, slot.decl,
                                               slot.decl && slot.decl->span.file == v.module->file.get(),
                                               plain_alias(value)};
      }
    } catch (const Error&) {
      // The report already says what this record needs.
    }
  }
  return out;
}

Values collect(Version& v) {
  Values out;
  const auto known = formulas(v);
  out.by_name.reserve(known.size());
  out.decl.reserve(known.size());
  for (const Section& s : v.report.sections)
    for (const FieldReport& f : s.fields) {
      // A list of domains holds the inputs it checks, not a figure: it moves
      // with them, and only its failure is news.
      if (auto it = known.find(f.qualified); f.ok && it != known.end() && it->second.expr && is_domain_formula(*it->second.expr))
        continue;
      DiffSide side;
      side.present = true;
      side.ok = f.ok;
      side.value = f.value;
      side.needs = f.ok ? "" : f.needs;
      if (f.error) side.error = std::make_shared<const Diagnostic>(*f.error);
      side.shown = f.ok ? v.in->show(f.value) : f.error ? error_line(*f.error, false) : "needs " + f.needs;
      side.literal = f.ok && f.derivation.input;
      side.headline = f.headline;
      if (f.ok && f.value.kind == Value::Kind::Quantity) side.si_unit = v.in->units().format(f.value.q.dim);
      if (auto it = known.find(f.qualified); it != known.end()) {
        side.formula = it->second.expr;
        side.own = it->second.own;
        side.alias_of = it->second.alias_of;
        out.decl[f.qualified] = it->second.decl;
      }
      if (!out.by_name.count(f.qualified)) out.order.push_back(f.qualified);
      out.by_name[f.qualified] = std::move(side);
    }
  // A solve statement's answer is a value of the file's own, named by the
  // statement: "solve decode for batch max where fits".
  for (const SolveReport& s : v.report.solves) {
    DiffSide side;
    side.present = true;
    side.ok = s.ok;
    side.own = true;
    if (s.ok) {
      side.value = s.solution;
      side.shown = v.in->show(s.solution);
      if (s.solution.kind == Value::Kind::Quantity) side.si_unit = v.in->units().format(s.solution.q.dim);
    } else {
      if (s.error) side.error = std::make_shared<const Diagnostic>(*s.error);
      side.shown = s.error ? error_line(*s.error, false) : "";
    }
    if (!out.by_name.count(s.statement)) out.order.push_back(s.statement);
    out.by_name[s.statement] = std::move(side);
  }
  return out;
}

// Records and functions are structure: what they hold shows up as values of
// their own.
bool is_value(const DiffSide& s) {
  return !s.ok || (s.value.kind != Value::Kind::Record && s.value.kind != Value::Kind::Function);
}

bool numeric(const DiffSide& a, const DiffSide& b) {
  return a.ok && b.ok && a.value.kind == Value::Kind::Quantity && b.value.kind == Value::Kind::Quantity &&
         a.si_unit == b.si_unit;
}

bool same(const DiffSide& a, const DiffSide& b) {
  if (numeric(a, b)) {
    const double x = a.value.q.v, y = b.value.q.v;
    // The same formula over the same inputs in another order may round differently.
    return x == y || std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
  }
  if (!a.ok || !b.ok) {  // what is missing, or which error (its place may have moved with the file)
    if (a.ok != b.ok || a.needs != b.needs || !a.error != !b.error) return false;
    return !a.error || (a.error->code == b.error->code && a.error->message == b.error->message);
  }
  return a.value.kind == b.value.kind && a.shown == b.shown;
}

// `192 → 1,152 KiB/token` reads better than two units: show the new value
// in the old one's unit when the two were chosen automatically. Both
// figures come apart from their units as format_quantity made them, never
// by reading the shown text.
void side_by_side(DiffEntry& e, const Interpreter& before, const Interpreter& after) {
  e.before_text = e.before.shown;
  e.after_text = e.after.shown;
  const Value &was = e.before.value, &now = e.after.value;
  if (!e.numeric || was.samples || now.samples) return;  // a range shows its interval beside its unit
  const ShownQuantity b = shown_quantity(was.q, was.display, before.units(), before.options().digits);
  ShownQuantity a = shown_quantity(now.q, now.display, after.units(), after.options().digits);
  // A plain number or a percentage is one piece ("12%"): nothing to share.
  if (b.suffix.empty() || b.suffix[0] != ' ' || a.suffix.empty() || a.suffix[0] != ' ') return;
  if (b.suffix != a.suffix && !was.display && !now.display && std::isfinite(e.change) && std::fabs(e.change) < 100)
    a = shown_quantity(now.q, &b.unit, after.units(), after.options().digits);
  if (b.suffix != a.suffix) return;
  e.before_text = b.number;
  e.after_text = a.number;
  e.unit = b.unit.text;
}

// (after - before) / |before|, ±inf from 0; 0 when the two are not numeric.
double change_of(const DiffSide& before, const DiffSide& after) {
  if (!numeric(before, after)) return 0;
  const double x = before.value.q.v, y = after.value.q.v;
  return x != 0 ? (y - x) / std::fabs(x) : y > 0 ? std::numeric_limits<double>::infinity()
                                                 : -std::numeric_limits<double>::infinity();
}

DiffEntry entry(const std::string& name, const DiffSide& before, const DiffSide& after) {
  DiffEntry e;
  e.name = name;
  e.before = before;
  e.after = after;
  e.numeric = numeric(before, after);
  e.change = change_of(before, after);
  return e;
}

// Rounded, so that equal changes computed along different paths tie and
// keep their file order.
double size_of_change(const DiffEntry& e) {
  if (!e.numeric || std::isinf(e.change)) return std::numeric_limits<double>::infinity();
  return std::stod(fmt::format("{:.6g}", std::fabs(e.change)));
}

// A check's two sides as the diff shows them: in the checker's unit.
void check_sides(const Interpreter& in, const CheckResult& c, DiffSide& actual, DiffSide& expected) {
  if (c.relation.empty()) return;
  const CheckValues v = check_values(in, c);
  for (auto [side, value] : {std::pair{&actual, &v.actual}, std::pair{&expected, &v.expected}}) {
    side->present = side->ok = true;
    side->value = *value;
    side->shown = in.show(*value, v.digits);
    side->si_unit = in.units().format(value->q.dim);
  }
}

std::vector<CheckDiff> check_changes(const Version& before, const Version& after) {
  std::map<std::string, const CheckResult*> old_check;
  for (const CheckResult& c : before.report.checks) old_check[c.source] = &c;
  std::vector<CheckDiff> out;
  for (const CheckResult& c : after.report.checks) {
    CheckDiff d;
    d.source = c.source;
    d.after = c.passed ? 1 : 0;
    check_sides(*after.in, c, d.actual_after, d.expected_after);
    auto it = old_check.find(c.source);
    if (it != old_check.end()) {
      d.before = it->second->passed ? 1 : 0;
      check_sides(*before.in, *it->second, d.actual_before, d.expected_before);
    }
    // Still failing, but not as before: the values it compares moved.
    d.moved = d.before == 0 && d.after == 0 && d.actual_before.present && d.actual_after.present &&
              (!same(d.actual_before, d.actual_after) || !same(d.expected_before, d.expected_after));
    if ((d.before != d.after && !(d.before == -1 && d.after == 1)) || d.moved) out.push_back(std::move(d));
  }
  return out;
}

// Rows that moved from exactly the same value to exactly the same value
// are one change when one merely names the other (`params = model.params`)
// or both are fields of one record (a dense model's `layer_params` and
// `dense_layer_params`): keep one row, the file's own field if there is one,
// else one that computes the value, and name the rest in it.
std::string exact(const DiffSide& s) {
  return s.ok && s.value.kind == Value::Kind::Quantity ? fmt::format("{:.17g} {}", s.value.q.v, s.si_unit) : s.shown;
}

std::string record_of(const std::string& name) {
  const auto dot = name.find('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

void fold_aliases(std::vector<DiffEntry>& moved) {
  const std::size_t n = moved.size();
  std::vector<std::size_t> parent(n);
  for (std::size_t i = 0; i < n; ++i) parent[i] = i;
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;  // same change
  for (std::size_t i = 0; i < n; ++i) groups[{exact(moved[i].before), exact(moved[i].after)}].push_back(i);
  for (const auto& [key, group] : groups)
    for (std::size_t a = 0; a < group.size(); ++a)
      for (std::size_t b = a + 1; b < group.size(); ++b) {
        const DiffEntry &x = moved[group[a]], &y = moved[group[b]];
        const bool alias = !x.after.alias_of.empty() || !y.after.alias_of.empty();
        if (alias || record_of(x.name) == record_of(y.name)) parent[root(group[b])] = root(group[a]);
      }
  std::map<std::size_t, std::vector<std::size_t>> sets;  // by root, members in file order
  for (std::size_t i = 0; i < n; ++i) sets[root(i)].push_back(i);
  std::vector<DiffEntry> out;
  std::vector<bool> done(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = root(i);
    if (done[r]) continue;
    done[r] = true;
    const auto& members = sets[r];
    auto rank = [&](std::size_t j) {
      return (moved[j].after.own ? 0 : moved[j].after.headline ? 2 : 4) + (moved[j].after.alias_of.empty() ? 0 : 1);
    };
    std::size_t keep = members.front();
    for (std::size_t j : members)
      if (rank(j) < rank(keep)) keep = j;
    DiffEntry e = moved[keep];
    for (std::size_t j : members)
      if (j != keep) e.same_as.push_back(moved[j].name);
    out.push_back(std::move(e));
  }
  moved = std::move(out);
}

// Two formulas are the same when they print the same; the same source text
// prints the same, so most pairs are settled without printing either.
bool same_formula(const ast::Expr* a, const ast::Expr* b) {
  if (!a || !b) return a == b;
  return a->span.text() == b->span.text() || pretty(*a) == pretty(*b);
}

std::string formula_text(const ast::Expr* e) { return e ? pretty(*e) : "(no value)"; }

// Field `name` of record `r`, as one version sees it (absent if it has none).
DiffSide figure_side(Interpreter& in, Record* r, const std::string& name) {
  DiffSide s;
  const std::size_t i = r->table->find(name);
  if (i == SlotTable::npos) return s;
  s.present = true;
  try {
    s.value = in.field(r, i, Span{});
    s.ok = true;
    s.shown = in.show(s.value);
    if (s.value.kind == Value::Kind::Quantity) s.si_unit = in.units().format(s.value.q.dim);
  } catch (const MissingInput& m) {
    s.needs = m.field();
    s.shown = "needs " + s.needs;
  } catch (const Error& err) {
    s.error = std::make_shared<const Diagnostic>(err.diagnostic());
    s.shown = error_line(*s.error, false);
  }
  return s;
}

// Every field a formula of the version read, down through the fields and
// calls it read: from the traces its records' fields and lets keep.
using Reads = std::set<std::pair<const Record*, std::size_t>>;

void read_by(const Trace& t, Reads& out, std::set<const Binding*>& lets) {
  for (const TraceEntry& e : t.entries) {
    if (e.rec && out.insert({e.rec, e.field}).second && e.rec->state.size() > e.field)
      read_by(e.rec->state[e.field].trace, out, lets);
    if (e.binding && lets.insert(e.binding).second) read_by(e.binding->state.trace, out, lets);
    if (e.call) read_by(e.call->trace, out, lets);
  }
}

Reads reads_of(Version& v) {
  Reads out;
  std::set<const Binding*> lets;
  for (const Section& s : v.report.sections) {
    Binding* b = v.in->find_binding(v.module, s.name);
    if (!b) continue;
    if (s.kind == SectionKind::lets) {
      if (lets.insert(b).second) read_by(b->state.trace, out, lets);
      continue;
    }
    if (b->state.status != FieldState::Status::Done || b->state.value.kind != Value::Kind::Record) continue;
    const Record* r = b->state.value.rec;
    for (const FieldState& f : r->state) read_by(f.trace, out, lets);
  }
  return out;
}

// An input changed from one record to another (`gpu = h200` to `mi300x`):
// what moved with it is the figures of the two (record_figures.hpp) that a
// formula of either version read, each named once, in the new record's
// order.
void record_figures(DiffEntry& e, Version& before, Version& after, const Reads& read_before,
                    const Reads& read_after) {
  Record* was = e.before.value.rec;
  Record* now = e.after.value.rec;
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (auto [r, read] : {std::pair{now, &read_after}, std::pair{was, &read_before}})
    for (std::size_t i = 0; i < r->slots().size(); ++i)
      if (read->count({r, i}) && is_figure(*r, i) && seen.insert(r->slots()[i].name).second)
        names.push_back(r->slots()[i].name);
  for (const std::string& name : names) {
    DiffEntry f = entry(e.name + "." + name, figure_side(*before.in, was, name), figure_side(*after.in, now, name));
    side_by_side(f, *before.in, *after.in);
    if (!f.before.present) f.before_text = "(none)";
    if (!f.after.present) f.after_text = "(none)";
    e.figures.push_back(std::move(f));
  }
}

}  // namespace

Diff diff_versions(Version& before, Version& after, double threshold) {
  const Values b = collect(before);
  const Values a = collect(after);
  Diff d;
  std::set<std::pair<const void*, const void*>> inputs_seen;
  std::optional<std::pair<Reads, Reads>> reads;  // made when an input names a record
  struct Moving {
    const std::string* name;
    const DiffSide* was;
    const DiffSide* now;
  };
  std::vector<Moving> moving;
  for (const std::string& name : a.order) {
    const DiffSide& now = a.by_name.at(name);
    auto it = b.by_name.find(name);
    if (it == b.by_name.end()) {
      if (is_value(now)) d.appeared.push_back(entry(name, DiffSide{}, now));
      continue;
    }
    const DiffSide& was = it->second;
    const bool formula_changed = !same_formula(was.formula, now.formula);
    // An inherited field changes with the record that declares it: say it once.
    if (formula_changed && inputs_seen.insert({b.decl.count(name) ? b.decl.at(name) : nullptr,
                                               a.decl.count(name) ? a.decl.at(name) : nullptr})
                               .second) {
      DiffEntry e = entry(name, was, now);
      e.before_text = formula_text(was.formula);
      e.after_text = formula_text(now.formula);
      if (was.ok && now.ok && was.value.kind == Value::Kind::Record && now.value.kind == Value::Kind::Record) {
        d.records_changed = true;
        if (!reads) reads.emplace(reads_of(before), reads_of(after));
        record_figures(e, before, after, reads->first, reads->second);
      }
      d.inputs.push_back(std::move(e));
    }
    if (!is_value(was) || !is_value(now) || same(was, now)) continue;
    if (formula_changed && was.literal && now.literal) continue;  // listed as an input already
    if (const double change = change_of(was, now);
        numeric(was, now) && std::isfinite(change) && std::fabs(change) < threshold) {
      ++d.hidden;
      continue;
    }
    moving.push_back({&name, &was, &now});
  }
  // Made once the count is known: a row holds both sides whole, and a vector
  // grown by doubling held up to twice the rows of a 100,000-row diff.
  d.moved.reserve(moving.size());
  for (const Moving& m : moving) {
    DiffEntry e = entry(*m.name, *m.was, *m.now);
    side_by_side(e, *before.in, *after.in);
    d.moved.push_back(std::move(e));
  }
  for (const std::string& name : b.order)
    if (!a.by_name.count(name) && is_value(b.by_name.at(name)))
      d.disappeared.push_back(entry(name, b.by_name.at(name), DiffSide{}));
  fold_aliases(d.moved);
  // The file's own fields first, then its records' headline figures (a
  // plan's step time, a model's parameters), then the rest of what they
  // inherit from the library; each group largest change first.
  // Each row's key is worked out once, and the rows move once: a
  // comparison that formatted both sizes cost a sixth of a 100,000-row diff.
  std::vector<std::pair<double, std::size_t>> keys(d.moved.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = {size_of_change(d.moved[i]), i};
  std::stable_sort(keys.begin(), keys.end(), [&](const auto& x, const auto& y) {
    auto group = [&](const DiffEntry& e) { return e.after.own ? 0 : e.after.headline ? 1 : 2; };
    const int gx = group(d.moved[x.second]), gy = group(d.moved[y.second]);
    if (gx != gy) return gx < gy;
    return x.first > y.first;
  });
  std::vector<DiffEntry> sorted;
  sorted.reserve(keys.size());
  for (const auto& k : keys) sorted.push_back(std::move(d.moved[k.second]));
  d.moved = std::move(sorted);
  d.checks = check_changes(before, after);
  return d;
}

std::string change_text(const DiffEntry& e) {
  if (!e.numeric) return "";
  if (std::isinf(e.change)) return "from 0";
  const double pct = e.change * 100;
  std::string t = (pct > 0 ? "+" : "") + format_number(pct, 3) + "%";
  const double ratio = e.after.value.q.v / e.before.value.q.v;
  if (ratio >= 2) t += " (×" + format_number(ratio, 3) + ")";
  if (ratio > 0 && ratio <= 0.5) t += " (÷" + format_number(1 / ratio, 3) + ")";
  return t;
}

}  // namespace napkin
