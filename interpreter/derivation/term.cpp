#include "term.hpp"

#include "grammar/printer.hpp"

namespace napkin {
namespace {

using ast::BinOp;
using ast::Expr;
using ast::ExprKind;
using K = Term::Kind;

// The printer's binding strengths, from the grammar's own table: `not` binds
// just tighter than `and`, a negation just tighter than a product, a member
// access or call tighter than a power, and a name or number tightest.
int prec_not() { return ast::precedence(BinOp::And) + 1; }
int prec_neg() { return ast::precedence(BinOp::Mul) + 1; }
int prec_postfix() { return ast::precedence(BinOp::Pow) + 1; }
int prec_atom() { return prec_postfix() + 1; }

Term make(K k) {
  Term t;
  t.kind = k;
  return t;
}

Term group(Term inner) {
  Term g = make(K::Group);
  g.items.push_back(std::move(inner));
  return g;
}

// "(a + b)": one pair of parentheses around the whole text.
bool enclosed(const std::string& s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
    if (depth == 0 && i + 1 < s.size()) return false;
  }
  return true;
}

struct Built {
  Term t;
  int prec;
  bool compound = false;  // a value with a unit like TB/s, or a negative number
};

// The printer's rules (grammar/printer.cpp), building terms instead of text.
class Builder {
 public:
  explicit Builder(const TermOptions& o) : o_(o) {}

  Built build(const Expr& e) {
    if (o_.substitute)
      if (auto s = o_.substitute(e)) {
        // `5.3 TB/s`, `-3` or a substituted branch `a · b` needs parentheses
        // as a divisor; `7.362 ms` does not.
        const bool compound = is_compound(*s);
        return {std::move(*s), prec_atom(), compound};
      }
    return build_node(e);
  }

  // `5.3 TB/s`, `-3`, `a · b`: what needs parentheses as a divisor.
  static bool is_compound(const Term& s) {
    if (s.kind == K::Number && s.items.empty())  // the same test on a value's text, without making it
      return s.text.find_first_of("/*^+") != std::string::npos || s.unit.find_first_of("/*^+") != std::string::npos ||
             (!s.text.empty() && s.text[0] == '-');
    const std::string t = text(s);
    return !enclosed(t) && (t.find_first_of("/*^+") != std::string::npos || t.find("·") != std::string::npos ||
                            t.find(" - ") != std::string::npos || (!t.empty() && t[0] == '-') ||
                            t.find(" (90%: ") != std::string::npos);  // a range
  }

  Built build_node(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: {
        Term t = make(K::Number);
        t.text = e.text + (e.percent ? "%" : "");
        if (e.unit) t.unit = e.unit->text;
        return {std::move(t), prec_atom(), e.unit.has_value() && e.unit->text.find('/') != std::string::npos};
      }
      case ExprKind::String: {
        Term t = make(K::String);
        t.text = e.text;
        return {std::move(t), prec_atom()};
      }
      case ExprKind::Bool: {
        Term t = make(K::Name);
        t.text = e.boolean ? "true" : "false";
        return {std::move(t), prec_atom()};
      }
      case ExprKind::Name: {
        Term t = make(K::Name);
        t.text = e.text;
        return {std::move(t), prec_atom()};
      }
      case ExprKind::List: {
        Term t = make(K::List);
        for (const auto& i : e.items) t.items.push_back(build(*i).t);
        return {std::move(t), prec_atom()};
      }
      case ExprKind::Member: {
        Term r = receiver(*e.items[0]);
        if (r.kind == K::Name) {  // `model.kv_heads` reads as one name
          r.text += "." + e.text;
          return {std::move(r), prec_postfix()};
        }
        Term t = make(K::Member);
        t.text = e.text;
        t.items.push_back(std::move(r));
        return {std::move(t), prec_postfix()};
      }
      case ExprKind::Call: {
        Term t = make(K::Call);
        t.items.push_back(receiver(*e.items[0]));
        for (std::size_t i = 1; i < e.items.size(); ++i) {
          t.names.push_back(e.arg_names[i - 1]);
          t.items.push_back(build(*e.items[i]).t);
        }
        return {std::move(t), prec_postfix()};
      }
      case ExprKind::With: {
        Term t = make(K::With);
        t.items.push_back(e.items[0]->kind == ExprKind::With ? group(build(*e.items[0]).t) : wrap(*e.items[0], prec_postfix()));
        for (const auto& f : e.fields) {
          t.names.push_back(f.name);
          t.types.push_back(f.type.kind != ast::TypeKind::None ? f.type.text : "");
          t.items.push_back(f.value ? build(*f.value).t : Term{});
        }
        return {std::move(t), prec_postfix()};
      }
      case ExprKind::Negate: {
        Built in = build(*e.items[0]);
        const bool paren = in.prec < prec_neg() || in.compound;
        Term t = make(K::Negate);
        t.items.push_back(paren ? group(std::move(in.t)) : std::move(in.t));
        return {std::move(t), prec_neg()};
      }
      case ExprKind::Not: {
        Term t = make(K::Not);
        t.items.push_back(wrap(*e.items[0], prec_not()));
        return {std::move(t), prec_not()};
      }
      case ExprKind::If: {
        Term t = make(K::If);
        for (const auto& i : e.items) t.items.push_back(build(*i).t);
        return {std::move(t), 0};
      }
      case ExprKind::Convert: {
        Term t = make(K::Convert);
        t.items.push_back(wrap(*e.items[0], 1));
        t.unit = e.unit->text;
        return {std::move(t), 0};
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::Measure: {
        Term t = make(K::Measure);
        t.text = e.text;
        t.names = e.arg_names;
        for (const auto& i : e.items) t.items.push_back(build(*i).t);
        if (e.fallback) {
          t.fallback = true;
          t.items.push_back(build(*e.fallback).t);
          return {std::move(t), 0};
        }
        return {std::move(t), prec_atom()};
      }
    }
    Term t = make(K::Name);
    t.text = "?";
    return {std::move(t), prec_atom()};
  }

