#include "parser.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <tao/pegtl.hpp>

#include "ast_builder.hpp"
#include "diagnostic.hpp"
#include "errors.hpp"
#include "nesting.hpp"
#include "rules.hpp"
#include "utf8.hpp"

namespace napkin {
namespace {

using namespace rules;

template <typename Rule>
using control = tao::pegtl::must_if<parse_errors, tao::pegtl::normal, false>::control<Rule>;

// Nesting the bracket count cannot see (`- - - x`, `2^2^2^...`, `not not ...`)
// still recurses; past this many nested rules the parse stops. A level of
// parentheses costs 15 rules, so 256 of them fit; a rule costs up to 1 KB of
// stack in a sanitizer build.
constexpr std::size_t kMaxRuleDepth = 5000;
struct too_deep {
  std::size_t byte;
};

// Every rule goes through the depth count; the rules below also build.
template <typename Rule>
struct action : tao::pegtl::maybe_nothing {
  template <typename R, tao::pegtl::apply_mode A, tao::pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename Input, typename... States>
  static bool match(Input& in, States&&... st) {
    if constexpr (!Control<R>::enable) {
      return tao::pegtl::match<R, A, M, Action, Control>(in, st...);
    } else {
      struct Guard {
        std::size_t& d;
        ~Guard() { --d; }
      } guard{++in.private_depth};
      if (in.private_depth > kMaxRuleDepth) throw too_deep{in.byte()};
      return tao::pegtl::match<R, A, M, Action, Control>(in, st...);
    }
  }
};

// A rule whose action calls one builder method with the text it matched.
#define NAPKIN_BUILD(rule, call)                                      \
  template <>                                                         \
  struct action<rules::rule> : action<void> {                         \
    template <typename In>                                            \
    static void apply(const In& in, AstBuilder& b) {                  \
      [[maybe_unused]] const char* const begin = in.begin();          \
      [[maybe_unused]] const char* const end = in.end();              \
      b.call;                                                         \
    }                                                                 \
  }

// Names and words a statement or an operator takes later.
NAPKIN_BUILD(let_name, piece(begin, end));
NAPKIN_BUILD(assign_name, piece(begin, end));
NAPKIN_BUILD(fn_name, piece(begin, end));
NAPKIN_BUILD(unit_name, piece(begin, end));
NAPKIN_BUILD(record_kind, piece(begin, end));
NAPKIN_BUILD(record_name, piece(begin, end));
NAPKIN_BUILD(arg_name, piece(begin, end));
NAPKIN_BUILD(measure_probe, piece(begin, end));
NAPKIN_BUILD(sweep_var_name, piece(begin, end));
NAPKIN_BUILD(sweep_column, piece(begin, end));
NAPKIN_BUILD(solve_record, piece(begin, end));
NAPKIN_BUILD(solve_input, piece(begin, end));
NAPKIN_BUILD(solve_goal, piece(begin, end));
NAPKIN_BUILD(number_value, piece(begin, end));
NAPKIN_BUILD(mul_op, piece(begin, end));
NAPKIN_BUILD(add_op, piece(begin, end));
NAPKIN_BUILD(cmp_op, piece(begin, end));

// Operands. kw_true and kw_false also appear in the keyword lists, but
// only inside lookaheads, which run no action.
NAPKIN_BUILD(name_ref, name_ref(begin, end));
NAPKIN_BUILD(kw_true, boolean(begin, end, true));
NAPKIN_BUILD(kw_false, boolean(begin, end, false));
NAPKIN_BUILD(number_literal, number_literal(begin, end));
NAPKIN_BUILD(dollar_literal, dollar_literal(begin, end));
NAPKIN_BUILD(string_literal, string_literal(begin, end));
NAPKIN_BUILD(list_open, open_list());
NAPKIN_BUILD(list_literal, list(begin, end));
NAPKIN_BUILD(paren_expr, paren(begin, end));
NAPKIN_BUILD(unit_factor, unit_factor(begin, end));
NAPKIN_BUILD(unit_expr, unit_expr(begin, end));

// Operators.
NAPKIN_BUILD(mul_rhs, binary_from_piece());
NAPKIN_BUILD(add_rhs, binary_from_piece());
NAPKIN_BUILD(cmp_rhs, binary_from_piece());
NAPKIN_BUILD(pow_rhs, binary(ast::BinOp::Pow));
NAPKIN_BUILD(range_rhs, binary(ast::BinOp::To));
NAPKIN_BUILD(and_rhs, binary(ast::BinOp::And));
NAPKIN_BUILD(or_rhs, binary(ast::BinOp::Or));
NAPKIN_BUILD(neg_expr, negate(begin, end));
NAPKIN_BUILD(not_form, logical_not(begin, end));
NAPKIN_BUILD(if_expr, if_expr(begin, end));
NAPKIN_BUILD(convert_unit, convert(end, end - begin == 1 && *begin == '%'));

// Postfix operators and measure.
NAPKIN_BUILD(call_open, open_call());
NAPKIN_BUILD(named_arg, named_arg());
NAPKIN_BUILD(positional_arg, positional_arg());
NAPKIN_BUILD(call_args, call(end));
NAPKIN_BUILD(member_name, member(begin, end));
NAPKIN_BUILD(with_body, with(end));
NAPKIN_BUILD(measure_open, open_measure());
NAPKIN_BUILD(measure_expr, measure(begin, end));

// Blocks.
NAPKIN_BUILD(block_open, open_block());
NAPKIN_BUILD(field_name, field_name(begin, end));
NAPKIN_BUILD(type_expr, field_type(begin, end));
NAPKIN_BUILD(field_default, field_value());
NAPKIN_BUILD(field_value, field_value());
NAPKIN_BUILD(field, field(begin, end));
NAPKIN_BUILD(block, block());

// Statements.
NAPKIN_BUILD(import_stmt, import_stmt(begin, end));
NAPKIN_BUILD(let_stmt, let_stmt(begin, end, true));
NAPKIN_BUILD(assign_stmt, let_stmt(begin, end, false));
NAPKIN_BUILD(param_name, param_name(begin, end));
NAPKIN_BUILD(param_default, param_default());
NAPKIN_BUILD(param, param(begin, end));
NAPKIN_BUILD(fn_stmt, fn_stmt(begin, end));
NAPKIN_BUILD(unit_prefix, word(begin, end));
NAPKIN_BUILD(unit_stmt, unit_stmt(begin, end));
NAPKIN_BUILD(dimension_stmt, dimension_stmt(begin, end));
NAPKIN_BUILD(suggest_name, piece(begin, end));
NAPKIN_BUILD(suggest_word, word(begin, end));
NAPKIN_BUILD(suggest_stmt, suggest_stmt(begin, end));
NAPKIN_BUILD(extends_base, extends_base(begin, end));
NAPKIN_BUILD(record_stmt, record_stmt(begin, end));
NAPKIN_BUILD(check_name, check_name());
NAPKIN_BUILD(check_points, check_points());
NAPKIN_BUILD(check_stmt, check_stmt(begin, end));
NAPKIN_BUILD(sweep_var, sweep_var());
NAPKIN_BUILD(sweep_stmt, sweep_stmt(begin, end));
NAPKIN_BUILD(solve_stmt, solve_stmt(begin, end));

#undef NAPKIN_BUILD

// `x GB`, with the unit at `at`: says what to write instead, the operand
// before the unit times one of the unit.
[[noreturn]] void stray_unit(const SourceFile& file, std::size_t at, const std::string& message) {
  const std::string& t = file.text;
  std::size_t e = at;  // the unit runs to the next space or bracket
  while (e < t.size() && !std::isspace(static_cast<unsigned char>(t[e])) &&
         std::string_view(",;)]}#").find(t[e]) == std::string_view::npos)
    ++e;
  const Span unit{&file, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(e)};

  std::size_t end = unit.begin;
  while (end > 0 && (t[end - 1] == ' ' || t[end - 1] == '\t')) --end;
  std::size_t b = end;
  while (b > 0) {
    const char c = t[b - 1];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      --b;
    } else if (c == ')' || c == ']') {
      int depth = 0;  // back to the matching bracket
      do {
        const char k = t[--b];
        depth += (k == ')' || k == ']') - (k == '(' || k == '[');
      } while (b > 0 && depth > 0 && t[b - 1] != '\n');
      if (depth != 0) break;
    } else {
      break;
    }
  }
  const std::string_view operand = std::string_view(t).substr(b, end - b);
  const std::string_view u = unit.text();
  // `2 GB s`: the operand is itself a number with a unit.
  std::size_t before = b;
  while (before > 0 && (t[before - 1] == ' ' || t[before - 1] == '\t')) --before;
  if (before > 0 && std::isdigit(static_cast<unsigned char>(t[before - 1])))
    fail(codes::misplaced_unit, unit, "a unit is written without spaces",
         fmt::format("write `{}*{}` or `{}/{}`", operand, u, operand, u));
  const std::string shown = operand.empty() || operand.size() > 60 ? "x" : std::string(operand);
  fail(codes::misplaced_unit, unit, message, fmt::format("multiply by one of the unit: `{} * 1 {}`", shown, u));
}

void check_encoding(const SourceFile& f) {
  if (f.text.size() > kMaxSourceBytes)
    fail(codes::size_limit, Span{&f, 0, 0},
         fmt::format("the file is {} bytes; napkin reads files up to {} bytes", f.text.size(), kMaxSourceBytes));
  const auto* p = reinterpret_cast<const unsigned char*>(f.text.data());
  const std::size_t n = f.text.size();
  constexpr std::uint64_t kHigh = 0x8080808080808080u;
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  for (std::size_t i = 0; i < n;) {
    if (n - i >= 8) {  // eight ASCII bytes and no NUL, the common case, at once
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (((w | ((w - kOnes) & ~w)) & kHigh) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = p[i];
    const std::size_t len = utf8_sequence(p + i, n - i);
    if (len == 0) {
      fail(codes::bad_encoding, Span{&f, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)},
           fmt::format("this byte (0x{:02X}) is not valid UTF-8", c), "save the file as UTF-8");
    }
    if (c == 0)
      fail(codes::bad_encoding, Span{&f, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)},
           "a NUL byte in the source", "remove it; napkin files are text");
    i += len;
  }
}

// The character at `b`, whole (a UTF-8 sequence), or an empty span at the end.
Span char_at(const SourceFile& file, std::size_t b) {
  std::size_t end = b;
  if (end < file.text.size()) {
    ++end;
    while (end < file.text.size() && (static_cast<unsigned char>(file.text[end]) & 0xC0) == 0x80) ++end;
  }
  return Span{&file, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(end)};
}

// `2,048` starting at byte b: the number as written, and the ways to
// write what was meant.
[[noreturn]] void thousands(const SourceFile& file, std::size_t b) {
  const std::string& t = file.text;
  auto digit_at = [&](std::size_t i) { return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); };
  std::size_t end = b;
  while (digit_at(end)) ++end;
  std::size_t groups = 0;
  while (end < t.size() && t[end] == ',' && digit_at(end + 1) && digit_at(end + 2) && digit_at(end + 3) && !digit_at(end + 4)) {
    end += 4;
    ++groups;
  }
  const std::string written = t.substr(b, end - b);
  std::size_t tail = end;  // a fraction or an exponent belongs to the number meant
  if (tail < t.size() && t[tail] == '.' && digit_at(tail + 1))
    for (++tail; digit_at(tail);) ++tail;
  if (tail < t.size() && (t[tail] == 'e' || t[tail] == 'E')) {
    std::size_t k = tail + 1;
    if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
    if (digit_at(k)) {
      while (digit_at(k)) ++k;
      tail = k;
    }
  }
  const std::string rest = t.substr(end, tail - end);
  std::string plain, grouped, apart;
  for (char c : written) {
    if (c != ',') plain += c;
    grouped += c == ',' ? '_' : c;
    apart += c == ',' ? std::string(", ") : std::string(1, c);
  }
  fail(codes::syntax, Span{&file, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(end)},
       fmt::format("`{}` is written with a thousands separator, which napkin does not read", written),
       fmt::format("write `{}{}` or `{}{}`; for {} values, put a space after {}: `{}{}`", plain, rest, grouped, rest,
                   groups == 1 ? "two" : "separate", groups == 1 ? "the comma" : "each comma", apart, rest));
}

