#include "specialise.hpp"

namespace napkin {

using ast::BinOp;
using ast::Expr;
using ast::ExprKind;

namespace {

const Expr* strip_conversions(const Expr* e) {
  while (e->kind == ExprKind::Convert) e = e->items[0].get();
  return e;
}

bool traced_kind(const Expr& e) {
  return e.kind == ExprKind::Name || e.kind == ExprKind::Member || e.kind == ExprKind::Call ||
         e.kind == ExprKind::If || e.kind == ExprKind::Measure;
}

}  // namespace

bool folds_to_zero(const Expr& e, const Trace& trace) {
  switch (e.kind) {
    case ExprKind::Number: return e.number == 0;
    case ExprKind::Convert:
    case ExprKind::Negate: return folds_to_zero(*e.items[0], trace);
    case ExprKind::Binary:
      switch (e.op) {
        case BinOp::Mul: return folds_to_zero(*e.items[0], trace) || folds_to_zero(*e.items[1], trace);
        case BinOp::Div: return folds_to_zero(*e.items[0], trace);
        case BinOp::Add:
        case BinOp::Sub: return folds_to_zero(*e.items[0], trace) && folds_to_zero(*e.items[1], trace);
        default: return false;
      }
    default: break;
  }
  if (!traced_kind(e)) return false;
  const TraceEntry* it = entry_of(trace, e);
  if (!it) return false;
  if (e.kind == ExprKind::If) return folds_to_zero(*e.items[it->value.b ? 1 : 2], trace);
  // A measurement is what a probe saw: shown even when it saw nothing.
  return it->value.kind == Value::Kind::Quantity && !it->value.samples && !it->value.note && it->value.q.v == 0;
}

bool folds_to_one(const Interpreter& in, const Expr& e, const Trace& trace) {
  if (e.kind == ExprKind::Number) return e.number == 1 && !e.unit && !e.percent;
  if (e.kind != ExprKind::Name && e.kind != ExprKind::Member) return false;
  const TraceEntry* it = entry_of(trace, e);
  if (!it || it->value.kind != Value::Kind::Quantity || it->value.samples || it->value.note) return false;
  if (it->value.q.v != 1 || !it->value.q.dim.dimensionless()) return false;
  // `100%` is an assumption a reader should see; a count of 1 is not.
  const Shown s = shown_value(in, it->value);
  return s.number == "1" && s.unit.empty() && s.rest.empty();
}

const Expr* unit_helper_argument(const Expr& e, const Trace& trace) {
  if (e.kind != ExprKind::Call || e.items.size() != 2) return nullptr;
  const TraceEntry* it = entry_of(trace, e);
  if (!it || !it->call || !it->call->decl || !it->call->decl->value) return nullptr;
  const ast::Stmt& decl = *it->call->decl;
  if (decl.params.size() != 1) return nullptr;
  const Expr* body = strip_conversions(decl.value.get());
  const auto is_param = [&](const Expr& x) { return x.kind == ExprKind::Name && x.text == decl.params[0].name; };
  if (is_param(*body) && body != decl.value.get()) return e.items[1].get();  // `t -> GiB`
  if (body->kind != ExprKind::Binary || (body->op != BinOp::Mul && body->op != BinOp::Div)) return nullptr;
  const Expr& l = *body->items[0];
  const Expr& r = *body->items[1];
  if (is_param(l) && r.kind == ExprKind::Number && r.number == 1 && r.unit && !r.percent) return e.items[1].get();
  return nullptr;
}

const Expr* specialised(const Interpreter& in, const Expr& e, const Trace& trace) {
  if (e.kind == ExprKind::If) {
    const TraceEntry* it = entry_of(trace, e);
    return it && it->value.kind == Value::Kind::Bool ? e.items[it->value.b ? 1 : 2].get() : nullptr;
  }
  if (e.kind == ExprKind::Call) return unit_helper_argument(e, trace);
  if (e.kind != ExprKind::Binary) return nullptr;
  const Expr* l = e.items[0].get();
  const Expr* r = e.items[1].get();
  switch (e.op) {
    case BinOp::Add:
      if (folds_to_zero(*r, trace)) return l;
      if (folds_to_zero(*l, trace)) return r;
      return nullptr;
    case BinOp::Sub: return folds_to_zero(*r, trace) ? l : nullptr;
    case BinOp::Mul:
      if (folds_to_one(in, *r, trace)) return l;
      if (folds_to_one(in, *l, trace)) return r;
      return nullptr;
    case BinOp::Div: return folds_to_one(in, *r, trace) ? l : nullptr;
    default: return nullptr;
  }
}

TermOptions specialising(const Interpreter& in, const Trace& trace, TermOptions o) {
  auto base = std::make_shared<const TermOptions>(std::move(o));
  TermOptions out;
  out.pretty = base->pretty;
  out.substitute = [&in, &trace, base](const Expr& node) -> std::optional<Term> {
    if (const Expr* s = specialised(in, node, trace)) return term_of(*s, specialising(in, trace, *base));
    return base->substitute ? base->substitute(node) : std::nullopt;
  };
  return out;
}

std::unordered_set<const Expr*> shown_calls(const Interpreter& in, const Expr& e, const Trace& trace) {
  std::unordered_set<const Expr*> out;
  const auto walk = [&](const auto& self, const Expr& x) -> void {
    if (const Expr* s = specialised(in, x, trace)) return self(self, *s);
    if (x.kind == ExprKind::Call) out.insert(&x);
    ast::for_each_child(x, [&](const Expr& c) { self(self, c); });
  };
  walk(walk, e);
  return out;
}

}  // namespace napkin
