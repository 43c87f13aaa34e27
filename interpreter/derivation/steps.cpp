// `run --steps`: what a solution sheet shows for each answer. An answer
// that only names another value (`d_head = drill.head_dim`) or only calls a
// function (`training = train_flops(drill.params, 1.5 Ttoken)`) says nothing
// about how its number is made; at StepDepth::One the sheet opens it: the
// named value's own formula, or the function's body with the arguments
// bound, each with its numbers, through any chain of such names.
#include "derivation.hpp"
#include "specialise.hpp"

#include <algorithm>

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;

// A formula and the trace of its evaluation.
struct Place {
  const Expr* formula;
  const Trace* trace;
};

// What `e` opens into, if it is a name of another value's formula or a call
// of a user function; nothing for an input, a record, a function or a
// parameter, whose value is all there is to show.
std::optional<Place> opened(const Expr& e, const Trace& t, bool& call) {
  if (e.kind != ExprKind::Name && e.kind != ExprKind::Member && e.kind != ExprKind::Call && e.kind != ExprKind::If)
    return std::nullopt;
  const TraceEntry* it = entry_of(t, e);
  // An `if` is the branch it took: a library's `if experts > 1 then … else
  // dense_mlp_params` is, for this model, dense_mlp_params.
  if (e.kind == ExprKind::If) {
    if (!it || is_literal(*e.items[it->value.b ? 1 : 2])) return std::nullopt;
    return Place{e.items[it->value.b ? 1 : 2].get(), &t};
  }
  if (!it || it->value.kind == Value::Kind::Record || it->value.kind == Value::Kind::Function) return std::nullopt;
  Place p{nullptr, nullptr};
  if (e.kind == ExprKind::Call) {
    if (!it->call || !it->call->decl || !it->call->decl->value) return std::nullopt;
    p = {it->call->decl->value.get(), &it->call->trace};
    call = true;
  } else if (it->rec) {
    const Slot& slot = it->rec->slots()[it->field];
    if (!slot.decl || !slot.decl->value) return std::nullopt;
    p = {slot.decl->value.get(), &it->rec->state[it->field].trace};
  } else if (it->binding && it->binding->stmt && it->binding->stmt->value) {
    p = {it->binding->stmt->value.get(), &it->binding->state.trace};
  } else {
    return std::nullopt;
  }
  if (is_literal(*p.formula)) return std::nullopt;  // an input: `drill.d_model = 6,144` says it
  return p;
}

// Calls that print the same lines once: `zero_shards(stage, from_stage, gpus) = … = 1`
// three times over says nothing the first did not.
std::vector<CallStep> distinct(std::vector<CallStep> calls) {
  std::vector<std::pair<std::string, std::vector<std::string>>> seen;
  std::erase_if(calls, [&](const CallStep& c) {
    auto key = std::make_pair(c.label, derivation_text(*c.derivation));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return true;
    seen.push_back(std::move(key));
    return false;
  });
  return calls;
}

// The calls a derivation of `formula` shows under it: specialised, only those
// its specialised formula still shows.
std::vector<CallStep> calls_of(const Interpreter& in, const Expr& formula, const Trace& trace, bool specialise) {
  return distinct(specialise ? specialised_call_steps(in, formula, trace) : call_steps(in, trace));
}

// Where the chain of names and calls that `formula` starts ends: the
// formula that makes the number, with the conversions met on the way.
struct Chain {
  Place at;
  std::vector<std::string> units;  // outermost first
  bool call = false, moved = false;
};
Chain follow(const Expr& formula, const Trace& trace) {
  Chain c{{&formula, &trace}, {}, false, false};
  // A chain of names is finite (a cycle is an evaluation error), but a
  // generated file may make it long: past the bound the sheet stops opening.
  for (int hop = 0; hop < 256; ++hop) {
    const Expr* e = c.at.formula;
    std::vector<std::string> here;
    while (e->kind == ExprKind::Convert && e->unit) {
      here.push_back(e->unit->text);
      e = e->items[0].get();
    }
    const auto next = opened(*e, *c.at.trace, c.call);
    if (!next) break;
    c.units.insert(c.units.end(), here.begin(), here.end());
    c.at = *next;
    c.moved = true;
  }
  return c;
}

Derivation one_level(const Interpreter& in, const Expr& formula, const Trace& trace, const Value& result,
                     bool specialise) {
  const Chain c = follow(formula, trace);
  const Place at = c.at;
  const auto& units = c.units;
  const bool call = c.call, moved = c.moved;
  if (!moved) {
    Derivation d = derive(in, formula, trace, result, 0, specialise);
    d.calls = calls_of(in, formula, trace, specialise);
    return d;
  }
  Derivation d = derive(in, *at.formula, *at.trace, result, 0, specialise);
  Term f = *d.formula, s = *d.substituted;
  for (auto u = units.rbegin(); u != units.rend(); ++u) {
    f = converted(std::move(f), *u);
    s = converted(std::move(s), *u);
  }
  d.formula = std::move(f);
  d.substituted = std::move(s);
  // A call's arguments are not in its body: the call as written says them.
  // A name is only another name for the formula below, so it is left out.
  if (call) d.written = specialise ? term_of(formula, specialising(in, trace, {})) : term_of(formula);
  if (formula.span.file) {
    d.origin = formula.span.where_line();
    d.origin_at = formula.span;
  }
  d.calls = calls_of(in, *at.formula, *at.trace, specialise);
  return d;
}

// The chain followed as at One, then its formula's factors opened, named
// and then in numbers.
Derivation factors(const Interpreter& in, const Expr& formula, const Trace& trace, const Value& result) {
  Derivation d = one_level(in, formula, trace, result, true);
  if (d.input || d.record) return d;
  const Chain c = follow(formula, trace);
  FactorLines f = factor_lines(in, *c.at.formula, *c.at.trace, formula.span.file);
  if (f.names.empty()) return d;
  // The answer as written, where the names below are another formula's: a
  // call (its arguments), or a name of a value made elsewhere.
  if (c.call) d.written = term_of(formula, specialising(in, trace, {}));
  else if (!c.moved) d.written = d.formula;
  // The conversions on the way (`-> GiB`), as at One.
  std::vector<std::string> units = c.units;
  for (const Expr* e = c.at.formula; e->kind == ExprKind::Convert && e->unit; e = e->items[0].get())
    units.push_back(e->unit->text);
  for (auto u = units.rbegin(); u != units.rend(); ++u) {
    f.names = converted(std::move(f.names), *u);
    f.numbers = converted(std::move(f.numbers), *u);
  }
  if (text(d.written) == text(f.names)) d.written = SharedTerm{};
  d.formula = std::move(f.names);
  d.substituted = std::move(f.numbers);
  d.calls = distinct(std::move(f.calls));
  return d;
}

}  // namespace

Derivation solution_steps(const Interpreter& in, const Expr& formula, const Trace& trace, const Value& result,
                          StepDepth depth) {
  if (depth == StepDepth::All) return one_level(in, formula, trace, result, false);
  if (depth == StepDepth::One) return one_level(in, formula, trace, result, true);
  if (depth == StepDepth::Factors) return factors(in, formula, trace, result);
  Derivation d = derive(in, formula, trace, result, 0, true);
  if (depth == StepDepth::Flat) {
    if (!d.input && !d.record) d.substituted = flat_formula(in, formula, trace);
    return d;
  }
  d.calls = calls_of(in, formula, trace, true);
  return d;
}

}  // namespace napkin
