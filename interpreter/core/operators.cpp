// Arithmetic and comparison on values, with dimensions checked at the operator.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "compare.hpp"
#include "dimension_rules.hpp"
#include "interpreter.hpp"
#include "range_ops.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {


// A dimension holds each unit's power in 8 bits: a result beyond
// ±Dim::kMaxExponent is an error here rather than a power that wraps.
void Interpreter::exponent_error(const ast::Expr& e, const Value& l, const Value& r) {
  Diagnostic d;
  d.code = codes::exponent_range;
  const std::string what = e.op == ast::BinOp::Pow
                               ? fmt::format("({})^{}", dim_name(l.q.dim), show(r))
                               : fmt::format("({}) {} ({})", dim_name(l.q.dim), ast::op_text(e.op), dim_name(r.q.dim));
  d.message = fmt::format("a unit's power would go beyond ±{}: {}", Dim::kMaxExponent, what);
  d.labels.push_back({e.span, "this operation", true});
  d.help = "no quantity napkin models needs such a unit; check the formula for a power or product applied twice";
  throw Error(std::move(d));
}

void Interpreter::dimension_mismatch(Code code, std::string message, std::string help, const ast::Expr& le,
                                     const Value& l, const ast::Expr& re, const Value& r) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.labels.push_back({le.span, fmt::format("this is {} ({})", dim_name(l.q.dim), show(l)), true});
  d.labels.push_back({re.span, fmt::format("this is {} ({})", dim_name(r.q.dim), show(r)), false});
  d.help = std::move(help);
  throw Error(std::move(d));
}

Value Interpreter::eval_binary(const ast::Expr& e, Env* env) {
  using B = ast::BinOp;
  const ast::Expr& le = *e.items[0];
  const ast::Expr& re = *e.items[1];
  if (e.op == B::And || e.op == B::Or) {
    Value l = eval(le, env);
    if (l.kind != Value::Kind::Bool) type_error(l, &le, e.op == B::And ? "true or false before 'and'" : "true or false before 'or'");
    if (e.op == B::And && !l.b) return l;
    if (e.op == B::Or && l.b) return l;
    Value r = eval(re, env);
    if (r.kind != Value::Kind::Bool) type_error(r, &re, e.op == B::And ? "true or false after 'and'" : "true or false after 'or'");
    return r;
  }
  if (e.op == B::To) return eval_range(e, env);
  Value l = eval(le, env);
  Value r = eval(re, env);
  return binary_values(e, std::move(l), std::move(r));
}

