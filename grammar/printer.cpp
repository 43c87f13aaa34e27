#include "printer.hpp"

#include <fmt/format.h>

namespace napkin {
namespace ast {

const char* op_text(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Pow: return "^";
    case BinOp::Eq: return "==";
    case BinOp::Ne: return "!=";
    case BinOp::Lt: return "<";
    case BinOp::Le: return "<=";
    case BinOp::Gt: return ">";
    case BinOp::Ge: return ">=";
    case BinOp::And: return "and";
    case BinOp::Or: return "or";
    case BinOp::To: return "to";
  }
  return "?";
}

int precedence(BinOp op) {
  switch (op) {
    case BinOp::Or: return 2;
    case BinOp::And: return 3;
    case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge: return 5;
    case BinOp::To: return 6;
    case BinOp::Add: case BinOp::Sub: return 7;
    case BinOp::Mul: case BinOp::Div: return 8;
    case BinOp::Pow: return 10;
  }
  return 0;
}

}  // namespace ast

namespace {

using ast::Expr;
using ast::ExprKind;

constexpr int kNot = 4;
constexpr int kNeg = 9;
constexpr int kPostfix = 11;
constexpr int kAtom = 12;

struct Printed {
  std::string text;
  int prec;
  bool compound = false;  // a value with a unit like TB/s, or a negative number
};

class Printer {
 public:
  explicit Printer(const PrintOptions& o) : o_(o) {}

  Printed print(const Expr& e) {
    if (o_.substitute)
      if (auto s = o_.substitute(e, in_args_ > 0)) {
        // `5.3 TB/s`, `-3` or a substituted branch `a · b` needs parentheses
        // as a divisor; `7.362 ms` does not.
        const bool compound = !enclosed(*s) && (s->find_first_of("/*^+") != std::string::npos ||
                                                s->find("·") != std::string::npos || s->find(" - ") != std::string::npos ||
                                                (!s->empty() && (*s)[0] == '-') ||
                                                s->find(" (90%: ") != std::string::npos);  // a range
        return {*s, kAtom, compound};
      }
    switch (e.kind) {
      case ExprKind::Number: {
        std::string t = e.text;
        if (e.percent) t += "%";
        if (e.unit && t[0] != '$') t += " " + e.unit->text;
        if (e.unit && t[0] == '$') t += e.unit->text.substr(1);
        return {t, kAtom, e.unit.has_value() && e.unit->text.find('/') != std::string::npos};
      }
      case ExprKind::String: return {quote_string(e.text), kAtom};
      case ExprKind::Bool: return {e.boolean ? "true" : "false", kAtom};
      case ExprKind::Name: return {e.text, kAtom};
      case ExprKind::List: {
        std::string t = "[";
        for (std::size_t i = 0; i < e.items.size(); ++i) t += (i ? ", " : "") + print(*e.items[i]).text;
        return {t + "]", kAtom};
      }
      case ExprKind::Member: return {receiver(*e.items[0]) + "." + e.text, kPostfix};
      case ExprKind::Call: {
        std::string t = receiver(*e.items[0]) + "(";
        ++in_args_;
        for (std::size_t i = 1; i < e.items.size(); ++i) {
          if (i > 1) t += ", ";
          if (!e.arg_names[i - 1].empty()) t += e.arg_names[i - 1] + " = ";
          t += print(*e.items[i]).text;
        }
        --in_args_;
        return {t + ")", kPostfix};
      }
      case ExprKind::With:
        return {wrap(*e.items[0], kPostfix) + " with " + print_fields_inline(e.fields, o_), kPostfix};
      case ExprKind::Negate: {
        Printed in = print(*e.items[0]);
        const bool paren = in.prec < kNeg || in.compound;
        return {"-" + (paren ? "(" + in.text + ")" : in.text), kNeg};
      }
      case ExprKind::Not: return {"not " + wrap(*e.items[0], kNot), kNot};
      case ExprKind::If:
        return {fmt::format("if {} then {} else {}", print(*e.items[0]).text, print(*e.items[1]).text,
                            print(*e.items[2]).text),
                0};
      case ExprKind::Convert: return {wrap(*e.items[0], 1) + " -> " + e.unit->text, 0};
      case ExprKind::Binary: return binary(e);
      case ExprKind::Measure: {
        std::string t = "measure(" + e.text;
        for (std::size_t i = 0; i < e.items.size(); ++i) t += ", " + e.arg_names[i] + " = " + print(*e.items[i]).text;
        t += ")";
        if (e.fallback) return {t + " else " + print(*e.fallback).text, 0};
        return {t, kAtom};
      }
    }
    return {"?", kAtom};
  }

