#include "tokens.hpp"

#include <cctype>

#include "printer.hpp"

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
    case BinOp::Or: return binding::kOr;
    case BinOp::And: return binding::kAnd;
    case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge:
      return binding::kCompare;
    case BinOp::To: return binding::kRange;
    case BinOp::Add: case BinOp::Sub: return binding::kSum;
    case BinOp::Mul: case BinOp::Div: return binding::kProduct;
    case BinOp::Pow: return binding::kPower;
  }
  return binding::kLoose;
}

}  // namespace ast

namespace {

using ast::BinOp;
using ast::Expr;
using ast::ExprKind;
using K = Token::Kind;
using namespace binding;

Token tok(K kind, std::string text, bool space = false, int breaks = -1) {
  Token t;
  t.kind = kind;
  t.text = std::move(text);
  t.space = space;
  t.breaks = breaks;
  return t;
}

// An operand of a larger expression: its tokens and how it binds there.
struct Operand {
  Tokens t;
  int bind = kAtom;
  bool compound = false;  // reads ambiguously as a divisor (a value like `5.3 TB/s`, a negative number)
};

void append(Tokens& out, Tokens&& in, bool space) {
  if (in.empty()) return;
  in.front().space = space;
  if (out.empty()) {
    out = std::move(in);
    return;
  }
  out.insert(out.end(), std::make_move_iterator(in.begin()), std::make_move_iterator(in.end()));
}

char first_char(const Tokens& t) {
  if (t.empty()) return '\0';
  if (t.front().kind == K::String) return '"';
  return t.front().text.empty() ? '\0' : t.front().text[0];
}

class Builder {
 public:
  explicit Builder(const TokenOptions& o) : o_(o) {}

  Operand build(const Expr& e) {
    if (o_.substitute)
      if (auto s = o_.substitute(e)) {
        const bool c = compound(s->tokens);
        return {std::move(s->tokens), s->binding, c};
      }
    return node(e);
  }

