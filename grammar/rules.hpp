#pragma once
// The napkin grammar as PEGTL rules. Nothing here builds or evaluates
// anything: rules only say what text is well formed. `parser.cpp` gives
// some rules an action that builds the AST when the rule matches
// (`ast_builder.hpp`), and `errors.hpp` says, in words, what each committed
// rule expected. A rule with an action only matches where the parse is
// committed to it, so no action ever has to be taken back: where the
// grammar would try a rule and back out (a call's argument may be named),
// a lookahead, which runs no action, decides first.
#include <tao/pegtl.hpp>

namespace napkin::rules {
using namespace tao::pegtl;

// ---- whitespace and comments -------------------------------------------
struct comment : seq<one<'#'>, until<eolf>> {};
// Whitespace and comments, newlines included: star<sor<plus<space>, comment>>
// written as a loop. It runs between every two tokens, and again at each
// level of the expression grammar after an operand (is a `*` next? a `+`?),
// over the same blank lines and comments, so it was the parser's hottest
// rule. A parse state with `sp_from` and `sp_to` members remembers where
// the last run started and ended, and a repeat is a jump.
struct sp {
  using rule_t = sp;
  using subs_t = empty_list;
  template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
            typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&... st) {
    bool done = false;
    auto recall = [&](auto& s) {
      if constexpr (requires { s.sp_from; s.sp_to = in.iterator(); })
        if (!done && s.sp_from == in.current()) {
          in.iterator() = s.sp_to;
          done = true;
        }
    };
    (recall(st), ...);
    if (done) return true;
    const char* const from = in.current();
    skip(in);
    auto remember = [&](auto& s) {
      if constexpr (requires { s.sp_from; s.sp_to = in.iterator(); }) {
        s.sp_from = from;
        s.sp_to = in.iterator();
      }
    };
    (remember(st), ...);
    return true;
  }

 private:
  template <typename ParseInput>
  static void skip(ParseInput& in) {
    const char* p = in.current();
    const char* const end = in.end();
    while (p != end) {
      const char c = *p;
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f') {
        ++p;
      } else if (c == '#') {  // to the end of the line, its newline included
        while (p != end && *p != '\n') ++p;
        if (p != end) ++p;
      } else {
        break;
      }
    }
    in.bump(static_cast<std::size_t>(p - in.current()));
  }
};
struct blanks : star<blank> {};                      // a unit stays on its line

// ---- keywords and names ------------------------------------------------
struct kw_import : keyword<'i', 'm', 'p', 'o', 'r', 't'> {};
struct kw_let : keyword<'l', 'e', 't'> {};
struct kw_fn : keyword<'f', 'n'> {};
struct kw_unit : keyword<'u', 'n', 'i', 't'> {};
struct kw_model : keyword<'m', 'o', 'd', 'e', 'l'> {};
struct kw_hardware : keyword<'h', 'a', 'r', 'd', 'w', 'a', 'r', 'e'> {};
struct kw_scenario : keyword<'s', 'c', 'e', 'n', 'a', 'r', 'i', 'o'> {};
struct kw_record : keyword<'r', 'e', 'c', 'o', 'r', 'd'> {};
struct kw_extends : keyword<'e', 'x', 't', 'e', 'n', 'd', 's'> {};
struct kw_with : keyword<'w', 'i', 't', 'h'> {};
struct kw_check : keyword<'c', 'h', 'e', 'c', 'k'> {};
struct kw_within : keyword<'w', 'i', 't', 'h', 'i', 'n'> {};
struct kw_if : keyword<'i', 'f'> {};
struct kw_then : keyword<'t', 'h', 'e', 'n'> {};
struct kw_else : keyword<'e', 'l', 's', 'e'> {};
struct kw_and : keyword<'a', 'n', 'd'> {};
struct kw_or : keyword<'o', 'r'> {};
struct kw_not : keyword<'n', 'o', 't'> {};
struct kw_true : keyword<'t', 'r', 'u', 'e'> {};
struct kw_false : keyword<'f', 'a', 'l', 's', 'e'> {};
struct kw_measure : keyword<'m', 'e', 'a', 's', 'u', 'r', 'e'> {};
struct kw_sweep : keyword<'s', 'w', 'e', 'e', 'p'> {};
struct kw_over : keyword<'o', 'v', 'e', 'r'> {};
struct kw_in : keyword<'i', 'n'> {};
struct kw_show : keyword<'s', 'h', 'o', 'w'> {};
struct kw_to : keyword<'t', 'o'> {};

