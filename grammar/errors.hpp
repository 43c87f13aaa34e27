#pragma once
// What each committed rule expected, in words. A rule listed here raises a
// parse error as soon as it fails, so only rules used at commit points
// (after a keyword, an operator or an opening bracket) appear.
#include "rules.hpp"

namespace napkin {

struct parse_errors {
  template <typename Rule>
  static constexpr const char* message = nullptr;
};

#define NAPKIN_EXPECT(rule, text) \
  template <>                     \
  inline constexpr const char* parse_errors::message<rules::rule> = text

NAPKIN_EXPECT(value_expr, "expected an expression");
NAPKIN_EXPECT(string_close, "unterminated string: expected '\"' before the end of the line");
NAPKIN_EXPECT(list_close, "expected ',' or ']' to close the list");
NAPKIN_EXPECT(paren_close, "expected ')' to close the parenthesis");
NAPKIN_EXPECT(call_close, "expected ',' or ')' to close the argument list");
NAPKIN_EXPECT(member_name, "expected a field name after '.'");
NAPKIN_EXPECT(with_body, "expected '{' after 'with', e.g. `decode with { batch = 8 }`");
NAPKIN_EXPECT(thousands_separator, "a number is written without thousands separators");
NAPKIN_EXPECT(unit_after_operand, "a unit follows a number literal, not a name or an expression");
NAPKIN_EXPECT(pow_rhs, "expected an exponent after '^'");
NAPKIN_EXPECT(mul_rhs, "expected an operand after the operator");
NAPKIN_EXPECT(add_rhs, "expected an operand after the operator");
NAPKIN_EXPECT(range_rhs, "expected the high end of the range after 'to', e.g. `35% to 55%`");
NAPKIN_EXPECT(cmp_rhs, "expected an operand after the comparison");
NAPKIN_EXPECT(not_rhs, "expected an operand after 'not'");
NAPKIN_EXPECT(and_rhs, "expected an operand after 'and'");
NAPKIN_EXPECT(or_rhs, "expected an operand after 'or'");
NAPKIN_EXPECT(convert_unit, "expected a unit after '->', e.g. `-> GiB` or `-> ms`");
NAPKIN_EXPECT(if_then, "expected 'then' after the condition of 'if'");
NAPKIN_EXPECT(if_else, "expected 'else': an 'if' expression needs both branches");
NAPKIN_EXPECT(field_rest, "expected '=' (a value) or ':' (a required input) after the field name");
NAPKIN_EXPECT(type_expr, "expected a type after ':': count, bool, string, record, list, any, or a unit such as B/s");
NAPKIN_EXPECT(block_close, "expected a field (NAME = EXPR) or '}' to close the block");
NAPKIN_EXPECT(import_path, "expected a quoted path after 'import', e.g. import \"std/transformer\"");
NAPKIN_EXPECT(let_name, "expected a name after 'let'");
NAPKIN_EXPECT(let_equals, "expected '=' after the name, e.g. `let x = 2`");
NAPKIN_EXPECT(fn_name, "expected a function name after 'fn'");
NAPKIN_EXPECT(param_list, "expected '(' and a parameter list after the function name");
NAPKIN_EXPECT(param_close, "expected ',' or ')' in the parameter list");
NAPKIN_EXPECT(fn_equals, "expected '=' and the function's body after the parameter list");
NAPKIN_EXPECT(unit_name, "expected a unit name after 'unit'");
NAPKIN_EXPECT(unit_prefix, "expected a prefix family after 'prefixes': si (k M G T P E), iec (Ki Mi … Ei) or none");
NAPKIN_EXPECT(dimension_equals, "expected '=' and a unit after the dimension's name, e.g. `dimension \"bandwidth\" = B/s`");
NAPKIN_EXPECT(dimension_unit, "expected a unit after '=', e.g. `dimension \"bandwidth\" = B/s`");
NAPKIN_EXPECT(suggest_word, "expected a word after ',', e.g. `suggest fp16 for float16, half`");
NAPKIN_EXPECT(record_name, "expected a name after the block kind");
NAPKIN_EXPECT(record_rest, "expected '{', 'extends BASE {' or '= EXPR' after the name");
NAPKIN_EXPECT(extends_base, "expected the name of a record after 'extends'");
NAPKIN_EXPECT(check_colon,
              "expected ':' and the condition after the check's name and points, e.g. "
              "`check \"q6\" (2 points): q6.kv ≈ 245_760 B/token within 1%`");
NAPKIN_EXPECT(check_points_value, "expected the points as a number, e.g. `(2 points)`");
NAPKIN_EXPECT(check_points_word, "expected 'points' after the number, e.g. `(2 points)`");
NAPKIN_EXPECT(check_points_close, "expected ')' after the points, e.g. `(2 points)`");
NAPKIN_EXPECT(check_rhs, "expected the expected value after '≈'");
NAPKIN_EXPECT(check_within, "expected 'within' and a tolerance, e.g. `≈ 136 token/s within 1%`");
NAPKIN_EXPECT(check_tolerance, "expected a tolerance after 'within', e.g. `1%` or `0.1 GB`");
NAPKIN_EXPECT(end_of_file,
              "expected a statement: import, let, fn, unit, model, hardware, scenario, record, "
              "check, or NAME = EXPR");
NAPKIN_EXPECT(end_of_expr, "unexpected text after the end of the expression");

NAPKIN_EXPECT(measure_open, "expected '(' after 'measure', e.g. `measure(gpu.copy_bandwidth)`");
NAPKIN_EXPECT(measure_probe, "expected a probe name such as gpu.copy_bandwidth or cpu.triad_bandwidth");
NAPKIN_EXPECT(measure_close, "expected ',' and a named argument (dtype = bf16), or ')'");
NAPKIN_EXPECT(sweep_over, "expected 'over' after the swept record, e.g. `sweep decode over batch in [1, 8]`");
NAPKIN_EXPECT(sweep_var, "expected an input to sweep, e.g. `batch in [1, 8, 32]`");
NAPKIN_EXPECT(sweep_in, "expected 'in' and a list of values after the swept input");
NAPKIN_EXPECT(sweep_values, "expected a list of values in brackets, e.g. [1, 8, 32]");
NAPKIN_EXPECT(sweep_show, "expected 'show' and the fields to tabulate, e.g. `show tokens_per_s, bound`");
NAPKIN_EXPECT(sweep_column, "expected a field name to show");
NAPKIN_EXPECT(solve_input, "expected the input to solve for after 'for', e.g. `solve decode for batch max where fits`");
NAPKIN_EXPECT(solve_where, "expected 'where', 'max where' or 'min where' and a condition, e.g. `max where fits`");
NAPKIN_EXPECT(solve_condition, "expected the condition after 'where'");

#undef NAPKIN_EXPECT

}  // namespace napkin
