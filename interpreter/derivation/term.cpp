#include "term.hpp"

namespace napkin {
namespace {

using K = Token::Kind;

Token token(K kind, std::string text, bool space = false) {
  Token t;
  t.kind = kind;
  t.text = std::move(text);
  t.space = space;
  return t;
}

void append(Tokens& out, Tokens in, bool space) {
  if (in.empty()) return;
  in.front().space = space;
  out.insert(out.end(), std::make_move_iterator(in.begin()), std::make_move_iterator(in.end()));
}

// What a value's display adds after its unit: a range's interval
// `(90%: 3,022–3,400)` as its level and two numbers, anything else as prose.
Tokens suffix(const std::string& s) {
  const std::size_t colon = s.find(": "), dash = s.find("–");
  if (s.size() <= 2 || s.front() != '(' || s.back() != ')' || colon == std::string::npos ||
      dash == std::string::npos || colon > dash)
    return {token(K::Text, s)};
  Tokens t{token(K::Open, "("), token(K::Number, s.substr(1, colon - 1)), token(K::Punct, ":")};
  append_number(t, s.substr(colon + 2, dash - colon - 2), "", true);
  t.push_back(token(K::Operator, "–"));
  append_number(t, s.substr(dash + 3, s.size() - dash - 4), "", false);
  t.push_back(token(K::Close, ")"));
  return t;
}

Term finished(Tokens t, int binding = binding::kAtom) {
  set_depths(t);
  Term out;
  out.tokens = std::move(t);
  out.binding = binding;
  return out;
}

}  // namespace

const Term& SharedTerm::operator*() const {
  static const Term none;
  return p_ ? *p_ : none;
}

Term term_of(const ast::Expr& e, const TermOptions& o) {
  TokenOptions t;
  t.pretty = o.pretty;
  if (o.substitute)
    t.substitute = [&](const ast::Expr& node) -> std::optional<Replacement> {
      auto s = o.substitute(node);
      if (!s) return std::nullopt;
      return Replacement{std::move(s->tokens), s->binding};
    };
  Term out;
  out.tokens = expression_tokens(e, t, &out.binding);
  return out;
}

Term converted(Term t, const std::string& unit) { return finished(conversion_tokens(std::move(t.tokens), t.binding, unit), binding::kLoose); }

Term grouped(Term t) { return finished(napkin::grouped(std::move(t.tokens))); }

Term prose_term(std::string text) { return finished({token(K::Text, std::move(text))}); }

Term noted(Term value, std::string note) {
  Tokens t = std::move(value.tokens);
  t.push_back(token(K::Open, "[", true));
  t.push_back(token(K::Text, std::move(note)));
  t.push_back(token(K::Close, "]"));
  return finished(std::move(t));
}

Shown shown_value(const Interpreter& in, const Value& v, int digits) {
  // `16 GiB`, `40%`, `8`: the number, then its unit after one space, then
  // anything else the display adds.
  std::string s = digits > 0 ? in.show(v, digits) : in.show(v);
  Shown out;
  const std::size_t sp = s.find(' ');
  if (sp == std::string::npos) {
    out.number = std::move(s);
    return out;
  }
  // A range's interval follows in parentheses: `84.85% (90%: 80–90)`.
  const std::size_t rest = s[sp + 1] == '(' ? sp : s.find(' ', sp + 1);
  if (rest != sp) out.unit = s.substr(sp + 1, rest == std::string::npos ? std::string::npos : rest - sp - 1);
  if (rest != std::string::npos) out.rest = s.substr(rest + 1);
  s.resize(sp);
  out.number = std::move(s);
  return out;
}

Term shown_term(const Shown& s) {
  Tokens t;
  append_number(t, s.number, s.unit, false);
  if (!s.rest.empty()) append(t, suffix(s.rest), true);
  Term out = finished(std::move(t));
  out.value = s.rest.empty();
  return out;
}

Term value_term(const Interpreter& in, const Value& v, int digits) {
  switch (v.kind) {
    case Value::Kind::Quantity: return shown_term(shown_value(in, v, digits));
    case Value::Kind::String: return finished({token(K::String, v.str())});
    case Value::Kind::List: {
      Tokens t{token(K::Open, "[")};
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (i) t.push_back(token(K::Punct, ","));
        append(t, value_term(in, v.items()[i], digits).tokens, i > 0);
      }
      t.push_back(token(K::Close, "]"));
      return finished(std::move(t));
    }
    default: return finished({token(K::Name, digits > 0 ? in.show(v, digits) : in.show(v))});
  }
}

}  // namespace napkin