struct keyword_any
    : sor<kw_import, kw_let, kw_fn, kw_unit, kw_model, kw_hardware, kw_scenario, kw_record,
          kw_extends, kw_within, kw_with, kw_check, kw_if, kw_then, kw_else, kw_and, kw_or,
          kw_not, kw_true, kw_false> {};

// Words that can stand inside an expression. Statement words (model, unit,
// check, ...) only mean something at the start of a statement, so fields
// may be called `model` or `unit`.
struct expr_keyword
    : sor<kw_within, kw_with, kw_if, kw_then, kw_else, kw_and, kw_or, kw_not, kw_true, kw_false> {};

struct name : seq<not_at<expr_keyword>, identifier> {};

// ---- units ---------------------------------------------------------------
// A unit is written without spaces: `TB/s`, `B/param`, `FLOP/param/token`, `m^2`.
struct micro_sign : sor<TAO_PEGTL_NAMESPACE::utf8::one<0x00B5>, TAO_PEGTL_NAMESPACE::utf8::one<0x03BC>> {};
struct unit_symbol
    : seq<not_at<expr_keyword>, not_at<kw_to>, sor<one<'$'>, micro_sign, alpha>, star<sor<alnum, one<'_'>>>> {};
struct unit_power : seq<one<'^'>, opt<one<'-'>>, plus<digit>> {};
struct unit_factor : seq<unit_symbol, opt<unit_power>> {};
struct unit_mul : one<'*'> {};
struct unit_div : one<'/'> {};
struct unit_op : sor<unit_mul, unit_div> {};
struct unit_expr : seq<unit_factor, star<unit_op, unit_factor>> {};

// ---- literals --------------------------------------------------------------
struct digits : seq<plus<digit>, star<one<'_'>, plus<digit>>> {};
struct fraction : seq<one<'.'>, plus<digit>> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<digit>> {};
// `2,048`, a number with a thousands separator as napkin prints it, is
// refused where it is written: in a call it would read as two arguments
// (`max(1, 2,048)` is 48), and elsewhere as stray text.
// Only the printed form is refused: a first group of one to three digits
// that does not start with 0, then groups of three (`0,100` and
// `1_000,100` are two values).
struct thousands_group : seq<one<','>, digit, digit, digit, not_at<digit>> {};
struct thousands_number : seq<range<'1', '9'>, rep_max<2, digit>, plus<thousands_group>> {};
struct thousands_separator : failure {};
struct no_thousands : if_must<at<thousands_number>, thousands_separator> {};
struct number_value : seq<opt<no_thousands>, digits, opt<fraction>, opt<exponent>> {};
struct percent : one<'%'> {};
struct number_literal : seq<number_value, opt<sor<percent, seq<blanks, unit_expr>>>> {};
// `$2/hour` is 2 USD/hour.
struct dollar_sign : one<'$'> {};
struct dollar_literal : seq<dollar_sign, number_value, star<unit_op, unit_factor>> {};

struct escaped : seq<one<'\\'>, any> {};
struct string_char : sor<escaped, not_one<'"', '\n'>> {};
struct string_body : star<string_char> {};
struct string_close : one<'"'> {};
struct string_literal : if_must<one<'"'>, string_body, string_close> {};

// ---- expressions ---------------------------------------------------------
struct expr;
struct value_expr;
struct block;

struct list_open : one<'['> {};
struct list_close : one<']'> {};
struct list_literal
    : if_must<list_open, sp, opt<expr, sp, star<one<','>, sp, expr, sp>, opt<one<','>, sp>>, list_close> {};

struct paren_close : one<')'> {};
struct paren_expr : if_must<one<'('>, sp, value_expr, sp, paren_close> {};

// `measure(gpu.copy_bandwidth, dtype = bf16) else 4.8 TB/s`: the argument
// names a probe; it is not evaluated.
struct named_arg;
struct measure_open : one<'('> {};
struct probe_name : seq<name, star<one<'.'>, name>> {};
struct measure_probe : seq<probe_name> {};
struct measure_close : one<')'> {};
struct measure_fallback : seq<kw_else, sp, must<value_expr>> {};
struct measure_expr
    : if_must<kw_measure, sp, measure_open, sp, measure_probe, sp, star<one<','>, sp, named_arg, sp>,
              measure_close, opt<sp, measure_fallback>> {};

// Each alternative is tried only where its first character allows it:
// most operands are names, the last alternative.
struct name_ref : seq<name> {};
struct primary : sor<seq<at<one<'m'>>, measure_expr>, seq<at<digit>, number_literal>,
                     seq<at<one<'$'>>, dollar_literal>, seq<at<one<'"'>>, string_literal>,
                     seq<at<one<'['>>, list_literal>, seq<at<one<'('>>, paren_expr>, seq<at<one<'t'>>, kw_true>,
                     seq<at<one<'f'>>, kw_false>, name_ref> {};

