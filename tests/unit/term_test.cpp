#include <catch2/catch.hpp>

#include "interpreter/derivation/term.hpp"

using namespace napkin;

namespace {

std::string kinds(const Term& t) {
  std::string out;
  for (const Token& k : t.tokens) out += std::to_string(static_cast<int>(k.kind)) + ":" + k.text + " ";
  return out;
}

}  // namespace

TEST_CASE("a value's term is the number and its unit", "[term]") {
  Interpreter in;
  in.load_std("units");
  // 2^34 B is 17.18 GB at the default four significant digits.
  const Term t = value_term(in, Value::quantity(17179869184, in.units().dimension("B").value()));
  REQUIRE(t.tokens.size() == 2);
  CHECK(t.tokens[0].kind == Token::Kind::Number);
  CHECK(t.tokens[0].text == "17.18");
  CHECK(t.tokens[1].kind == Token::Kind::Unit);
  CHECK(t.tokens[1].text == "GB");
  CHECK(t.value);
  CHECK(text(t) == "17.18 GB");
  CHECK(text(value_term(in, Value::boolean(true))) == "true");
  CHECK(text(value_term(in, Value::string("memory"))) == "\"memory\"");
  CHECK_FALSE(value_term(in, Value::string("memory")).value);
}

TEST_CASE("a derivation's lines are the grammar's stream with values put in", "[term]") {
  Interpreter in;
  const ast::Expr& e = in.parse_snippet("<test>", "a / b * c - -d");
  CHECK(text(term_of(e)) == "(a / b) · c - -d");
  TermOptions sub;
  sub.substitute = [&](const ast::Expr& n) -> std::optional<Term> {
    if (n.kind != ast::ExprKind::Name) return std::nullopt;
    if (n.text == "b") return shown_term(Shown{"5.3", "TB/s", ""});
    return shown_term(Shown{"-3", "", ""});
  };
  // 5.3 TB/s as a divisor, -3 beside an operator: in parentheses.
  CHECK(text(term_of(e, sub)) == "(-3 / (5.3 TB/s)) · (-3) - -(-3)");
  CHECK(kinds(shown_term(Shown{"-3", "", ""})) == "3:- 1:3 ");
  CHECK(kinds(shown_term(Shown{"3,200", "token/s", "(90%: 3,022–3,400)"})) ==
        "1:3,200 2:token/s 8:( 1:90% 10:: 1:3,022 3:– 1:3,400 9:) ");
}

TEST_CASE("a conversion after a term groups what binds looser", "[term]") {
  Interpreter in;
  CHECK(text(converted(term_of(in.parse_snippet("<test>", "a + b")), "GiB")) == "a + b -> GiB");
  CHECK(text(converted(term_of(in.parse_snippet("<test>", "if a then b else c")), "GiB")) == "(if a then b else c) -> GiB");
  CHECK(text(converted(term_of(in.parse_snippet("<test>", "x -> GB")), "GiB")) == "(x -> GB) -> GiB");
}

// The branch an `if` took stands in its place with its own binding: a
// difference inside a product keeps its parentheses.
TEST_CASE("a substituted branch binds as the branch does", "[term]") {
  Interpreter in;
  const ast::Expr& e = in.parse_snippet("<test>", "x * (if c then a - b else d) / 2");
  TermOptions sub;
  sub.substitute = [&](const ast::Expr& n) -> std::optional<Term> {
    if (n.kind != ast::ExprKind::If) return std::nullopt;
    return term_of(*n.items[1]);
  };
  CHECK(text(term_of(e, sub)) == "x · (a - b) / 2");
}
