#include "term.hpp"

#include <climits>
#include <utility>

#include "grammar/text_width.hpp"

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

namespace {

using Range = std::pair<std::size_t, std::size_t>;  // tokens [first, second)

std::size_t columns(const Tokens& t, Range r) { return code_points(token_text(t.data() + r.first, t.data() + r.second)); }

// Whether a line may break before token i, and how loosely: before a
// binary operator (`and`, `or` too), at its binding; after a comma (between a call's
// arguments), looser than any operator inside the same brackets.
int break_before(const Tokens& t, std::size_t i) {
  if (t[i].breaks >= 0) return t[i].breaks;
  if (t[i].kind == Token::Kind::Keyword && t[i].space && (t[i].text == "and" || t[i].text == "or"))
    return t[i].text == "or" ? binding::kOr : binding::kAnd;
  if (t[i - 1].kind == Token::Kind::Punct && t[i - 1].text == "," && t[i].space) return -1;
  return INT_MAX;
}

std::vector<Range> wrapped(const Tokens& t, Range r, std::size_t width) {
  if (columns(t, r) <= width) return {r};
  // The loosest breaks of the outermost brackets that have any.
  int depth = INT_MAX, loosest = INT_MAX;
  for (std::size_t i = r.first + 1; i < r.second; ++i) {
    const int b = break_before(t, i);
    if (b != INT_MAX && (t[i].depth < depth || (t[i].depth == depth && b < loosest))) {
      depth = t[i].depth;
      loosest = b;
    }
  }
  if (depth == INT_MAX) return {r};
  std::vector<Range> pieces;
  std::size_t from = r.first;
  for (std::size_t i = r.first + 1; i < r.second; ++i)
    if (break_before(t, i) == loosest && t[i].depth == depth) {
      pieces.push_back({from, i});
      from = i;
    }
  pieces.push_back({from, r.second});
  // As many pieces a line as fit; a piece too long alone breaks inside.
  std::vector<Range> out;
  Range line = pieces[0];
  const auto flush = [&] {
    for (const Range& l : wrapped(t, line, width)) out.push_back(l);
  };
  for (std::size_t k = 1; k < pieces.size(); ++k) {
    if (columns(t, {line.first, pieces[k].second}) <= width) {
      line.second = pieces[k].second;
      continue;
    }
    flush();
    line = pieces[k];
  }
  flush();
  return out;
}

}  // namespace

std::vector<std::string> wrapped_text(const Term& term, std::size_t width) {
  const Tokens& t = term.tokens;
  if (t.empty()) return {""};
  std::vector<std::string> out;
  for (const Range& r : wrapped(t, {0, t.size()}, width))
    out.push_back(token_text(t.data() + r.first, t.data() + r.second));
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