template <typename Rule>
void parse_into(const SourceFile& file, AstBuilder& builder) {
  check_encoding(file);
  check_nesting(file);
  tao::pegtl::memory_input<tao::pegtl::tracking_mode::lazy, tao::pegtl::eol::lf_crlf, const char*> in(
      file.text, file.name.c_str());
  try {
    if (!tao::pegtl::parse<Rule, action, control>(in, builder))
      fail(codes::syntax, Span{&file, 0, 0}, "could not parse the input");
  } catch (const too_deep& e) {
    fail(codes::nesting_limit, char_at(file, e.byte), "expression nested too deeply",
         "name the inner parts: `let inner = ...`, then use `inner`");
  } catch (const tao::pegtl::parse_error& e) {
    std::size_t b = e.positions().front().byte;
    // At the end of the file, the caret goes right after the last thing written.
    if (b >= file.text.size())
      while (b > 0 && std::isspace(static_cast<unsigned char>(file.text[b - 1]))) --b;
    const std::string message(e.message());
    if (message == parse_errors::message<unit_after_operand>) stray_unit(file, b, message);
    if (message == parse_errors::message<thousands_separator>) thousands(file, b);
    // `**` is a power in Python, which a course's students write first.
    if (message == parse_errors::message<mul_rhs> && b > 0 && b < file.text.size() && file.text[b] == '*' &&
        file.text[b - 1] == '*')
      fail(codes::syntax, Span{&file, static_cast<std::uint32_t>(b - 1), static_cast<std::uint32_t>(b + 1)},
           "`**` is not an operator in napkin", "a power is written `^`: `2^10`, `d_model^2`");
    fail(codes::syntax, char_at(file, b), message);
  }
}

}  // namespace

ast::Module parse_module(const SourceFile& file) {
  AstBuilder b(file);
  parse_into<rules::file>(file, b);
  return b.take_module();
}

ast::ExprPtr parse_expression(const SourceFile& file) {
  AstBuilder b(file);
  parse_into<rules::expression_only>(file, b);
  return b.take_expression();
}

}  // namespace napkin