 private:
  const TermOptions& o_;

  Term wrap(const Expr& e, int min_prec) {
    Built p = build(e);
    return p.prec < min_prec ? group(std::move(p.t)) : std::move(p.t);
  }

  // `(drill with { dtype = int8 }).params`: without the parentheses the
  // member reads as part of the block.
  Term receiver(const Expr& e) {
    if (e.kind == ExprKind::With) return group(build(e).t);
    return wrap(e, prec_postfix());
  }

  Built binary(const Expr& e) {
    const int prec = ast::precedence(e.op);
    Built l = build(*e.items[0]);
    Built r = build(*e.items[1]);
    const bool comparison = prec == ast::precedence(BinOp::Eq) || e.op == BinOp::To;  // neither chains
    const bool right_assoc = e.op == BinOp::Pow;
    bool lp = l.prec < prec || (right_assoc && l.prec == prec) || (comparison && l.prec == prec);
    bool rp = r.prec < prec || (!right_assoc && r.prec == prec);
    if (o_.pretty && e.op == BinOp::Mul && e.items[1]->kind == ExprKind::Binary && e.items[1]->op == BinOp::Mul &&
        r.prec == prec && !r.compound)
      rp = false;
    if (r.compound && (e.op == BinOp::Div || e.op == BinOp::Sub || e.op == BinOp::Pow || text(r.t)[0] == '-'))
      rp = true;
    if (l.compound && e.op == BinOp::Pow) lp = true;
    if (o_.pretty && e.op == BinOp::Mul && e.items[0]->kind == ExprKind::Binary && e.items[0]->op == BinOp::Div)
      lp = true;
    if (e.op == BinOp::Pow && e.items[0]->kind == ExprKind::Number && e.items[0]->unit) lp = true;
    if (e.op == BinOp::Pow && e.items[1]->kind == ExprKind::Number && e.items[1]->unit) rp = true;
    if (e.op == BinOp::Pow && e.items[0]->kind == ExprKind::Negate) lp = true;
    Term t = make(K::Binary);
    t.op = e.op;
    t.pretty = o_.pretty;
    t.items.push_back(lp ? group(std::move(l.t)) : std::move(l.t));
    t.items.push_back(rp ? group(std::move(r.t)) : std::move(r.t));
    return {std::move(t), prec};
  }
};

using Tok = TermToken::Kind;

// Walks a term in print order: into tokens, or straight into its plain
// text (`text`, when set), which is what most callers want.
struct Emitter {
  std::vector<TermToken> out;
  std::string* text = nullptr;