  Tokens fields(const std::vector<ast::FieldDecl>& fields) {
    Tokens t{tok(K::Open, "{")};
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) t.push_back(tok(K::Punct, ","));
      t.push_back(tok(K::Name, fields[i].name, true));
      if (fields[i].type.kind != ast::TypeKind::None) {
        t.push_back(tok(K::Punct, ":"));
        t.push_back(tok(K::Name, fields[i].type.text, true));
      }
      if (fields[i].value) {
        t.push_back(tok(K::Punct, "=", true));
        append(t, build(*fields[i].value).t, true);
      }
    }
    t.push_back(tok(K::Close, "}", true));
    return t;
  }

 private:
  const TokenOptions& o_;

  Tokens wrap(const Expr& e, int min_bind) {
    Operand p = build(e);
    return p.bind < min_bind ? grouped(std::move(p.t)) : std::move(p.t);
  }

  // `(drill with { dtype = int8 }).params`: without the parentheses the
  // member reads as part of the block.
  Tokens receiver(const Expr& e) {
    if (e.kind == ExprKind::With) return grouped(build(e).t);
    return wrap(e, kPostfix);
  }

  Operand node(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: {
        Tokens t;
        append_number(t, e.text + (e.percent ? "%" : ""), e.unit ? e.unit->text : "", false);
        return {std::move(t), kAtom, e.unit.has_value() && e.unit->text.find('/') != std::string::npos};
      }
      case ExprKind::String: return {{tok(K::String, e.text)}};
      case ExprKind::Bool: return {{tok(K::Name, e.boolean ? "true" : "false")}};
      case ExprKind::Name: return {{tok(K::Name, e.text)}};
      case ExprKind::List: {
        Tokens t{tok(K::Open, "[")};
        for (std::size_t i = 0; i < e.items.size(); ++i) {
          if (i) t.push_back(tok(K::Punct, ","));
          append(t, build(*e.items[i]).t, i > 0);
        }
        t.push_back(tok(K::Close, "]"));
        return {std::move(t)};
      }
      case ExprKind::Member: {
        Tokens r = receiver(*e.items[0]);
        if (r.size() == 1 && r[0].kind == K::Name) {  // `model.kv_heads` reads as one name
          r[0].text += "." + e.text;
          return {std::move(r), kPostfix};
        }
        r.push_back(tok(K::Punct, "."));
        r.push_back(tok(K::Name, e.text));
        return {std::move(r), kPostfix};
      }
      case ExprKind::Call: {
        Tokens t = receiver(*e.items[0]);
        t.push_back(tok(K::Open, "("));
        for (std::size_t i = 1; i < e.items.size(); ++i) {
          if (i > 1) t.push_back(tok(K::Punct, ","));
          bool space = i > 1;
          if (!e.arg_names[i - 1].empty()) {
            t.push_back(tok(K::Name, e.arg_names[i - 1], space));
            t.push_back(tok(K::Punct, "=", true));
            space = true;
          }
          append(t, build(*e.items[i]).t, space);
        }
        t.push_back(tok(K::Close, ")"));
        return {std::move(t), kPostfix};
      }
      case ExprKind::With: {
        Tokens t = e.items[0]->kind == ExprKind::With ? grouped(build(*e.items[0]).t) : wrap(*e.items[0], kPostfix);
        t.push_back(tok(K::Keyword, "with", true));
        append(t, fields(e.fields), true);
        return {std::move(t), kPostfix};
      }
      case ExprKind::Negate: {
        Operand in = build(*e.items[0]);
        const bool paren = in.bind < kNegate || in.compound;
        Tokens t{tok(K::Operator, "-")};
        append(t, paren ? grouped(std::move(in.t)) : std::move(in.t), false);
        return {std::move(t), kNegate};
      }
      case ExprKind::Not: {
        Tokens t{tok(K::Keyword, "not")};
        append(t, wrap(*e.items[0], kNot), true);
        return {std::move(t), kNot};
      }
      case ExprKind::If: {
        Tokens t{tok(K::Keyword, "if")};
        append(t, build(*e.items[0]).t, true);
        t.push_back(tok(K::Keyword, "then", true));
        append(t, build(*e.items[1]).t, true);
        t.push_back(tok(K::Keyword, "else", true));
        append(t, build(*e.items[2]).t, true);
        return {std::move(t), kLoose};
      }
      case ExprKind::Convert: {
        Operand in = build(*e.items[0]);
        return {conversion_tokens(std::move(in.t), in.bind, e.unit->text), kLoose};
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::Measure: {
        Tokens t{tok(K::Name, "measure"), tok(K::Open, "("), tok(K::Name, e.text)};
        for (std::size_t i = 0; i < e.items.size(); ++i) {
          t.push_back(tok(K::Punct, ","));
          t.push_back(tok(K::Name, e.arg_names[i], true));
          t.push_back(tok(K::Punct, "=", true));
          append(t, build(*e.items[i]).t, true);
        }
        t.push_back(tok(K::Close, ")"));
        if (!e.fallback) return {std::move(t), kAtom};
        t.push_back(tok(K::Keyword, "else", true));
        append(t, build(*e.fallback).t, true);
        return {std::move(t), kLoose};
      }
    }
    return {{tok(K::Name, "?")}};
  }

  // The one parenthesization rule for an operator's operands.
  Operand binary(const Expr& e) {
    const int prec = ast::precedence(e.op);
    Operand l = build(*e.items[0]);
    Operand r = build(*e.items[1]);
    const bool chains = prec != kCompare && e.op != BinOp::To;  // `a < b < c` and `a to b to c` are no napkin
    const bool right_assoc = e.op == BinOp::Pow;
    // Left operand: parenthesise looser binding; for `^` and the operators
    // that do not chain, equal too.
    bool lp = l.bind < prec || (right_assoc && l.bind == prec) || (!chains && l.bind == prec);
    // Right operand: looser, and for left-associative operators equal too (a - (b - c)).
    bool rp = r.bind < prec || (!right_assoc && r.bind == prec);
    // A product needs none around a product: `a · (b · c)` reads `a · b · c`.
    if (o_.pretty && e.op == BinOp::Mul && e.items[1]->kind == ExprKind::Binary && e.items[1]->op == BinOp::Mul &&
        r.bind == prec && !r.compound)
      rp = false;
    // A value like `5.3 TB/s` or `-3` as a divisor or a power's base reads
    // ambiguously without parentheses.
    if (r.compound && (e.op == BinOp::Div || e.op == BinOp::Sub || e.op == BinOp::Pow || first_char(r.t) == '-'))
      rp = true;
    if (l.compound && e.op == BinOp::Pow) lp = true;
    // A derivation is read, not parsed: `a / b · c` is written `(a / b) · c`.
    if (o_.pretty && e.op == BinOp::Mul && e.items[0]->kind == ExprKind::Binary && e.items[0]->op == BinOp::Div)
      lp = true;
    // `(2 m)^2`: written bare, the power would join the unit (`2 m^2`);
    // `2^(1 s)` reads as a power of 2 only with them.
    if (e.op == BinOp::Pow && e.items[0]->kind == ExprKind::Number && e.items[0]->unit) lp = true;
    if (e.op == BinOp::Pow && e.items[1]->kind == ExprKind::Number && e.items[1]->unit) rp = true;
    // A negation as the base of a power: (-2)^2.
    if (e.op == BinOp::Pow && e.items[0]->kind == ExprKind::Negate) lp = true;
    Tokens t = lp ? grouped(std::move(l.t)) : std::move(l.t);
    if (e.op == BinOp::Pow) {
      t.push_back(tok(K::Caret, "^"));
      append(t, rp ? grouped(std::move(r.t)) : std::move(r.t), false);
      return {std::move(t), prec};
    }
    const std::string op = o_.pretty && e.op == BinOp::Mul ? "·" : ast::op_text(e.op);
    t.push_back(tok(std::isalpha(static_cast<unsigned char>(op[0])) ? K::Keyword : K::Operator, op, true, prec));
    append(t, rp ? grouped(std::move(r.t)) : std::move(r.t), true);
    return {std::move(t), prec};
  }
};