struct arg_name : seq<name> {};
struct named_arg : seq<at<name, sp, one<'='>, not_at<one<'='>>>, arg_name, sp, one<'='>, sp, must<value_expr>> {};
struct positional_arg : seq<expr> {};
struct call_arg : sor<named_arg, positional_arg> {};
struct call_open : one<'('> {};
struct call_close : one<')'> {};
struct call_args
    : if_must<call_open, sp, opt<call_arg, sp, star<one<','>, sp, call_arg, sp>, opt<one<','>, sp>>, call_close> {};
struct member_name : seq<name> {};
struct member : seq<sp, one<'.'>, sp, must<member_name>> {};
struct with_body : seq<block> {};
struct with_block : seq<sp, kw_with, sp, must<with_body>> {};
struct postfix_op : sor<seq<at<one<'('>>, call_args>, seq<at<sp, one<'.'>>, member>, seq<at<sp, kw_with>, with_block>> {};
// `x GB`: a unit written after a name or a bracket, on the same line. Caught
// here so the error names the unit; a word that starts the next field or
// statement (`{ a = x b = 2 }`, `let a = x let b = 2`) is not a unit.
struct unit_after_operand : failure {};
struct next_word : sor<keyword_any, kw_in, kw_over, kw_show, kw_sweep, kw_measure, kw_to> {};
struct starts_binding : seq<sp, sor<seq<one<'='>, not_at<one<'='>>>, one<':'>>> {};
struct stray_unit : if_must<seq<blanks, at<sor<alpha, one<'$'>, micro_sign>>,  // where a unit could start
                                  at<not_at<next_word>, unit_expr, not_at<starts_binding>>>,
                              unit_after_operand> {};
struct postfix_expr : seq<primary, star<postfix_op>, opt<stray_unit>> {};

struct unary_expr;
struct pow_op : one<'^'> {};
struct pow_rhs : seq<unary_expr> {};
struct pow_expr : seq<postfix_expr, opt<sp, pow_op, sp, must<pow_rhs>>> {};
struct neg_op : one<'-'> {};
struct neg_expr : seq<neg_op, sp, unary_expr> {};
struct unary_expr : sor<neg_expr, pow_expr> {};

struct mul_op : sor<one<'*'>, one<'/'>, TAO_PEGTL_NAMESPACE::utf8::one<0x00B7, 0x00D7>> {};
struct mul_rhs : seq<unary_expr> {};
struct mul_expr : seq<unary_expr, star<sp, mul_op, sp, must<mul_rhs>>> {};

struct add_op : sor<one<'+'>, seq<one<'-'>, not_at<one<'>'>>>> {};
struct add_rhs : seq<mul_expr> {};
struct add_expr : seq<mul_expr, star<sp, add_op, sp, must<add_rhs>>> {};

// `35% to 55%`: a range, binding looser than arithmetic (`0.8 * bw to 0.9 * bw`).
// `to` is not reserved: a field called `to` still starts a field.
struct range_op : seq<kw_to, not_at<starts_binding>> {};
struct range_rhs : seq<add_expr> {};
struct range_expr : seq<add_expr, opt<sp, range_op, sp, must<range_rhs>>> {};

struct cmp_op : sor<string<'=', '='>, string<'!', '='>, string<'<', '='>, string<'>', '='>, one<'<'>, one<'>'>> {};
struct cmp_rhs : seq<range_expr> {};
struct cmp_expr : seq<range_expr, opt<sp, cmp_op, sp, must<cmp_rhs>>> {};

struct not_expr;
struct not_rhs : seq<not_expr> {};
struct not_op : seq<kw_not> {};
struct not_form : seq<not_op, sp, must<not_rhs>> {};
struct not_expr : sor<not_form, cmp_expr> {};
struct and_rhs : seq<not_expr> {};
struct and_expr : seq<not_expr, star<sp, kw_and, sp, must<and_rhs>>> {};
struct or_rhs : seq<and_expr> {};
struct or_expr : seq<and_expr, star<sp, kw_or, sp, must<or_rhs>>> {};

struct arrow : string<'-', '>'> {};
struct convert_percent : one<'%'> {};
struct convert_unit : sor<convert_percent, unit_expr> {};
struct convert_expr : seq<or_expr, opt<sp, arrow, sp, must<convert_unit>>> {};

