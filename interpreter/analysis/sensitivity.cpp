#include "sensitivity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

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
};

struct Walker {
  std::set<const void*> seen_calls;
  std::set<std::pair<const void*, std::size_t>> seen;
  std::vector<Leaf> leaves;

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

  void visit(const Trace& t) {
    for (const auto& e : t.entries) {
      if (e.call) {
        if (e.call->decl && seen_calls.insert(e.call.get()).second) visit(e.call->trace);
      } else if (e.rec) {
        if (!seen.insert({e.rec, e.field}).second) continue;
        const Slot& s = e.rec->slots()[e.field];
        const FieldState& st = e.rec->state[e.field];
        if (!s.decl || !s.decl->value) continue;
        if (literal_quantity(s.decl->value.get(), st.value))
          leaves.push_back({e.rec, e.field, nullptr});
        else
          visit(st.trace);
      } else if (e.binding) {
        if (!seen.insert({e.binding, 0}).second) continue;
        const ast::Expr* v = e.binding->stmt ? e.binding->stmt->value.get() : nullptr;
        if (e.binding->stmt && e.binding->stmt->kind != ast::StmtKind::Let) continue;
        if (literal_quantity(v, e.binding->state.value))
          leaves.push_back({nullptr, 0, e.binding});
        else
          visit(e.binding->state.trace);
      }
    }
  }
};

}  // namespace