// The bracket that closes the one at `open`, or t.size().
std::size_t closing(const Tokens& t, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind == K::Open) ++depth;
    if (t[i].kind == K::Close && --depth == 0) return i;
  }
  return t.size();
}

bool has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

}  // namespace

int binding_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Binary: return ast::precedence(e.op);
    case ExprKind::Not: return kNot;
    case ExprKind::Negate: return kNegate;
    case ExprKind::If:
    case ExprKind::Convert: return kLoose;
    case ExprKind::Measure: return e.fallback ? kLoose : kAtom;
    case ExprKind::Member:
    case ExprKind::Call:
    case ExprKind::With: return kPostfix;
    default: return kAtom;
  }
}

Tokens expression_tokens(const Expr& e, const TokenOptions& o, int* binding) {
  Builder b(o);
  Operand p = b.build(e);
  if (binding) *binding = p.bind;
  if (!p.t.empty()) p.t.front().space = false;
  set_depths(p.t);
  return std::move(p.t);
}

Tokens operand_tokens(const Expr& e, int min_binding, const TokenOptions& o) {
  int bind = kAtom;
  Tokens t = expression_tokens(e, o, &bind);
  if (bind >= min_binding) return t;
  t = grouped(std::move(t));
  set_depths(t);
  return t;
}

Tokens fields_tokens(const std::vector<ast::FieldDecl>& fields, const TokenOptions& o) {
  Builder b(o);
  Tokens t = b.fields(fields);
  set_depths(t);
  return t;
}

void append_number(Tokens& out, const std::string& number, const std::string& unit, bool space) {
  if (!number.empty() && number[0] == '$') {  // `$5/hour`, written as it was
    out.push_back(tok(K::Punct, "$", space));
    out.push_back(tok(K::Number, number.substr(1)));
    if (unit.size() > 1) out.push_back(tok(K::Unit, unit.substr(1)));
    return;
  }
  std::string n = number;
  if (!n.empty() && n[0] == '-') {
    out.push_back(tok(K::Operator, "-", space));
    n.erase(0, 1);
    space = false;
  }
  const bool numeric = !n.empty() && (std::isdigit(static_cast<unsigned char>(n[0])) || n[0] == '.');
  out.push_back(tok(numeric ? K::Number : K::Name, std::move(n), space));
  if (!unit.empty()) out.push_back(tok(K::Unit, unit, true));
}

Tokens conversion_tokens(Tokens operand, int operand_binding, const std::string& unit) {
  Tokens t = operand_binding < kLoose + 1 ? grouped(std::move(operand)) : std::move(operand);
  t.push_back(tok(K::Operator, "->", true, kLoose));
  t.push_back(tok(K::Unit, unit, true));
  return t;
}

Tokens grouped(Tokens inner) {
  Tokens t{tok(K::Open, "(")};
  append(t, std::move(inner), false);
  t.push_back(tok(K::Close, ")"));
  return t;
}

bool compound(const Tokens& t) {
  if (t.empty()) return false;
  // One pair of parentheses around it all: `(a + b)` is an atom.
  if (t.front().kind == K::Open && t.front().text == "(" && closing(t, 0) == t.size() - 1) return false;
  if (first_char(t) == '-') return true;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Token& k = t[i];
    if (k.text.find_first_of("/*^+") != std::string::npos || has(k.text, "·")) return true;
    if (k.text == "-" && k.space && i + 1 < t.size() && t[i + 1].space) return true;  // a difference
    if ((k.kind == K::Text || k.kind == K::String) && has(k.text, " - ")) return true;
    // A range's interval: `(90%: 3,022–3,400)`.
    if (k.kind == K::Open && k.space && i + 2 < t.size() && t[i + 1].text == "90%" && t[i + 2].text == ":" &&
        i + 3 < t.size() && t[i + 3].space)
      return true;
  }
  return false;
}

void set_depths(Tokens& t) {
  int depth = 0;
  for (Token& k : t) {
    if (k.kind == K::Close && depth > 0) --depth;
    k.depth = depth;
    if (k.kind == K::Open) ++depth;
  }
}

std::string token_text(const Token* begin, const Token* end) {
  std::string out;
  for (const Token* k = begin; k != end; ++k) {
    if (k != begin && k->space) out += ' ';
    if (k->kind == K::String)
      out += quote_string(k->text);
    else
      out += k->text;
  }
  return out;
}

}  // namespace napkin
