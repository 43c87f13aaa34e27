// Conditions on ranges, sample by sample: `prob(COND)`, and an `if` whose
// condition compares ranges (the roofline's `if compute >= memory`), which
// picks its branch sample by sample as arithmetic works.
#include <fmt/format.h>

#include <algorithm>

#include "compare.hpp"
#include "interpreter.hpp"
#include "samples.hpp"

namespace napkin {

namespace {

bool holds_one(ast::BinOp op, double a, double b) {
  using B = ast::BinOp;
  const bool same = same_magnitude(a, b);  // as the scalar comparisons
  switch (op) {
    case B::Eq: return same;
    case B::Ne: return !same;
    case B::Lt: return a < b && !same;
    case B::Le: return a <= b || same;
    case B::Gt: return a > b && !same;
    case B::Ge: return a >= b || same;
    default: return false;
  }
}

bool is_comparison(const ast::Expr& e) {
  using B = ast::BinOp;
  return e.kind == ast::ExprKind::Binary &&
         (e.op == B::Eq || e.op == B::Ne || e.op == B::Lt || e.op == B::Le || e.op == B::Gt || e.op == B::Ge);
}

// A comparison, or `and`, `or`, `not` of conditions: what may hold for
// some samples and not others.
bool is_condition(const ast::Expr& e) {
  using B = ast::BinOp;
  return is_comparison(e) || e.kind == ast::ExprKind::Not ||
         (e.kind == ast::ExprKind::Binary && (e.op == B::And || e.op == B::Or));
}

}  // namespace

// The comparison `e` of two quantities, one of them a range, sample by sample.
void Interpreter::compare_samples(const ast::Expr& e, const Value& l, const Value& r, std::vector<char>& mask) {
  const ast::Expr& le = *e.items[0];
  const ast::Expr& re = *e.items[1];
  const std::size_t n = mask.size();
  expect_quantity(l, &le, "a number to compare");
  expect_quantity(r, &re, "a number to compare");
  if (l.q.dim != r.q.dim)
    dimension_mismatch(codes::compare_mismatch,
                       fmt::format("cannot compare {} with {}", dim_name(l.q.dim), dim_name(r.q.dim)),
                       "both sides of a comparison must have the same dimension", le, l, re, r);
  const double* a = l.samples ? l.samples->v.data() : nullptr;
  const double* b = r.samples ? r.samples->v.data() : nullptr;
  if ((a && l.samples->v.size() != n) || (b && r.samples->v.size() != n))
    fail(codes::internal, e.span, "a range with another number of samples");
  for (std::size_t i = 0; i < n; ++i) mask[i] = holds_one(e.op, a ? a[i] : l.q.v, b ? b[i] : r.q.v);
}

// Sample by sample, whether the condition `e` holds.
void Interpreter::holds(const ast::Expr& e, Env* env, std::vector<char>& mask) {
  using B = ast::BinOp;
  const std::size_t n = mask.size();
  if (e.kind == ast::ExprKind::Not) {
    holds(*e.items[0], env, mask);
    for (auto& m : mask) m = !m;
    return;
  }
  if (e.kind == ast::ExprKind::Binary && (e.op == B::And || e.op == B::Or)) {
    std::vector<char> right(n);
    holds(*e.items[0], env, mask);
    holds(*e.items[1], env, right);
    for (std::size_t i = 0; i < n; ++i) mask[i] = e.op == B::And ? (mask[i] && right[i]) : (mask[i] || right[i]);
    return;
  }
  if (!is_comparison(e)) {
    Value v = eval(e, env);
    if (v.kind != Value::Kind::Bool) type_error(v, &e, "a comparison, such as `memory <= 80 GB`");
    std::fill(mask.begin(), mask.end(), v.b);
    return;
  }
  Value l = eval(*e.items[0], env);
  Value r = eval(*e.items[1], env);
  compare_samples(e, l, r, mask);
}

Value Interpreter::eval_probability(const ast::Expr& call, Env* env) {
  if (call.items.size() != 2 || !call.arg_names[0].empty())
    fail(codes::bad_arguments, call.span, "prob() takes one condition, such as `prob(memory <= 80 GB)`");
  std::vector<char> mask(opts_.samples);
  holds(*call.items[1], env, mask);
  std::size_t yes = 0;
  for (char m : mask) yes += m != 0;
  static const DisplayUnit* const percent = intern_display("%", 0.01);
  Value out = Value::quantity(static_cast<double>(yes) / static_cast<double>(mask.size()));
  out.display = percent;
  record_trace(call, out, nullptr, 0, nullptr);
  return out;
}

// A condition as an `if` needs it: one answer when no range is compared,
// else the answer per sample. `and` and `or` still skip their right side
// when the left one settles the answer for every sample.
Interpreter::Condition Interpreter::condition(const ast::Expr& e, Env* env) {
  using B = ast::BinOp;
  Condition c;
  if (e.kind == ast::ExprKind::Not) {
    c = condition(*e.items[0], env);
    c.point = !c.point;
    for (auto& m : c.mask) m = !m;
    return c;
  }
  if (e.kind == ast::ExprKind::Binary && (e.op == B::And || e.op == B::Or)) {
    const bool is_and = e.op == B::And;
    Condition l = condition(*e.items[0], env);
    if (l.mask.empty() && l.point != is_and) return l;  // false and …, true or …
    Condition r = condition(*e.items[1], env);
    if (l.mask.empty()) return r;
    if (r.mask.empty()) r.mask.assign(l.mask.size(), r.point);
    for (std::size_t i = 0; i < l.mask.size(); ++i)
      l.mask[i] = is_and ? (l.mask[i] && r.mask[i]) : (l.mask[i] || r.mask[i]);
    l.point = is_and ? (l.point && r.point) : (l.point || r.point);
    return l;
  }
  if (is_comparison(e)) {
    Value l = eval(*e.items[0], env);
    Value r = eval(*e.items[1], env);
    if (is_range(l) || is_range(r)) {
      c.mask.resize(opts_.samples);
      compare_samples(e, l, r, c.mask);
      c.point = holds_one(e.op, l.q.v, r.q.v);
      return c;
    }
    c.point = binary_values(e, std::move(l), std::move(r)).b;
    return c;
  }
  Value v = eval(e, env);
  if (v.kind != Value::Kind::Bool) type_error(v, &e, "a condition (true or false)");
  c.point = v.b;
  return c;
}

// `if C then A else B`. When C compares ranges and holds for some samples
// only, both branches are evaluated and the result takes each sample from
// the branch its condition chose; its point value is the branch the
// condition chooses at the point values. A branch that is not a number
// (the roofline's "compute" or "memory") cannot be mixed: the result is the
// branch most samples take, with a note of the share.
Value Interpreter::eval_if(const ast::Expr& e, Env* env) {
  const ast::Expr& ce = *e.items[0];
  bool take;
  if (!is_condition(ce)) {
    Value c = eval(ce, env);
    if (c.kind != Value::Kind::Bool) type_error(c, &ce, "a condition (true or false)");
    take = c.b;
  } else {
    Condition c = condition(ce, env);
    std::size_t yes = 0;
    for (char m : c.mask) yes += m != 0;
    if (!c.mask.empty() && yes != 0 && yes != c.mask.size()) return mixed_branches(e, env, c, yes);
    take = c.mask.empty() ? c.point : yes != 0;
  }
  record_trace(e, Value::boolean(take), nullptr, 0, nullptr);  // which branch, for the derivation
  return eval(*e.items[take ? 1 : 2], env);
}

Value Interpreter::mixed_branches(const ast::Expr& e, Env* env, const Condition& c, std::size_t yes) {
  const ast::Expr& te = *e.items[1];
  const ast::Expr& fe = *e.items[2];
  Value a = eval(te, env);
  Value b = eval(fe, env);
  const std::size_t n = c.mask.size();
  if (a.kind == Value::Kind::Quantity && b.kind == Value::Kind::Quantity) {
    if (a.q.dim != b.q.dim)
      dimension_mismatch(codes::range_branches,
                         fmt::format("the condition holds for some of the range's samples and not others, so both "
                                     "branches are needed, but they are {} and {}",
                                     dim_name(a.q.dim), dim_name(b.q.dim)),
                         "give both branches one dimension, or decide on one value of the range: `if median(x) > …`",
                         te, a, fe, b);
    for (const Value* v : {&a, &b})
      if (v->samples && v->samples->v.size() != n) fail(codes::internal, e.span, "a range with another number of samples");
    Value nominal = c.point ? a : b;
    nominal.samples = nullptr;
    nominal.note = nullptr;
    nominal.display = a.display == b.display ? a.display : nullptr;
    SampleVector out(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Value& v = c.mask[i] ? a : b;
      out[i] = v.samples ? v.samples->v[i] : v.q.v;
    }
    return range_result(std::move(out), std::move(nominal), e.span);
  }
  if (a.kind != b.kind)
    fail(codes::range_branches, e.span,
         fmt::format("the condition holds for some of the range's samples and not others, so both branches are "
                     "needed, but one is {} and the other {}",
                     describe_kind(a), describe_kind(b)),
         "give both branches one kind, or decide on one value of the range: `if median(x) > …`");
  const bool same = (a.kind == Value::Kind::Bool && a.b == b.b) ||
                    (a.kind == Value::Kind::String && a.str() == b.str()) ||
                    (a.kind == Value::Kind::Record && a.rec == b.rec) ||
                    (a.kind == Value::Kind::Function && a.fn == b.fn);
  if (same) return a;
  // Not a number: the branch most samples take (the point value's on a tie).
  const bool take = 2 * yes != n ? 2 * yes > n : c.point;
  static const DisplayUnit* const percent = intern_display("%", 0.01);
  Value share = Value::quantity(static_cast<double>(take ? yes : n - yes) / static_cast<double>(n));
  share.display = percent;
  Value rest = Value::quantity(static_cast<double>(take ? n - yes : yes) / static_cast<double>(n));
  rest.display = percent;
  Value out = take ? a : b;
  out.note = intern_note(fmt::format("in {} of the samples; {} in the other {}", show(share), show(take ? b : a), show(rest)));
  return out;
}

}  // namespace napkin
