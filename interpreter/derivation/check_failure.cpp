#include "check_failure.hpp"

#include <fmt/format.h>

#include "grammar/printer.hpp"
#include "derivation.hpp"

namespace napkin {

int digits_to_differ(const Interpreter& in, const CheckResult& c) {
  const ast::Stmt& s = *c.stmt;
  int digits = in.options().digits;
  if (s.approx) {
    while (digits < 17 && in.show(c.actual, digits) == in.show(c.expected, digits)) ++digits;
  } else if (s.value->kind == ast::ExprKind::Binary && ast::precedence(s.value->op) == binding::kCompare) {
    const auto side = [&](const ast::Expr& e, int n) { return text(derive(in, e, c.trace, Value{}, n).substituted); };
    while (digits < 17 && side(*s.value->items[0], digits) == side(*s.value->items[1], digits)) ++digits;
  }
  return digits;
}

Diagnostic check_failure(const Interpreter& in, const CheckResult& c) {
  const ast::Stmt& s = *c.stmt;
  Diagnostic d;
  d.code = codes::check_failed;
  const int digits = digits_to_differ(in, c);
  if (s.approx) {
    // Both sides in the unit the checker wrote the expected value in.
    Value actual = c.actual, expected = c.expected;
    if (c.written_in) actual.display = expected.display = c.written_in;
    d.message = fmt::format("check failed: {} is {}, expected {}", print_expr(*s.value), in.show(actual, digits),
                            in.show(expected, digits));
    d.labels.push_back({s.value->span, "this is " + in.show(actual, digits), true});
    d.labels.push_back({s.expected->span, c.detail, false});
  } else {
    const Derivation v = derive(in, *s.value, c.trace, Value::boolean(false), digits);
    // A check of one name substitutes to the bare `false`: say the name.
    const std::string said = text(v.substituted) == "false" ? print_expr(*s.value) : text(v.substituted);
    d.message = fmt::format("check failed: {} is false", said);
    d.labels.push_back({s.value->span, "this is false", true});
  }
  d.help = "`napkin explain FILE EXPR` shows how a value was derived";
  return d;
}

}  // namespace napkin
