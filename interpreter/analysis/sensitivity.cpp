#include "sensitivity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "interpreter/core/suggest.hpp"
#include "interpreter/derivation/derivation.hpp"

namespace napkin {
namespace {

// How the target's record reaches another record: the fields followed.
using Chain = std::vector<std::pair<Record*, std::size_t>>;  // (record, its field whose value is the next record)

std::map<const Record*, Chain> reachable(Record* root) {
  std::map<const Record*, Chain> out;
  out[root] = {};
  std::deque<Record*> todo{root};
  while (!todo.empty()) {
    Record* r = todo.front();
    todo.pop_front();
    const Chain here = out[r];
    if (here.size() >= 16) continue;
    for (std::size_t i = 0; i < r->state.size(); ++i) {
      const FieldState& st = r->state[i];
      if (st.status != FieldState::Status::Done || st.value.kind != Value::Kind::Record) continue;
      Record* next = st.value.rec;
      if (out.count(next)) continue;
      Chain c = here;
      c.emplace_back(r, i);
      out[next] = std::move(c);
      todo.push_back(next);
    }
  }
  return out;
}

struct Leaf {
  Record* rec = nullptr;
  std::size_t field = 0;
  Binding* binding = nullptr;
  bool operator<(const Leaf& o) const {
    return std::tie(rec, field, binding) < std::tie(o.rec, o.field, o.binding);
  }
};

// Every node inside the condition of an `if` in a formula.
void collect_conditions(const ast::Expr& e, bool inside, std::set<const ast::Expr*>& out) {
  if (inside) out.insert(&e);
  for (std::size_t i = 0; i < e.items.size(); ++i)
    if (e.items[i]) collect_conditions(*e.items[i], inside || (e.kind == ast::ExprKind::If && i == 0), out);
  for (const auto& f : e.fields)
    if (f.value) collect_conditions(*f.value, inside, out);
  if (e.fallback) collect_conditions(*e.fallback, inside, out);
}

// The inputs a value's derivation reaches: fields whose formula is a
// literal, found through what each formula saw. A name read inside an
// `if`'s condition only chooses a branch; what is reached only that way is
// kept apart (`by_condition`), since along the branches taken the value's
// formula does not contain it.
struct Walker {
  std::set<std::pair<const void*, bool>> seen_calls;
  std::set<std::tuple<const void*, std::size_t, bool>> seen;
  std::map<const ast::Expr*, std::set<const ast::Expr*>> conditions_of;
  std::vector<Leaf> leaves;        // reached by the value's arithmetic, in the order found
  std::vector<Leaf> by_condition;  // reached through a condition, in the order found

  static bool literal_quantity(const ast::Expr* e, const Value& v) {
    return e && (is_literal(*e) || range_input(*e, v)) && v.kind == Value::Kind::Quantity;
  }
  // `35% to 55%`, normal(m, sd), uniform(a, b): a range drawn right there.
  static bool range_input(const ast::Expr& e, const Value& v) {
    if (!v.samples) return false;
    if (e.kind == ast::ExprKind::Binary && e.op == ast::BinOp::To) return true;
    return e.kind == ast::ExprKind::Call && e.items[0]->kind == ast::ExprKind::Name &&
           (e.items[0]->text == "normal" || e.items[0]->text == "uniform");
  }

  bool in_condition(const ast::Expr* root, const ast::Expr* node) {
    if (!root || !node) return false;
    auto it = conditions_of.find(root);
    if (it == conditions_of.end()) {
      it = conditions_of.emplace(root, std::set<const ast::Expr*>{}).first;
      collect_conditions(*root, false, it->second);
    }
    return it->second.count(node) > 0;
  }

  void leaf(Leaf l, bool condition) { (condition ? by_condition : leaves).push_back(l); }

  // `root` is the formula whose evaluation `t` recorded.
  void visit(const Trace& t, const ast::Expr* root, bool condition) {
    for (const auto& e : t.entries) {
      const bool c = condition || in_condition(root, e.node);
      if (e.call) {
        if (e.call->decl && seen_calls.insert({e.call.get(), c}).second) visit(e.call->trace, e.call->decl->value.get(), c);
      } else if (e.rec) {
        if (!seen.insert({e.rec, e.field, c}).second) continue;
        const Slot& s = e.rec->slots()[e.field];
        const FieldState& st = e.rec->state[e.field];
        if (!s.decl || !s.decl->value) continue;
        if (literal_quantity(s.decl->value.get(), st.value))
          leaf({e.rec, e.field, nullptr}, c);
        else
          visit(st.trace, s.decl->value.get(), c);
      } else if (e.binding) {
        if (!seen.insert({e.binding, 0, c}).second) continue;
        const ast::Expr* v = e.binding->stmt ? e.binding->stmt->value.get() : nullptr;
        if (e.binding->stmt && e.binding->stmt->kind != ast::StmtKind::Let) continue;
        if (literal_quantity(v, e.binding->state.value))
          leaf({nullptr, 0, e.binding}, c);
        else
          visit(e.binding->state.trace, v, c);
      }
    }
  }
};

// The value with one input replaced: copies of the records on the way to
// it, each with the next one's copy in place of the original. The copies
// are given back afterwards (with --samples 1000000 each holds ranges of
// 8 MB, and a ranking makes four per input): nothing made before them can
// reach them, and the value they give is a number.
struct Varied {
  Interpreter& in;
  std::size_t slot;      // the value's field in the target
  bool checked = false;  // each copy held to its domains (the arc of a whole-valued input)

