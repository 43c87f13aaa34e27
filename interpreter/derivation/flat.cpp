// `explain --flat`: a derivation on one line. The formula's tree is rebuilt
// with every field and user function call replaced by the tree of its own
// formula (the call's body, with the trace of that call), down to literals,
// inputs and measurements, which show their values; the new tree then
// becomes a term (term.hpp) with the fewest parentheses, as any formula does.
//
// The one line reads as a textbook writes it, so it leaves out bookkeeping
// that only makes units agree: factors and divisors of 1 (`· 1 token`,
// `/ 1 token`), terms that are zero (`+ 0 B` from a layer kind the model
// does not have), and a conversion of the whole formula (`-> GiB`: the
// result says its unit). An input of a record (a field declared with a
// type, such as a model's head_dim) stands as its value even where its
// default formula computed it. The tree (`explain` without --flat) keeps
// them all.
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "derivation.hpp"

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

struct Flattener {
  const Interpreter& in;
  std::unordered_map<const Expr*, Term> leaves;          // synthetic nodes printed as these terms
  std::unordered_map<const Expr*, double> values;        // what each new node is known to equal (SI)
  std::vector<ExprPtr> dropped;                          // left out, but their addresses stay taken
  std::size_t budget = 400;  // formulas inlined; past it, values stand in
  int depth = 0;

  ExprPtr leaf(const Expr& at, Term t, std::optional<double> v = std::nullopt) {
    auto n = std::make_unique<Expr>(ExprKind::Name, at.span);
    leaves[n.get()] = std::move(t);
    if (v) values[n.get()] = *v;
    return n;
  }

  // The expression as it is written, standing for itself.
  ExprPtr as_written(const Expr& e, std::optional<double> v = std::nullopt) { return leaf(e, term_of(e), v); }

  ExprPtr value_leaf(const Expr& at, const Value& v) {
    Term t = value_term(in, v);
    if (v.note && v.note->rfind("measured", 0) == 0) {
      Term noted;
      noted.kind = Term::Kind::Noted;
      noted.items.push_back(std::move(t));
      noted.items.emplace_back();
      noted.items.back().kind = Term::Kind::Text;
      noted.items.back().text = "measured";
      t = std::move(noted);
    }
    return leaf(at, std::move(t), v.kind == Value::Kind::Quantity ? std::optional<double>(v.q.v) : std::nullopt);
  }

  // The formula `f`, evaluated with trace `t`, inlined.
  ExprPtr open(const Expr& f, const Trace& t) {
    if (budget == 0 || depth > 64) return nullptr;
    --budget;
    ++depth;
    ExprPtr out = build(f, t);
    --depth;
    return out;
  }

  static bool is_one(const Expr& e) { return e.kind == ExprKind::Number && e.number == 1 && !e.percent; }

  std::optional<double> value_of(const Expr* e) const {
    auto it = values.find(e);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
  }

  ExprPtr build(const Expr& e, const Trace& t) {
    switch (e.kind) {
      case ExprKind::Name:
      case ExprKind::Member:
      case ExprKind::Call:
      case ExprKind::If:
      case ExprKind::Measure: return traced(e, t);
      case ExprKind::Binary: return binary(e, t);
      case ExprKind::Negate:
      case ExprKind::Not:
      case ExprKind::Convert: {
        auto n = std::make_unique<Expr>(e.kind, e.span);
        n->unit = e.unit;
        n->items.push_back(build(*e.items[0], t));
        return n;
      }
      case ExprKind::Number: {
        double v = e.number * (e.percent ? 0.01 : 1);
        // With a unit its value is known only when it is zero, which is all the simplifications need.
        const bool known = !e.unit || e.number == 0;
        return as_written(e, known ? std::optional<double>(v) : std::nullopt);
      }
      default: return as_written(e);
    }
  }