SensitivityResult sensitivity(Interpreter& in, Module* m, const std::string& name) {
  SensitivityResult out;
  out.name = name;
  const ast::Expr& e = in.parse_snippet("<name>", name);
  if (e.kind != ast::ExprKind::Member)
    fail(codes::usage, e.span, fmt::format("`{}` is not a field of a record", name),
         "name a record's field, e.g. decode.tokens_per_s");
  Value rv = in.eval_in(m, *e.items[0]);
  if (rv.kind != Value::Kind::Record)
    fail(codes::not_a_record, e.items[0]->span,
         fmt::format("`{}` is {}, not a record", e.items[0]->span.text(), describe_kind(rv)));
  Record* target = rv.rec;
  auto it = target->index().find(e.text);
  if (it == target->index().end())
    fail(codes::unknown_field, e.span, fmt::format("{} has no field `{}`", target->name, e.text));
  const std::size_t slot = it->second;
  const Value y0 = in.field(target, slot, e.span);  // traced: the walk below reads what it saw
  if (y0.kind != Value::Kind::Quantity)
    fail(codes::type_mismatch, e.span, fmt::format("`{}` is {}; an elasticity needs a number", name, describe_kind(y0)));
  out.value = y0;

  Walker w;
  {
    const Slot& s = target->slots()[slot];
    const FieldState& st = target->state[slot];
    w.seen.insert({target, slot});
    if (s.decl && s.decl->value && Walker::literal_quantity(s.decl->value.get(), st.value))
      w.leaves.push_back({target, slot, nullptr});
    else
      w.visit(st.trace);
  }
  const auto chains = reachable(target);
  const std::string root_label = e.items[0]->span.text().empty() ? target->name : std::string(e.items[0]->span.text());

  // The value with one input replaced: copies of the records on the way to
  // it, each with the next one's copy in place of the original.
  auto evaluate_with = [&](const Chain& chain, Record* holder, std::size_t field, Value v) -> Value {
    Record* copy = in.with_values(holder, {{field, std::move(v)}});
    for (std::size_t j = chain.size(); j-- > 0;) copy = in.with_values(chain[j].first, {{chain[j].second, Value::record(copy)}});
    return in.field(copy, slot, Span{});
  };
  auto evaluate = [&](const Chain& chain, Record* holder, std::size_t field, double x) -> Value {
    const Value& old = holder->state[field].value;
    Record* copy = in.with_values(holder, {{field, Value::quantity(x, old.q.dim)}});
    for (std::size_t j = chain.size(); j-- > 0;) copy = in.with_values(chain[j].first, {{chain[j].second, Value::record(copy)}});
    return in.field(copy, slot, Span{});
  };

  const Interpreter::TracingOff no_derivations(in);

  for (const Leaf& leaf : w.leaves) {
    SensitivityInput si;
    if (leaf.binding) {
      si.label = si.path = leaf.binding->name;
      si.value = leaf.binding->state.value;
      si.where_set = leaf.binding->stmt->span.where_line();
      si.note = "a top-level value: not varied";
      out.inputs.push_back(std::move(si));
      continue;
    }
    const Slot& s = leaf.rec->slots()[leaf.field];
    si.label = leaf.rec->name + "." + s.name;
    si.value = leaf.rec->state[leaf.field].value;
    si.where_set = s.decl->span.where_line();
    auto c = chains.find(leaf.rec);
    if (c == chains.end()) {
      si.path = si.label;
      si.note = fmt::format("reached by name, not through {}'s fields: not varied", root_label);
      out.inputs.push_back(std::move(si));
      continue;
    }
    si.varied = true;
    si.path = root_label;
    for (const auto& [r, f] : c->second) si.path += "." + r->slots()[f].name;
    si.path += "." + s.name;
    if (si.value.samples) {
      si.range = true;
      out.has_ranges = true;
      if (y0.samples) {
        // The variance left with this input known: fixed at its median.
        try {
          Value fixed = Value::quantity(si.value.samples->summary().p50, si.value.q.dim);
          const Value y1 = evaluate_with(c->second, leaf.rec, leaf.field, fixed);
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
      out.inputs.push_back(std::move(si));
      continue;
    }
    try {
      // A power law, verified exactly: y(2x) = 2^k·y and y(x/2) = 2^-k·y.
      bool exact = false;
      try {
        const double up = evaluate(c->second, leaf.rec, leaf.field, x * 2).q.v;
        const double down = evaluate(c->second, leaf.rec, leaf.field, x / 2).q.v;
        int e1 = 0;
        const double mant = std::frexp(up / y, &e1);
        if (std::isfinite(up) && up / y > 0 && mant == 0.5) {
          const int k = e1 - 1;
          if (std::abs(k) <= 64 && up == std::ldexp(y, k) && down == std::ldexp(y, -k)) {
            si.elasticity = k;
            exact = true;
          }
        }
      } catch (const Error&) {
      }
      if (!exact) {
        const double h = kSensitivityStep;
        const double up = evaluate(c->second, leaf.rec, leaf.field, x * (1 + h)).q.v;
        const double down = evaluate(c->second, leaf.rec, leaf.field, x / (1 + h)).q.v;
        if (!(up / down > 0) || !std::isfinite(up / down)) {
          si.note = "the value changes sign or vanishes near the input's value";
          out.inputs.push_back(std::move(si));
          continue;
        }
        si.elasticity = std::log(up / down) / (2 * std::log1p(h));
        // A branch or a max() that turns at the input's value: the two
        // one-sided slopes disagree, and neither is the elasticity.
        const double above = std::log(up / y) / std::log1p(h), below = std::log(y / down) / std::log1p(h);
        if (!(up / y > 0) || !(y / down > 0) || std::abs(above - below) > 1e-3 * std::max(1.0, std::abs(si.elasticity))) {
          si.note = fmt::format("not smooth here: {:+.4f} above its value, {:+.4f} below", above, below);
          out.inputs.push_back(std::move(si));
          continue;
        }
      }
      si.exact = exact;
      si.ok = true;
    } catch (const Error& err) {
      si.note = err.diagnostic().message;
    }
    out.inputs.push_back(std::move(si));
  }
  std::stable_sort(out.inputs.begin(), out.inputs.end(), [](const SensitivityInput& a, const SensitivityInput& b) {
    if (a.ok != b.ok) return a.ok;
    if (a.ok && std::abs(a.elasticity) != std::abs(b.elasticity)) return std::abs(a.elasticity) > std::abs(b.elasticity);
    return false;
  });
  return out;
}

}  // namespace napkin
