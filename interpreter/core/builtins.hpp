#pragma once
#include <string>
namespace napkin {
class Interpreter;
struct CallArgs;
struct Value;
// min, max, abs, sqrt, ceil, floor, round, log2, log10, ln, exp, sum, len.
void register_builtins(Interpreter& in);
// Adds the builtin `name`, taking `min` to `max` arguments (-1: any number).
void add_builtin(Interpreter& in, const char* name, int min, int max, const char* signature,
                 Value (*f)(Interpreter&, const CallArgs&));
// The builtins over ranges: prob, p5, p50, p95, ... (ranges.cpp).
void register_range_builtins(Interpreter& in);
// require(x, condition, domain) (require.cpp).
void register_require(Interpreter& in);
// get(record, name, default) and count(list, x) (lookup.cpp).
void register_lookup(Interpreter& in);
// The note on a field import_json read as null: get() takes it as unset.
const std::string* null_note();
// Whether a field's formula states domains: a require() call or a list of them.
namespace ast { struct Expr; }
bool is_domain_formula(const ast::Expr& e);
}  // namespace napkin