  ExprPtr traced(const Expr& e, const Trace& t) {
    const TraceEntry* te = entry_of(t, e);
    if (!te) return as_written(e);
    if (e.kind == ExprKind::If) return build(*e.items[te->value.b ? 1 : 2], t);
    if (te->value.kind == Value::Kind::Record || te->value.kind == Value::Kind::Function) return as_written(e);
    if (e.kind == ExprKind::Measure) return value_leaf(e, te->value);
    if (e.kind == ExprKind::Call) {
      if (te->call && te->call->decl) {
        if (ExprPtr body = open(*te->call->decl->value, te->call->trace)) return body;
        return value_leaf(e, te->value);
      }
      // A builtin keeps its call, with its arguments inlined.
      auto n = std::make_unique<Expr>(ExprKind::Call, e.span);
      n->arg_names = e.arg_names;
      n->items.push_back(as_written(*e.items[0]));
      for (std::size_t i = 1; i < e.items.size(); ++i) n->items.push_back(build(*e.items[i], t));
      if (te->value.kind == Value::Kind::Quantity) values[n.get()] = te->value.q.v;
      return n;
    }
    if (te->value.note) return value_leaf(e, te->value);  // measured, or a fallback: a leaf
    const Expr* formula = nullptr;
    const Trace* inner = nullptr;
    if (te->rec) {
      const Slot& slot = te->rec->slots()[te->field];
      // An input (a field declared with a type) is a figure of the record's
      // spec, shown as a value even where a default formula computed it: a
      // model's head_dim is 128, as the model card writes it, not 4,096 / 32.
      if (slot.type_decl) return value_leaf(e, te->value);
      if (slot.decl && slot.decl->value) {
        formula = slot.decl->value.get();
        inner = &te->rec->state[te->field].trace;
      }
    } else if (te->binding && te->binding->stmt->value) {
      formula = te->binding->stmt->value.get();
      inner = &te->binding->state.trace;
    }
    if (formula && !is_literal(*formula))
      if (ExprPtr body = open(*formula, *inner)) return body;
    return value_leaf(e, te->value);  // an input, a literal, or a function's parameter
  }

  ExprPtr binary(const Expr& e, const Trace& t) {
    ExprPtr l = build(*e.items[0], t);
    ExprPtr r = build(*e.items[1], t);
    const auto lv = value_of(l.get()), rv = value_of(r.get());
    using ast::BinOp;
    // Unit bookkeeping and empty terms, left out of the one-line form. The
    // side left out is kept alive: the maps above are keyed by address.
    auto keep = [&](ExprPtr& gone, ExprPtr& kept) {
      dropped.push_back(std::move(gone));
      return std::move(kept);
    };
    if (e.op == BinOp::Mul && is_one(*e.items[1])) return keep(r, l);
    if (e.op == BinOp::Mul && is_one(*e.items[0])) return keep(l, r);
    if (e.op == BinOp::Div && is_one(*e.items[1])) return keep(r, l);
    if (e.op == BinOp::Mul && lv == 1.0 && !e.items[0]->unit) return keep(l, r);
    if ((e.op == BinOp::Add || e.op == BinOp::Sub) && rv == 0.0) return keep(r, l);
    if (e.op == BinOp::Add && lv == 0.0) return keep(l, r);
    auto n = std::make_unique<Expr>(ExprKind::Binary, e.span);
    n->op = e.op;
    if (lv && rv) {
      switch (e.op) {
        case BinOp::Add: values[n.get()] = *lv + *rv; break;
        case BinOp::Sub: values[n.get()] = *lv - *rv; break;
        case BinOp::Mul: values[n.get()] = *lv * *rv; break;
        case BinOp::Div:
          if (*rv != 0) values[n.get()] = *lv / *rv;
          break;
        default: break;
      }
    } else if (e.op == BinOp::Mul && (lv == 0.0 || rv == 0.0)) {
      values[n.get()] = 0;
    }
    n->items.push_back(std::move(l));
    n->items.push_back(std::move(r));
    return n;
  }
};

}  // namespace

Term flat_formula(const Interpreter& in, const ast::Expr& formula, const Trace& trace) {
  Flattener f{in, {}, {}, {}};
  // `... -> GiB`: the result that follows says the unit.
  const ast::Expr* root = &formula;
  while (root->kind == ExprKind::Convert) root = root->items[0].get();
  ExprPtr tree = f.build(*root, trace);
  TermOptions o;
  o.substitute = [&](const Expr& node) -> std::optional<Term> {
    auto it = f.leaves.find(&node);
    return it == f.leaves.end() ? std::nullopt : std::optional<Term>(it->second);
  };
  return term_of(*tree, o);
}

}  // namespace napkin