struct if_then : seq<kw_then> {};
struct if_else : seq<kw_else> {};
struct if_expr : if_must<kw_if, sp, value_expr, sp, if_then, sp, value_expr, sp, if_else, sp, value_expr> {};

struct expr : sor<if_expr, convert_expr> {};
// `expr` where one is required: a failure here is an error, not a backtrack.
struct value_expr : seq<expr> {};

// ---- blocks and fields ---------------------------------------------------
struct type_expr : seq<unit_expr> {};
struct field_default : seq<one<'='>, sp, must<value_expr>> {};
struct field_type : seq<one<':'>, sp, must<type_expr>, opt<sp, field_default>> {};
struct field_value : seq<one<'='>, not_at<one<'='>>, sp, must<value_expr>> {};
struct field_rest : sor<field_type, field_value> {};
struct field_name : seq<name> {};
struct field : if_must<field_name, sp, field_rest> {};
struct field_sep : opt<one<',', ';'>, sp> {};
struct block_open : one<'{'> {};
struct block_close : one<'}'> {};
struct block : if_must<block_open, sp, star<field, sp, field_sep>, block_close> {};

// ---- statements ----------------------------------------------------------
struct import_path : seq<string_literal> {};
struct import_stmt : if_must<kw_import, sp, import_path> {};
struct let_name : seq<name> {};
struct let_equals : one<'='> {};
struct let_stmt : if_must<kw_let, sp, let_name, sp, let_equals, sp, value_expr> {};

struct param_default : seq<one<'='>, sp, must<value_expr>> {};
struct param_name : seq<name> {};
struct param : seq<param_name, sp, opt<param_default>> {};
struct param_close : one<')'> {};
struct param_list : seq<one<'('>, sp, opt<param, sp, star<one<','>, sp, param, sp>>, param_close> {};
struct fn_equals : one<'='> {};
struct fn_name : seq<name> {};
struct fn_stmt : if_must<kw_fn, sp, fn_name, sp, param_list, sp, fn_equals, sp, value_expr> {};

struct unit_name : seq<unit_symbol> {};
struct unit_value : seq<one<'='>, sp, must<value_expr>> {};
// `unit B prefixes si, iec`, `unit s prefixes none`: which prefix families
// the unit takes, on the unit's own line, before its value. Without it a
// base unit takes si and a derived unit none.
struct kw_prefixes : keyword<'p', 'r', 'e', 'f', 'i', 'x', 'e', 's'> {};
struct unit_prefix : sor<keyword<'s', 'i'>, keyword<'i', 'e', 'c'>, keyword<'n', 'o', 'n', 'e'>> {};
struct unit_prefixes : seq<kw_prefixes, blanks, must<unit_prefix>, star<blanks, one<','>, sp, must<unit_prefix>>> {};
struct unit_stmt : if_must<kw_unit, sp, unit_name, opt<blanks, unit_prefixes>, opt<sp, unit_value>> {};

struct record_kind : sor<kw_model, kw_hardware, kw_scenario, kw_record> {};
struct record_name : seq<name> {};
struct record_base : seq<name, star<one<'.'>, name>> {};
struct extends_base : seq<record_base> {};
struct record_extends : seq<kw_extends, sp, must<extends_base>> {};
struct record_alias : seq<one<'='>, sp, must<value_expr>> {};
struct record_body : seq<opt<record_extends, sp>, block> {};
struct record_rest : sor<record_alias, record_body> {};
struct record_stmt : if_must<record_kind, sp, record_name, sp, record_rest> {};

struct approx_op : sor<TAO_PEGTL_NAMESPACE::utf8::one<0x2248>, string<'~', '='>> {};
struct check_rhs : seq<add_expr> {};
struct check_tolerance : seq<value_expr> {};
struct check_within : seq<kw_within> {};
struct check_approx : if_must<approx_op, sp, check_rhs, sp, check_within, sp, check_tolerance> {};
// `check "q6 KV bytes per token" (2 points): CONDITION`: a name and points a
// grader reads, both optional, ended by ':'. A string or `(N point[s])`
// right after `check` starts the label; `check "a" == "b"` is a condition.
struct kw_points : sor<keyword<'p', 'o', 'i', 'n', 't', 's'>, keyword<'p', 'o', 'i', 'n', 't'>> {};
struct check_name : seq<string_literal> {};
struct check_points_value : seq<number_value> {};
struct check_points_word : seq<kw_points> {};
struct check_points_close : one<')'> {};
struct check_points : if_must<one<'('>, sp, check_points_value, sp, check_points_word, sp, check_points_close> {};
struct check_colon : one<':'> {};
struct points_ahead : seq<one<'('>, sp, number_value, sp, kw_points> {};
struct label_ahead
    : sor<seq<string_literal, sp, sor<one<':'>, one<'('>, seq<not_at<expr_keyword>, identifier>>>, points_ahead> {};