  void add(Tok k, std::string t, bool space, bool binary = false) {
    if (text) {
      if (space) *text += ' ';
      *text += k == Tok::String ? quote_string(t) : t;
      return;
    }
    out.push_back({k, std::move(t), space, binary});
  }

  void number(const Term& t, bool space) {
    std::string n = t.text;
    if (!n.empty() && n[0] == '$') {  // `$5/hour`, written as it was
      add(Tok::Other, "$", space);
      add(Tok::Number, n.substr(1), false);
      if (t.unit.size() > 1) add(Tok::Unit, t.unit.substr(1), false);
      return;
    }
    if (!n.empty() && n[0] == '-') {
      add(Tok::Op, "-", space);
      n.erase(0, 1);
      space = false;
    }
    const bool numeric = !n.empty() && (std::isdigit(static_cast<unsigned char>(n[0])) || n[0] == '.');
    add(numeric ? Tok::Number : Tok::Name, n, space);
    if (!t.unit.empty()) add(Tok::Unit, t.unit, true);
    if (!t.items.empty()) emit(t.items[0], true);  // what the value's display says after its unit
  }

  void emit(const Term& t, bool space) {
    switch (t.kind) {
      case K::Empty: return;
      case K::Number: number(t, space); return;
      case K::Name: add(Tok::Name, t.text, space); return;
      case K::String: add(Tok::String, t.text, space); return;
      case K::Text: add(Tok::Text, t.text, space); return;
      case K::Binary: {
        emit(t.items[0], space);
        if (t.op == BinOp::Pow) {
          add(Tok::Caret, "^", false);
          emit(t.items[1], false);
          return;
        }
        const std::string op = t.pretty && t.op == BinOp::Mul ? "·" : ast::op_text(t.op);
        add(std::isalpha(static_cast<unsigned char>(op[0])) ? Tok::Keyword : Tok::Op, op, true, true);
        emit(t.items[1], true);
        return;
      }
      case K::Group:
        add(Tok::Open, "(", space);
        emit(t.items[0], false);
        add(Tok::Close, ")", false);
        return;
      case K::Negate:
        add(Tok::Op, "-", space);
        emit(t.items[0], false);
        return;
      case K::Not:
        add(Tok::Keyword, "not", space);
        emit(t.items[0], true);
        return;
      case K::Call:
        emit(t.items[0], space);
        add(Tok::Open, "(", false);
        for (std::size_t i = 1; i < t.items.size(); ++i) {
          if (i > 1) add(Tok::Other, ",", false);
          bool s = i > 1;
          if (!t.names[i - 1].empty()) {
            add(Tok::Name, t.names[i - 1], s);
            add(Tok::Other, "=", true);
            s = true;
          }
          emit(t.items[i], s);
        }
        add(Tok::Close, ")", false);
        return;
      case K::Member:
        emit(t.items[0], space);
        add(Tok::Other, ".", false);
        add(Tok::Name, t.text, false);
        return;
      case K::List:
        add(Tok::Other, "[", space);
        for (std::size_t i = 0; i < t.items.size(); ++i) {
          if (i) add(Tok::Other, ",", false);
          emit(t.items[i], i > 0);
        }
        add(Tok::Other, "]", false);
        return;
      case K::If:
        add(Tok::Keyword, "if", space);
        emit(t.items[0], true);
        add(Tok::Keyword, "then", true);
        emit(t.items[1], true);
        add(Tok::Keyword, "else", true);
        emit(t.items[2], true);
        return;
      case K::Convert:
        emit(t.items[0], space);
        add(Tok::Op, "->", true);
        add(Tok::Unit, t.unit, true);
        return;
      case K::With:
        emit(t.items[0], space);
        add(Tok::Keyword, "with", true);
        add(Tok::Other, "{", true);
        for (std::size_t i = 1; i < t.items.size(); ++i) {
          if (i > 1) add(Tok::Other, ",", false);
          add(Tok::Name, t.names[i - 1], true);
          if (!t.types[i - 1].empty()) {
            add(Tok::Other, ":", false);
            add(Tok::Name, t.types[i - 1], true);
          }
          if (!t.items[i].empty()) {
            add(Tok::Other, "=", true);
            emit(t.items[i], true);
          }
        }
        add(Tok::Other, "}", true);
        return;
      case K::Measure: {
        add(Tok::Name, "measure", space);
        add(Tok::Open, "(", false);
        add(Tok::Name, t.text, false);
        const std::size_t args = t.items.size() - (t.fallback ? 1 : 0);
        for (std::size_t i = 0; i < args; ++i) {
          add(Tok::Other, ",", false);
          add(Tok::Name, t.names[i], true);
          add(Tok::Other, "=", true);
          emit(t.items[i], true);
        }
        add(Tok::Close, ")", false);
        if (t.fallback) {
          add(Tok::Keyword, "else", true);
          emit(t.items.back(), true);
        }
        return;
      }
      case K::Interval:
        add(Tok::Open, "(", space);
        add(Tok::Number, t.text, false);
        add(Tok::Other, ":", false);
        emit(t.items[0], true);
        add(Tok::Op, "–", false);
        emit(t.items[1], false);
        add(Tok::Close, ")", false);
        return;
      case K::Noted:
        emit(t.items[0], space);
        add(Tok::Other, "[", true);
        emit(t.items[1], false);
        add(Tok::Other, "]", false);
        return;
    }
  }
};

// What a value's display adds after its unit: a range's interval
// `(90%: 3,022–3,400)` as its level and two numbers, anything else as prose.
Term suffix(const std::string& s) {
  const std::size_t colon = s.find(": "), dash = s.find("–");
  Term t;
  if (s.size() > 2 && s.front() == '(' && s.back() == ')' && colon != std::string::npos && dash != std::string::npos &&
      colon < dash) {
    t.kind = K::Interval;
    t.text = s.substr(1, colon - 1);
    for (const auto& end : {s.substr(colon + 2, dash - colon - 2), s.substr(dash + 3, s.size() - dash - 4)}) {
      t.items.emplace_back();
      t.items.back().kind = K::Number;
      t.items.back().text = end;
    }
    return t;
  }
  t.kind = K::Text;
  t.text = s;
  return t;
}

}  // namespace

