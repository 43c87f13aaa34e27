#include "check_failure.hpp"

#include <fmt/format.h>

#include "grammar/printer.hpp"
#include "derivation.hpp"

namespace napkin {

Diagnostic check_failure(const Interpreter& in, const CheckResult& c) {
  const ast::Stmt& s = *c.stmt;
  Diagnostic d;
  d.code = codes::check_failed;
  if (s.approx) {
    d.message = fmt::format("check failed: {} is {}, expected {}", print_expr(*s.value), in.show(c.actual),
                            in.show(c.expected));
    d.labels.push_back({s.value->span, "this is " + in.show(c.actual), true});
    d.labels.push_back({s.expected->span, c.detail, false});
  } else {
    const Derivation v = derive_text(in, *s.value, c.trace, Value::boolean(false));
    d.message = fmt::format("check failed: {} is false", v.substituted);
    d.labels.push_back({s.value->span, "this is false", true});
  }
  d.help = "`napkin explain FILE EXPR` shows how a value was derived";
  return d;
}

}  // namespace napkin