struct check_label
    : seq<at<label_ahead>, opt<check_name, sp>, opt<at<one<'('>>, check_points, sp>, must<check_colon>> {};
struct check_stmt : if_must<kw_check, sp, opt<check_label, sp>, value_expr, opt<sp, check_approx>> {};

struct assign_name : seq<name> {};
struct assign_stmt : seq<assign_name, sp, one<'='>, not_at<one<'='>>, sp, must<value_expr>> {};

// `sweep decode over batch in [1, 8, 32], context in [2048 token] show tokens_per_s, bound`
struct sweep_var_name : seq<name> {};
struct sweep_in : seq<kw_in> {};
struct sweep_values : seq<list_literal> {};
struct sweep_var : seq<sweep_var_name, sp, must<sweep_in>, sp, must<sweep_values>> {};
struct sweep_over : seq<kw_over> {};
struct sweep_vars : seq<sweep_var, star<sp, one<','>, sp, must<sweep_var>>> {};
struct sweep_show : seq<kw_show> {};
struct sweep_column : seq<name> {};
struct sweep_columns : seq<sweep_column, star<sp, one<','>, sp, must<sweep_column>>> {};
struct sweep_stmt : if_must<kw_sweep, sp, value_expr, sp, sweep_over, sp, sweep_vars, sp, sweep_show, sp, sweep_columns> {};

// `solve decode for batch max where fits`, `solve decode for batch in [1, 512]
// where tokens_per_s == 2000 token/s`: an input found from a condition. The
// words after `solve` only mean something here, so `solve = 3` is still a
// top-level value; the statement commits once `solve NAME for` is read.
struct kw_solve : keyword<'s', 'o', 'l', 'v', 'e'> {};
struct kw_for : keyword<'f', 'o', 'r'> {};
struct kw_where : keyword<'w', 'h', 'e', 'r', 'e'> {};
struct solve_record : seq<name, star<one<'.'>, name>> {};
struct solve_head : seq<kw_solve, sp, solve_record, sp, kw_for, sp> {};
struct solve_input : seq<name> {};
struct solve_bracket : seq<kw_in, sp, must<sweep_values>> {};
struct solve_goal : sor<keyword<'m', 'a', 'x'>, keyword<'m', 'i', 'n'>> {};
struct solve_where : seq<kw_where> {};
struct solve_condition : seq<value_expr> {};
struct solve_stmt
    : if_must<solve_head, solve_input, sp, opt<solve_bracket, sp>, opt<solve_goal, sp>, solve_where, sp, solve_condition> {};

// `dimension "bandwidth" = B/s`: the name a message gives a dimension. The
// statement commits once `dimension "` is read, so `dimension = 3` is still
// a top-level value.
struct kw_dimension : keyword<'d', 'i', 'm', 'e', 'n', 's', 'i', 'o', 'n'> {};
struct dimension_name : seq<string_literal> {};
struct dimension_equals : one<'='> {};
struct dimension_unit : seq<unit_expr> {};
struct dimension_stmt
    : if_must<seq<kw_dimension, sp, at<one<'"'>>>, dimension_name, sp, dimension_equals, sp, dimension_unit> {};

// `suggest fp16 for float16, half`: words that are no name here, and the
// name an unknown-name message suggests for them. Commits once
// `suggest NAME for` is read.
struct kw_suggest : keyword<'s', 'u', 'g', 'g', 'e', 's', 't'> {};
struct suggest_name : seq<name> {};
struct suggest_word : seq<name> {};
struct suggest_ahead : seq<kw_suggest, sp, name, sp, kw_for> {};
struct suggest_stmt : if_must<at<suggest_ahead>, kw_suggest, sp, suggest_name, sp, kw_for, sp, suggest_word,
                              star<sp, one<','>, sp, must<suggest_word>>> {};

struct statement
    : sor<import_stmt, let_stmt, fn_stmt, unit_stmt, record_stmt, check_stmt, sweep_stmt, solve_stmt, dimension_stmt,
          suggest_stmt, assign_stmt> {};
struct end_of_file : eof {};
struct file : seq<opt<utf8::bom>, sp, star<statement, sp>, must<end_of_file>> {};

// A single expression, for `napkin eval`.
struct end_of_expr : eof {};
struct expression_only : seq<sp, must<value_expr>, sp, must<end_of_expr>> {};

}  // namespace napkin::rules
