#include "ast_equal.hpp"

#include <fmt/format.h>

namespace napkin {
namespace {

using namespace ast;

std::string differ(const std::string& what, const std::string& a, const std::string& b) {
  return fmt::format("{}: `{}` vs `{}`", what, a, b);
}

std::string unit_difference(const UnitExpr& a, const UnitExpr& b) {
  if (a.text != b.text) return differ("unit", a.text, b.text);
  if (a.terms.size() != b.terms.size()) return differ("unit terms", a.text, b.text);
  for (std::size_t i = 0; i < a.terms.size(); ++i)
    if (a.terms[i].symbol != b.terms[i].symbol || a.terms[i].power != b.terms[i].power)
      return differ("unit term", a.terms[i].symbol, b.terms[i].symbol);
  return "";
}

std::string unit_difference(const Boxed<UnitExpr>& a, const Boxed<UnitExpr>& b) {
  if (a.has_value() != b.has_value()) return differ("unit", a ? a->text : "none", b ? b->text : "none");
  return a ? unit_difference(*a, *b) : "";
}

std::string optional_expr(const std::string& what, const ExprPtr& a, const ExprPtr& b) {
  if (!a && !b) return "";
  if (!a || !b) return differ(what, a ? "present" : "absent", b ? "present" : "absent");
  std::string d = ast_difference(*a, *b);
  return d.empty() ? d : what + ", " + d;
}

std::string fields_difference(const std::vector<FieldDecl>& a, const std::vector<FieldDecl>& b) {
  if (a.size() != b.size()) return differ("field count", std::to_string(a.size()), std::to_string(b.size()));
  for (std::size_t i = 0; i < a.size(); ++i) {
    const FieldDecl& x = a[i];
    const FieldDecl& y = b[i];
    if (x.name != y.name) return differ("field name", x.name, y.name);
    const std::string where = "field " + x.name;
    if (x.type.kind != y.type.kind || x.type.text != y.type.text)
      return differ(where + " type", x.type.text, y.type.text);
    if (std::string d = unit_difference(x.type.unit, y.type.unit); !d.empty())
      return where + " type " + d;
    if (std::string d = optional_expr(where, x.value, y.value); !d.empty()) return d;
  }
  return "";
}

std::string items_difference(const std::string& what, const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return differ(what + " count", std::to_string(a.size()), std::to_string(b.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::string d = ast_difference(*a[i], *b[i]); !d.empty()) return fmt::format("{} {}, {}", what, i, d);
  return "";
}

std::string statement_difference(const Stmt& a, const Stmt& b) {
  if (a.kind != b.kind) return "statement kind";
  if (a.name != b.name) return differ("name", a.name, b.name);
  if (a.record_kind != b.record_kind) return differ("kind", a.record_kind, b.record_kind);
  if (a.approx != b.approx) return "≈ on one side only";
  if (a.check_name != b.check_name) return "the check's name";
  if (a.points_text != b.points_text) return "the check's points";
  if (std::string d = optional_expr("value", a.value, b.value); !d.empty()) return d;
  if (std::string d = optional_expr("base", a.base, b.base); !d.empty()) return d;
  if (std::string d = optional_expr("expected", a.expected, b.expected); !d.empty()) return d;
  if (std::string d = optional_expr("tolerance", a.tolerance, b.tolerance); !d.empty()) return d;
  if (std::string d = fields_difference(a.fields, b.fields); !d.empty()) return d;
  if (a.params.size() != b.params.size()) return "parameter count";
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    if (a.params[i].name != b.params[i].name) return differ("parameter", a.params[i].name, b.params[i].name);
    if (std::string d = optional_expr("parameter " + a.params[i].name, a.params[i].default_value, b.params[i].default_value);
        !d.empty())
      return d;
  }
  if (a.sweep_vars.size() != b.sweep_vars.size()) return "swept input count";
  for (std::size_t i = 0; i < a.sweep_vars.size(); ++i) {
    if (a.sweep_vars[i].name != b.sweep_vars[i].name) return differ("swept input", a.sweep_vars[i].name, b.sweep_vars[i].name);
    if (std::string d = optional_expr("values of " + a.sweep_vars[i].name, a.sweep_vars[i].values, b.sweep_vars[i].values);
        !d.empty())
      return d;
  }
  if (a.columns.size() != b.columns.size()) return "column count";
  for (std::size_t i = 0; i < a.columns.size(); ++i)
    if (a.columns[i].name != b.columns[i].name) return differ("column", a.columns[i].name, b.columns[i].name);
  return "";
}

}  // namespace

std::string ast_difference(const Expr& a, const Expr& b) {
  if (a.kind != b.kind) return differ("expression kind", std::to_string(int(a.kind)), std::to_string(int(b.kind)));
  if (a.text != b.text) return differ("text", a.text, b.text);
  // Bit-equal, so that 0.1 written two ways that round differently counts as a change.
  if (a.number != b.number && !(a.number != a.number && b.number != b.number))
    return differ("number", fmt::format("{}", a.number), fmt::format("{}", b.number));
  if (a.boolean != b.boolean) return "boolean";
  if (a.percent != b.percent) return "percent sign";
  if (a.kind == ExprKind::Binary && a.op != b.op) return differ("operator", op_text(a.op), op_text(b.op));
  if (std::string d = unit_difference(a.unit, b.unit); !d.empty()) return d;
  if (a.arg_names != b.arg_names) return "argument names";
  if (std::string d = items_difference("operand", a.items, b.items); !d.empty()) return d;
  if (std::string d = fields_difference(a.fields, b.fields); !d.empty()) return "with " + d;
  return optional_expr("fallback", a.fallback, b.fallback);
}

std::string ast_difference(const Module& a, const Module& b) {
  const std::size_t n = std::min(a.statements.size(), b.statements.size());
  for (std::size_t i = 0; i < n; ++i)
    if (std::string d = statement_difference(a.statements[i], b.statements[i]); !d.empty())
      return fmt::format("statement {} ({}): {}", i + 1, a.statements[i].name, d);
  if (a.statements.size() != b.statements.size())
    return differ("statement count", std::to_string(a.statements.size()), std::to_string(b.statements.size()));
  return "";
}

}  // namespace napkin