Value Interpreter::binary_values(const ast::Expr& e, Value l, Value r) {
  using B = ast::BinOp;
  const ast::Expr& le = *e.items[0];
  const ast::Expr& re = *e.items[1];
  if (e.op == B::Eq || e.op == B::Ne) {
    if (l.kind != Value::Kind::Quantity || r.kind != Value::Kind::Quantity) {
      bool same;
      if (l.kind != r.kind)
        same = false;
      else if (l.kind == Value::Kind::Bool)
        same = l.b == r.b;
      else if (l.kind == Value::Kind::String)
        same = l.str() == r.str();
      else if (l.kind == Value::Kind::Record)
        same = l.rec == r.rec;
      else
        fail(codes::type_mismatch, e.span, fmt::format("cannot compare two values of kind {}", kind_name(l.kind)));
      if (l.kind != r.kind) {
        Diagnostic d;
        d.code = codes::type_mismatch;
        d.message = fmt::format("cannot compare {} with {}", describe_kind(l), describe_kind(r));
        d.labels.push_back({le.span, "this is " + describe_kind(l), true});
        d.labels.push_back({re.span, "this is " + describe_kind(r), false});
        throw Error(std::move(d));
      }
      return Value::boolean(e.op == B::Eq ? same : !same);
    }
  }
  const bool comparison = e.op == B::Eq || e.op == B::Ne || e.op == B::Lt || e.op == B::Le || e.op == B::Gt || e.op == B::Ge;
  const char* what = comparison ? "a number to compare" : "a number";
  const Quantity& a = expect_quantity(l, &le, what);
  const Quantity& b = expect_quantity(r, &re, what);
  const DimBreak broken = e.op == B::Pow ? DimBreak::none : binary_dim(e.op, a.dim, b.dim).broken;
  if (broken == DimBreak::mismatch) {
    const std::string da = dim_name(a.dim), db = dim_name(b.dim);
    dimension_mismatch(comparison ? codes::compare_mismatch : codes::add_mismatch,
                       comparison         ? fmt::format("cannot compare {} with {}", da, db)
                       : e.op == B::Add ? fmt::format("cannot add {} and {}", da, db)
                                        : fmt::format("cannot subtract {} from {}", db, da),
                       comparison ? "both sides of a comparison must have the same dimension"
                                  : fmt::format("both sides of `{}` must have the same dimension", ast::op_text(e.op)),
                       le, l, re, r);
  }
  if (broken == DimBreak::exponent_range) exponent_error(e, l, r);
  if (!l.samples && !r.samples) [[likely]]
    return scalar_binary(e, l, r);
  if (comparison) range_compare_error(e, l.samples ? le : re, l.samples ? l : r, ast::op_text(e.op));
  if (e.op == B::Pow && r.samples && !a.dim.dimensionless())
    fail(codes::bad_power, re.span,
         fmt::format("{} can only be raised to a whole power, not to a range ({})", dim_name(a.dim), show(r)),
         "a power of a unit must be one whole number; take the power of a plain number instead");
  if (e.op == B::Div && r.samples)
    for (double x : r.samples->v)
      if (x == 0) {
        Diagnostic d;
        d.code = codes::division_by_zero;
        d.message = "division by zero: the divisor's range includes 0";
        d.labels.push_back({re.span, fmt::format("this is {}", show(r)), true});
        d.help = "a range that reaches zero cannot divide; narrow it, or bound it with max()";
        throw Error(std::move(d));
      }
  Value nominal = scalar_binary(e, l, r);
  nominal.display = nullptr;
  switch (e.op) {
    case B::Add: return zip_samples(*this, l, r, std::move(nominal), e.span, [](double x, double y) { return x + y; });
    case B::Sub: return zip_samples(*this, l, r, std::move(nominal), e.span, [](double x, double y) { return x - y; });
    case B::Mul: return zip_samples(*this, l, r, std::move(nominal), e.span, [](double x, double y) { return x * y; });
    case B::Div: return zip_samples(*this, l, r, std::move(nominal), e.span, [](double x, double y) { return x / y; });
    case B::Pow:
      return zip_samples(*this, l, r, std::move(nominal), e.span, [](double x, double y) { return std::pow(x, y); });
    default: break;
  }
  fail(codes::internal, e.span, "unknown operator");
}

// The operator on two numbers (a range's point value), dimensions checked.
Value Interpreter::scalar_binary(const ast::Expr& e, const Value& l, const Value& r) {
  using B = ast::BinOp;
  const ast::Expr& re = *e.items[1];
  const Quantity& a = l.q;
  const Quantity& b = r.q;
  switch (e.op) {
    case B::Add: return finite(a.v + b.v, a.dim, e.span);
    case B::Sub: return finite(a.v - b.v, a.dim, e.span);
    case B::Mul: return finite(a.v * b.v, a.dim * b.dim, e.span);
    case B::Div:
      if (b.v == 0) {
        Diagnostic d;
        d.code = codes::division_by_zero;
        d.message = "division by zero";
        d.labels.push_back({re.span, fmt::format("this is {}", show(r)), true});
        throw Error(std::move(d));
      }
      return finite(a.v / b.v, a.dim / b.dim, e.span);
    case B::Pow: {
      const DimOutcome power = binary_dim(B::Pow, a.dim, b.dim, b.v);
      if (power.broken == DimBreak::exponent_not_plain)
        fail(codes::bad_power, re.span, fmt::format("an exponent must be a plain number, but this is {}", dim_name(b.dim)));
      if (power.broken == DimBreak::power_not_whole)
        fail(codes::bad_power, re.span,
             fmt::format("{} can only be raised to a whole power (up to 16), not {}", dim_name(a.dim), show(r)),
             "a fractional power of a unit has no meaning; take the power of a plain number instead");
      if (power.broken == DimBreak::exponent_range) exponent_error(e, l, r);
      return finite(std::pow(a.v, b.v), power.dim, e.span);
    }
    case B::Eq: return Value::boolean(same_magnitude(a.v, b.v));
    case B::Ne: return Value::boolean(!same_magnitude(a.v, b.v));
    case B::Lt: return Value::boolean(a.v < b.v && !same_magnitude(a.v, b.v));
    case B::Le: return Value::boolean(a.v <= b.v || same_magnitude(a.v, b.v));
    case B::Gt: return Value::boolean(a.v > b.v && !same_magnitude(a.v, b.v));
    case B::Ge: return Value::boolean(a.v >= b.v || same_magnitude(a.v, b.v));
    default: break;
  }
  fail(codes::internal, e.span, "unknown operator");
}

}  // namespace napkin