std::vector<TermToken> tokens(const Term& t) {
  Emitter e;
  e.emit(t, false);
  return std::move(e.out);
}

std::string text(const Term& t) {
  // The common leaves without the token list.
  if (t.kind == K::Name || t.kind == K::Text) return t.text;
  if (t.kind == K::String) return quote_string(t.text);
  if (t.kind == K::Number && t.items.empty()) {  // `16 GiB`, `$5/hour`
    if (t.unit.empty()) return t.text;
    const bool dollar = !t.text.empty() && t.text[0] == '$';
    std::string out;
    out.reserve(t.text.size() + t.unit.size() + 1);
    out += t.text;
    if (!dollar) out += ' ';
    out.append(t.unit, dollar ? 1 : 0);
    return out;
  }
  std::string out;
  Emitter e;
  e.text = &out;
  e.emit(t, false);
  return out;
}

const Term& SharedTerm::operator*() const {
  static const Term none;
  return p_ ? *p_ : none;
}

Term term_of(const ast::Expr& e, const TermOptions& o) {
  Builder b(o);
  return b.build(e).t;
}

Term value_term(const Interpreter& in, const Value& v, int digits) {
  const auto show = [&](const Value& x) { return digits > 0 ? in.show(x, digits) : in.show(x); };
  Term t;
  switch (v.kind) {
    case Value::Kind::Quantity: {
      // `16 GiB`, `40%`, `8`: the number, then its unit after one space,
      // then anything else the display adds, as prose.
      std::string s = show(v);
      t.kind = K::Number;
      const std::size_t sp = s.find(' ');
      if (sp == std::string::npos) {
        t.text = std::move(s);
        return t;
      }
      // A range's interval follows in parentheses: `84.85% (90%: 80–90)`.
      const std::size_t rest = s[sp + 1] == '(' ? sp : s.find(' ', sp + 1);
      if (rest != sp) t.unit = s.substr(sp + 1, rest == std::string::npos ? std::string::npos : rest - sp - 1);
      if (rest != std::string::npos) t.items.push_back(suffix(s.substr(rest + 1)));
      s.resize(sp);
      t.text = std::move(s);
      return t;
    }
    case Value::Kind::String:
      t.kind = K::String;
      t.text = v.str();
      return t;
    case Value::Kind::List:
      t.kind = K::List;
      for (const auto& x : v.items()) t.items.push_back(value_term(in, x, digits));
      return t;
    default:
      t.kind = K::Name;
      t.text = show(v);
      return t;
  }
}

}  // namespace napkin
