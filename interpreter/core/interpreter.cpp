// The interpreter itself: its builtins, and how values are shown in messages.
#include "interpreter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "grammar/text_escape.hpp"
#include "builtins.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

std::string describe_kind(const Value& v) {
  if (v.samples) return "a range";
  switch (v.kind) {
    case Value::Kind::Quantity: return "a number";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::String: return "a string";
    case Value::Kind::Record: return "a record";
    case Value::Kind::List: return "a list";
    case Value::Kind::Function: return "a function";
  }
  return "a value";
}

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Quantity: return "quantity";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::String: return "string";
    case Value::Kind::Record: return "record";
    case Value::Kind::List: return "list";
    case Value::Kind::Function: return "function";
  }
  return "value";
}

Interpreter::Interpreter(Options opts) : opts_(std::move(opts)) {
  register_builtins(*this);
  register_range_builtins(*this);
  register_require(*this);
  register_lookup(*this);
  for (const Function& f : opts_.builtins) register_builtin(f);
}
Interpreter::~Interpreter() = default;

void Interpreter::register_builtin(Function f) {
  const std::string name = f.name;
  builtins_.emplace(name, std::move(f));
}

const Function* Interpreter::builtin(const std::string& name) const {
  auto it = builtins_.find(name);
  return it == builtins_.end() ? nullptr : &it->second;
}

Value Interpreter::finite(double v, Dim d, Span span) {
  if (!std::isfinite(v)) {
    fail(codes::not_finite, span,
         std::isnan(v) ? "this has no defined value (not a number)" : "this overflows to infinity",
         "check the magnitudes of the operands: napkin computes in double precision, up to about 1.8e308");
  }
  return Value::quantity(v, d);
}

const Quantity& Interpreter::expect_quantity(const Value& v, const ast::Expr* node, const char* what) {
  if (v.kind != Value::Kind::Quantity) type_error(v, node, what);
  return v.q;
}

void Interpreter::type_error(const Value& v, const ast::Expr* node, const char* expected) {
  Diagnostic d;
  d.code = codes::type_mismatch;
  const std::string shown = clip(show(v), 80);
  d.message = fmt::format("expected {}, but this is {} ({})", expected, describe_kind(v), shown);
  if (node) d.labels.push_back({node->span, "this is " + describe_kind(v), true});
  throw Error(std::move(d));
}

std::string Interpreter::dim_name(const Dim& d) const {
  if (d.dimensionless()) return "a plain number";
  // The names are declared in napkin (`dimension "bandwidth" = B/s`, std/units).
  const std::string u = units_.format(d);
  if (const auto* named = units_.dimension_name(d)) return fmt::format("{} ({})", u, named->name);
  return u;
}

std::string Interpreter::show(const Value& v) const { return show(v, opts_.digits); }

std::string Interpreter::show(const Value& v, int digits) const {
  switch (v.kind) {
    case Value::Kind::Quantity:
      if (v.samples) {
        const RangeSummary& r = v.samples->summary();
        return format_range({r.p50, v.q.dim}, r.p5, r.p95, v.display, units_, digits);
      }
      return format_quantity(v.q, v.display, units_, digits);
    case Value::Kind::Bool: return v.b ? "true" : "false";
    case Value::Kind::String: return shown_string(v.str());
    case Value::Kind::Record: return v.rec->name.empty() ? "<record>" : v.rec->name;
    case Value::Kind::List: {
      std::string t = "[";
      for (std::size_t i = 0; i < v.items().size(); ++i) t += (i ? ", " : "") + show((v.items())[i], digits);
      return t + "]";
    }
    case Value::Kind::Function: return v.fn->signature.empty() ? "<fn " + v.fn->name + ">" : "fn " + v.fn->signature;
  }
  return "?";
}

}  // namespace napkin
