// `check` statements: a condition, or `≈ ... within`.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

namespace {

const char* relation_text(ast::BinOp op) {
  switch (op) {
    case ast::BinOp::Eq: return "==";
    case ast::BinOp::Ne: return "!=";
    case ast::BinOp::Lt: return "<";
    case ast::BinOp::Le: return "<=";
    case ast::BinOp::Gt: return ">";
    case ast::BinOp::Ge: return ">=";
    default: return "";
  }
}

}  // namespace

// The unit the checker wrote its expected value in (`0.93 USD/Mtoken`,
// `x -> GiB`), so that both sides are shown in it rather than in base units.
const DisplayUnit* Interpreter::written_unit(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Negate) return written_unit(*e.items[0]);
  if ((e.kind != ast::ExprKind::Number && e.kind != ast::ExprKind::Convert) || !e.unit || e.percent) return nullptr;
  if (e.unit->text.empty() || e.unit->text[0] == '$') return nullptr;  // `$2.00`: shown as USD already
  return intern_display(e.unit->text, resolve_unit(*e.unit).scale);
}

CheckResult Interpreter::run_check(const ast::Stmt& s, Module* names) {
  CheckResult res;
  res.stmt = &s;
  res.name = s.check_name;
  res.points = s.points;
  res.source = std::string(s.span.text());
  res.line = s.span.file->line_col(s.span.begin).first;
  Module* m = names ? names : module_of(s.span.file);
  TraceScope scope(*this, &res.trace);
  Value a = eval(*s.value, m->env);
  if (!s.approx) {
    if (a.kind != Value::Kind::Bool) {
      Diagnostic d;
      d.code = codes::check_not_bool;
      d.message = fmt::format("a check needs a condition (true or false), but this is {} ({})", describe_kind(a),
                              clip(show(a), 80));
      d.labels.push_back({s.value->span, "this is " + describe_kind(a), true});
      d.help = "compare it with something: `check x < 80 GB`, or `check x ≈ 80 GB within 1%`";
      throw Error(std::move(d));
    }
    res.passed = a.b;
    // A comparison's two sides, for a grader's report: evaluated again
    // (every field is memoised), untraced.
    if (s.value->kind == ast::ExprKind::Binary && *relation_text(s.value->op)) {
      TraceScope untraced(*this, nullptr);
      const Value l = eval(*s.value->items[0], m->env), r = eval(*s.value->items[1], m->env);
      if (l.kind == Value::Kind::Quantity && r.kind == Value::Kind::Quantity && l.q.dim == r.q.dim) {
        res.relation = relation_text(s.value->op);
        res.actual = l;
        res.expected = r;
        res.written_in = written_unit(*s.value->items[1]);
      }
    }
  } else {
    Value b = eval(*s.expected, m->env);
    Value t = eval(*s.tolerance, m->env);
    const Quantity& qa = expect_quantity(a, s.value.get(), "a number before '≈'");
    const Quantity& qb = expect_quantity(b, s.expected.get(), "a number after '≈'");
    const Quantity& qt = expect_quantity(t, s.tolerance.get(), "a tolerance after 'within'");
    if (a.samples) range_compare_error(*s.value, *s.value, a, "≈");
    if (b.samples) range_compare_error(*s.expected, *s.expected, b, "≈");
    if (t.samples) range_compare_error(*s.tolerance, *s.tolerance, t, "within");
    if (qa.dim != qb.dim) {
      Diagnostic d;
      d.code = codes::compare_mismatch;
      d.message = fmt::format("cannot compare {} with {}", dim_name(qa.dim), dim_name(qb.dim));
      d.labels.push_back({s.value->span, fmt::format("this is {} ({})", dim_name(qa.dim), show(a)), true});
      d.labels.push_back({s.expected->span, fmt::format("this is {} ({})", dim_name(qb.dim), show(b)), false});
      throw Error(std::move(d));
    }
    res.actual = a;
    res.expected = b;
    res.relation = "≈";
    res.tolerance = t;
    res.written_in = written_unit(*s.expected);
    if (qt.v <= 0 && (qt.dim.dimensionless() || qt.dim == qa.dim)) {
      Diagnostic d;
      d.code = codes::bad_tolerance;
      d.message = fmt::format("a tolerance must be greater than zero, but this is {}", show(t));
      d.labels.push_back({s.tolerance->span, qt.v == 0 ? "zero allows no difference at all" : "a negative tolerance", true});
      d.help = qt.v == 0 ? "for an exact comparison write `check a == b`; otherwise give a margin such as `within 1%`"
                         : "write the margin as a positive number, such as `within 1%`";
      throw Error(std::move(d));
    }
    const double diff = std::fabs(qa.v - qb.v);
    if (qt.dim.dimensionless()) {
      const double rel = qb.v == 0 ? (qa.v == 0 ? 0 : INFINITY) : diff / std::fabs(qb.v);
      res.passed = rel <= qt.v * (1 + 1e-12);
      res.detail = fmt::format("off by {}% (allowed {}%)", format_number(rel * 100, 3), format_number(qt.v * 100, 3));
    } else if (qt.dim == qa.dim) {
      res.passed = diff <= qt.v;
      res.detail = fmt::format("off by {} (allowed {})", show(Value::quantity(diff, qa.dim)), show(t));
    } else {
      fail(codes::compare_mismatch, s.tolerance->span,
           fmt::format("a tolerance must be a plain fraction (1%) or {} like the values, but this is {}",
                       dim_name(qa.dim), dim_name(qt.dim)));
    }
  }
  return res;
}

}  // namespace napkin