  Value operator()(const Chain& chain, Record* holder, std::size_t field, Value v) const {
    const std::size_t made = in.records_made();
    std::vector<Record*> copies;
    struct GiveBack {
      Interpreter& in;
      std::vector<Record*>& copies;
      bool keep = false;
      ~GiveBack() {
        if (!keep)
          for (Record* r : copies) in.retire(*r);
      }
    } give_back{in, copies};
    // The copies are not held to their domains: the formulas' elasticity in
    // a whole-valued input (layers, a batch) is that of their continuous
    // extension. Where a formula itself refuses a near value (a degree of
    // parallelism that must divide), measure() takes the arc instead.
    Record* copy = in.with_values(holder, {{field, std::move(v)}});
    copies.push_back(copy);
    if (checked) in.validate(copy);
    for (std::size_t j = chain.size(); j-- > 0;) {
      copy = in.with_values(chain[j].first, {{chain[j].second, Value::record(copy)}});
      copies.push_back(copy);
      if (checked) in.validate(copy);
    }
    Value y = in.field(copy, slot, Span{});
    give_back.keep = !reaches_no_point(y, made);
    return y;
  }
  Value operator()(const Chain& chain, Record* holder, std::size_t field, double x) const {
    return (*this)(chain, holder, field, Value::quantity(x, holder->state[field].value.q.dim));
  }
};

// The elasticity of the value y0 in one input, varied through `chain`.
void measure(SensitivityInput& si, const Varied& evaluate, const Chain& chain, const Leaf& leaf, const Value& y0) {
  if (si.value.samples) {
    si.range = true;
    if (y0.samples) {
      // The variance left with this input known: fixed at its median.
      try {
        Value fixed = Value::quantity(si.value.samples->summary().p50, si.value.q.dim);
        const Value y1 = evaluate(chain, leaf.rec, leaf.field, fixed);
        const double v0 = y0.samples->summary().sd, v1 = y1.samples ? y1.samples->summary().sd : 0;
        si.variance_share = 1 - (v1 * v1) / (v0 * v0);
        si.has_share = true;
      } catch (const Error&) {
      }
    } else {
      si.variance_share = 0;
      si.has_share = true;
    }
  }
  const double x = si.value.q.v;
  const double y = y0.q.v;
  if (x == 0 || y == 0) {
    si.note = x == 0 ? "the input is zero" : "the value is zero";
    return;
  }
  // The value at x', where it can be had: the power-law test's and the
  // arc's ends.
  auto at = [&](const Varied& v, double x2) -> std::optional<double> {
    try {
      return v(chain, leaf.rec, leaf.field, x2).q.v;
    } catch (const Error&) {
      return std::nullopt;
    }
  };
  try {
    // A power law, verified exactly: y(2x) = 2^k·y and y(x/2) = 2^-k·y.
    bool exact = false;
    if (const auto up2 = at(evaluate, x * 2), down2 = at(evaluate, x / 2); up2 && down2) {
      const double up = *up2, down = *down2;
      int e1 = 0;
      const double mant = std::frexp(up / y, &e1);
      if (std::isfinite(up) && up / y > 0 && mant == 0.5) {
        const int k = e1 - 1;
        if (std::abs(k) <= 64 && up == std::ldexp(y, k) && down == std::ldexp(y, -k)) {
          si.elasticity = k;
          exact = true;
        }
      }
    }
    if (!exact) {
      const double h = kSensitivityStep;
      double up = 0, down = 0;
      try {
        up = evaluate(chain, leaf.rec, leaf.field, x * (1 + h)).q.v;
        down = evaluate(chain, leaf.rec, leaf.field, x / (1 + h)).q.v;
      } catch (const Error& err) {
        // No value near x is in the input's domain (a degree of
        // parallelism, a count of sequences): the elasticity over a
        // doubling and a halving, where those are.
        if (err.diagnostic().code != codes::field_type && err.diagnostic().code != codes::bad_arguments) throw;
        // The arc's ends are points the record allows: each held to its
        // domains, as the plan itself is (tp 16 on 8-GPU nodes is none).
        Varied strict = evaluate;
        strict.checked = true;
        const auto up2 = at(strict, x * 2), down2 = at(strict, x / 2);
        const bool both = up2 && down2 && *up2 / *down2 > 0;
        if (!both && !(up2 && *up2 / y > 0) && !(down2 && y / *down2 > 0)) {
          si.note = fmt::format("{}; nor are half and twice it", err.diagnostic().message);
          return;
        }
        si.elasticity = both ? std::log(*up2 / *down2) / (2 * std::log(2.0))
                        : up2 ? std::log(*up2 / y) / std::log(2.0)
                              : std::log(y / *down2) / std::log(2.0);
        si.arc = both ? "x/2 to 2x" : up2 ? "x to 2x" : "x/2 to x";
        si.ok = true;
        return;
      }
      if (!(up / down > 0) || !std::isfinite(up / down)) {
        si.note = "the value changes sign or vanishes near the input's value";
        return;
      }
      si.elasticity = std::log(up / down) / (2 * std::log1p(h));
      // A branch or a max() that turns at the input's value: the two
      // one-sided slopes disagree, and neither is the elasticity.
      const double above = std::log(up / y) / std::log1p(h), below = std::log(y / down) / std::log1p(h);
      if (!(up / y > 0) || !(y / down > 0) || std::abs(above - below) > 1e-3 * std::max(1.0, std::abs(si.elasticity))) {
        si.note = fmt::format("not smooth here: {:+.4f} above its value, {:+.4f} below", above, below);
        return;
      }
    }
    si.exact = exact;
    si.ok = true;
  } catch (const Error& err) {
    si.note = err.diagnostic().message;
  }
}

// Whether `name` (from --vary or --except) names this input: its path
// ("decode.model.layers"), its path below the value's record
// ("model.layers"), or the record that sets it and the field
// ("llama3_70b.layers").
bool names(const std::string& name, const std::string& path, const std::string& label, const std::string& root) {
  if (name == path || name == label) return true;
  return path.size() > root.size() + 1 && path.compare(0, root.size() + 1, root + ".") == 0 &&
         path.compare(root.size() + 1, std::string::npos, name) == 0;
}

// The field a sensitivity is of: its record, slot and value.
struct Target {
  Record* rec = nullptr;
  std::size_t slot = 0;
  Value value;
  std::string root_label;  // how the command line named its record
};

Target find_target(Interpreter& in, Module* m, const std::string& name) {
  const ast::Expr& e = in.parse_snippet("<name>", name);
  if (e.kind != ast::ExprKind::Member)
    fail(codes::usage, e.span, fmt::format("`{}` is not a field of a record", name),
         "name a record's field, e.g. decode.tokens_per_s");
  Value rv = in.eval_in(m, *e.items[0]);
  if (rv.kind != Value::Kind::Record)
    fail(codes::not_a_record, e.items[0]->span,
         fmt::format("`{}` is {}, not a record", e.items[0]->span.text(), describe_kind(rv)));
  Target t;
  t.rec = rv.rec;
  auto it = t.rec->index().find(e.text);
  if (it == t.rec->index().end()) fail(codes::unknown_field, e.span, fmt::format("{} has no field `{}`", t.rec->name, e.text));
  t.slot = it->second;
  t.value = in.field(t.rec, t.slot, e.span);  // traced: the walk below reads what it saw
  if (t.value.kind != Value::Kind::Quantity)
    fail(codes::type_mismatch, e.span, fmt::format("`{}` is {}; an elasticity needs a number", name, describe_kind(t.value)));
  t.root_label = e.items[0]->span.text().empty() ? t.rec->name : std::string(e.items[0]->span.text());
  return t;
}

// Each input once, as the arithmetic reaches it, then those reached only
// through conditions.
struct Found {
  Leaf leaf;
  SensitivityInput si;
  bool own = false;        // declared in the file itself
  bool condition = false;  // reached only through conditions
  const Chain* chain = nullptr;
};

Found describe_leaf(const Leaf& leaf, bool condition, const SourceFile* own_file, const std::string& root_label,
                    const std::map<const Record*, Chain>& chains) {
  Found f;
  f.leaf = leaf;
  f.condition = condition;
  SensitivityInput& si = f.si;
  if (leaf.binding) {
    si.label = si.path = leaf.binding->name;
    si.value = leaf.binding->state.value;
    si.where_set = leaf.binding->stmt->span.where_line();
    si.note = "a top-level value: not varied";
    f.own = leaf.binding->stmt->span.file == own_file;
    return f;
  }
  const Slot& s = leaf.rec->slots()[leaf.field];
  si.label = leaf.rec->name + "." + s.name;
  si.value = leaf.rec->state[leaf.field].value;
  si.where_set = s.decl->span.where_line();
  f.own = s.decl->span.file == own_file;
  auto c = chains.find(leaf.rec);
  if (c == chains.end()) {
    si.path = si.label;
    si.note = fmt::format("reached by name, not through {}'s fields: not varied", root_label);
  } else {
    si.varied = true;
    si.path = root_label;
    for (const auto& [r, fld] : c->second) si.path += "." + r->slots()[fld].name;
    si.path += "." + s.name;
    f.chain = &c->second;
  }
  return f;
}

std::vector<Found> find_inputs(const Target& t, const SourceFile* own_file, const std::map<const Record*, Chain>& chains) {
  Walker w;
  {
    const Slot& s = t.rec->slots()[t.slot];
    const FieldState& st = t.rec->state[t.slot];
    w.seen.insert({t.rec, t.slot, false});
    if (s.decl && s.decl->value && Walker::literal_quantity(s.decl->value.get(), st.value))
      w.leaves.push_back({t.rec, t.slot, nullptr});
    else
      w.visit(st.trace, s.decl ? s.decl->value.get() : nullptr, false);
  }
  std::vector<Found> found;
  std::set<Leaf> have;
  for (const Leaf& l : w.leaves)
    if (have.insert(l).second) found.push_back(describe_leaf(l, false, own_file, t.root_label, chains));
  for (const Leaf& l : w.by_condition)
    if (have.insert(l).second) found.push_back(describe_leaf(l, true, own_file, t.root_label, chains));
  return found;
}

// Every name --vary or --except gives must name an input, or the user has
// mistyped it: said with the closest input's path.
void check_named(const std::vector<Found>& found, const SensitivityOptions& options, const std::string& name,
                 const std::string& root_label) {
  for (const auto* list : {&options.vary, &options.except})
    for (const std::string& n : *list)
      if (std::none_of(found.begin(), found.end(),
                       [&](const Found& f) { return names(n, f.si.path, f.si.label, root_label); })) {
        std::vector<std::string> paths;
        for (const Found& f : found) paths.push_back(f.si.path.substr(std::min(f.si.path.size(), root_label.size() + 1)));
        auto close = closest(n, paths);
        Diagnostic d;
        d.code = codes::usage;
        d.message = fmt::format("{} `{}`: {} depends on no input of that name", list == &options.vary ? "--vary" : "--except",
                                n, name);
        d.help = close.empty() ? fmt::format("`napkin sensitivity FILE {} --all-inputs` lists every input", name)
                               : fmt::format("did you mean `{}`?", close[0]);
        throw Error(std::move(d));
      }
}

}  // namespace

SensitivityResult sensitivity(Interpreter& in, Module* m, const std::string& name, const SensitivityOptions& options) {
  SensitivityResult out;
  out.name = name;
  const Target t = find_target(in, m, name);
  out.value = t.value;
  const auto chains = reachable(t.rec);
  const SourceFile* own_file = m->file.get();
  const std::string file_name = own_file ? own_file->name : std::string();
  out.ranked = !options.vary.empty() ? "the inputs named"
               : options.all_inputs  ? "every input"
                                     : fmt::format("the inputs {} sets", file_name);
  if (options.vary.empty() && !options.all_inputs) out.file = file_name;
  std::vector<Found> found = find_inputs(t, own_file, chains);
  check_named(found, options, name, t.root_label);

  auto named = [&](const std::vector<std::string>& list, const Found& f) {
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& n) { return names(n, f.si.path, f.si.label, t.root_label); });
  };
  const Varied evaluate{in, t.slot};
  const Interpreter::TracingOff no_derivations(in);
  for (Found& f : found) {
    const bool chosen = !options.vary.empty() ? named(options.vary, f) : options.all_inputs || f.own;
    std::string why;
    if (f.condition && options.vary.empty()) why = "read only by conditions";
    else if (!chosen) why = options.vary.empty() ? "set outside the file" : "not named (--vary)";
    else if (named(options.except, f)) why = "left out (--except)";
    if (!why.empty()) {
      out.unranked.push_back({f.si.path, f.si.label, f.si.where_set, why});
      continue;
    }
    if (f.condition) {
      f.si.note = "read only by conditions (`if`): the value is the same until one of them turns";
    } else if (f.chain) {
      measure(f.si, evaluate, *f.chain, f.leaf, t.value);
    }
    if (f.si.range) out.has_ranges = true;
    out.inputs.push_back(std::move(f.si));
  }
  std::stable_sort(out.inputs.begin(), out.inputs.end(), [](const SensitivityInput& a, const SensitivityInput& b) {
    if (a.ok != b.ok) return a.ok;
    if (a.ok && std::abs(a.elasticity) != std::abs(b.elasticity)) return std::abs(a.elasticity) > std::abs(b.elasticity);
    return false;
  });
  return out;
}

}  // namespace napkin