 private:
  const PrintOptions& o_;
  int in_args_ = 0;


  // "(a + b)": one pair of parentheses around the whole text.
  static bool enclosed(const std::string& s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < s.size()) return false;
    }
    return true;
  }

  std::string wrap(const Expr& e, int min_prec) {
    Printed p = print(e);
    return p.prec < min_prec ? "(" + p.text + ")" : p.text;
  }

  // `(drill with { dtype = int8 }).params`: without the parentheses the
  // member reads as part of the block.
  std::string receiver(const Expr& e) {
    if (e.kind == ExprKind::With) return "(" + print(e).text + ")";
    return wrap(e, kPostfix);
  }

  Printed binary(const Expr& e) {
    const int prec = ast::precedence(e.op);
    Printed l = print(*e.items[0]);
    Printed r = print(*e.items[1]);
    const bool comparison = prec == 5 || e.op == ast::BinOp::To;  // neither chains
    const bool right_assoc = e.op == ast::BinOp::Pow;
    // Left operand: parenthesise lower precedence; for `^`, equal too.
    bool lp = l.prec < prec || (right_assoc && l.prec == prec) || (comparison && l.prec == prec);
    // Right operand: parenthesise lower precedence; for left-associative
    // operators, equal too (a - (b - c)).
    bool rp = r.prec < prec || (!right_assoc && r.prec == prec);
    // A product needs none around a product: `a · (b · c)` reads `a · b · c`.
    if (o_.pretty && e.op == ast::BinOp::Mul && e.items[1]->kind == ExprKind::Binary &&
        e.items[1]->op == ast::BinOp::Mul && r.prec == prec && !r.compound)
      rp = false;
    // A value like `5.3 TB/s` or `-3` as a divisor or a power's base reads
    // ambiguously without parentheses.
    if (r.compound && (e.op == ast::BinOp::Div || e.op == ast::BinOp::Sub || e.op == ast::BinOp::Pow ||
                       (r.text[0] == '-')))
      rp = true;
    if (l.compound && e.op == ast::BinOp::Pow) lp = true;
    // A derivation is read, not parsed: `a / b · c` is written `(a / b) · c`.
    if (o_.pretty && e.op == ast::BinOp::Mul && e.items[0]->kind == ExprKind::Binary &&
        e.items[0]->op == ast::BinOp::Div)
      lp = true;
    // `(2 m)^2`: written bare, the power would join the unit (`2 m^2`);
    // `2^(1 s)` reads as a power of 2 only with them.
    if (e.op == ast::BinOp::Pow && e.items[0]->kind == ExprKind::Number && e.items[0]->unit) lp = true;
    if (e.op == ast::BinOp::Pow && e.items[1]->kind == ExprKind::Number && e.items[1]->unit) rp = true;
    // A negation as the base of a power: (-2)^2.
    if (e.op == ast::BinOp::Pow && e.items[0]->kind == ExprKind::Negate) lp = true;
    const char* op = ast::op_text(e.op);
    if (o_.pretty && e.op == ast::BinOp::Mul) op = "·";
    std::string text = (lp ? "(" + l.text + ")" : l.text);
    text += e.op == ast::BinOp::Pow ? std::string(op) : fmt::format(" {} ", op);
    text += (rp ? "(" + r.text + ")" : r.text);
    return {text, prec};
  }
};

}  // namespace

std::string quote_string(const std::string& s) {
  std::string t = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') t += '\\';
    if (c == '\n') {
      t += "\\n";
      continue;
    }
    if (c == '\t') {
      t += "\\t";
      continue;
    }
    t += c;
  }
  return t + "\"";
}

std::string print_expr(const ast::Expr& e, const PrintOptions& opts) {
  Printer p(opts);
  return p.print(e).text;
}

std::string print_fields_inline(const std::vector<ast::FieldDecl>& fields, const PrintOptions& opts) {
  std::string t = "{ ";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) t += ", ";
    t += fields[i].name;
    if (fields[i].type.kind != ast::TypeKind::None) t += ": " + fields[i].type.text;
    if (fields[i].value) t += " = " + print_expr(*fields[i].value, opts);
  }
  return t + " }";
}

}  // namespace napkin
