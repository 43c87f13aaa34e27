#include <catch2/catch.hpp>

#include <functional>
#include <unordered_set>

#include "grammar/printer.hpp"
#include "interpreter/derivation/term.hpp"

using namespace napkin;

namespace {

// Every expression a module's statements hold: values, field formulas,
// check sides, function bodies.
void each_expr(const ast::Module& m, const std::function<void(const ast::Expr&)>& f) {
  for (const auto& st : m.statements) {
    for (const ast::Expr* e : {st.value.get(), st.base.get(), st.expected.get(), st.tolerance.get()})
      if (e) f(*e);
    for (const auto& fd : st.fields)
      if (fd.value) f(*fd.value);
  }
}

void modules(Module* m, std::unordered_set<Module*>& seen, std::vector<Module*>& out) {
  if (!seen.insert(m).second) return;
  out.push_back(m);
  for (Module* d : m->imports) modules(d, seen, out);
}

}  // namespace

// A derivation's terms print what the printer prints, so that every format
// that walks them says the same as the source and as each other.
TEST_CASE("a term's text is the printer's, for every formula of the standard library", "[term]") {
  Interpreter in;
  std::vector<Module*> all;
  std::unordered_set<Module*> seen;
  modules(in.prelude(), seen, all);
  std::size_t checked = 0;
  for (Module* m : all)
    each_expr(m->ast, [&](const ast::Expr& e) {
      for (bool pretty : {true, false}) {
        PrintOptions p;
        p.pretty = pretty;
        TermOptions t;
        t.pretty = pretty;
        CHECK(text(term_of(e, t)) == print_expr(e, p));
      }
      ++checked;
    });
  CHECK(checked > 300);
}

TEST_CASE("a term's text is the printer's, for the printer's hard cases", "[term]") {
  Interpreter in;
  for (const char* source :
       {"a / b * c", "a / (b * c)", "a - (b - c)", "(a + b) * c", "-(a + b)", "-x ^ 2", "(-2) ^ 2", "2 ^ 3 ^ 2",
        "(2 m) ^ 2", "not (a and b)", "a or b and c", "if a > 0 then b else c", "f(x, n = 2) -> GiB",
        "(d with { x = 1 }).y", "d with { x: count = 1, y = 2 }", "[1, 2 GB, \"s\"]", "$5/hour * 3",
        "measure(gpu.copy_bandwidth, threads = 4) else 4.8 TB/s", "1 to 2", "(1 to 2) * 3", "a.b.c(d).e",
        "40% * x", "1e20 FLOP / (5.3 TB/s)", "x == 3 GB", "-3 ms"}) {
    const ast::Expr& e = in.parse_snippet("<test>", source);
    for (bool pretty : {true, false}) {
      PrintOptions p;
      p.pretty = pretty;
      TermOptions t;
      t.pretty = pretty;
      CHECK(text(term_of(e, t)) == print_expr(e, p));
    }
  }
}

TEST_CASE("a value's term is the number and its unit", "[term]") {
  Interpreter in;
  in.load_std("units");
  const Term t = value_term(in, Value::quantity(17179869184, in.units().dimension("B").value()));
  CHECK(t.kind == Term::Kind::Number);
  CHECK(t.text == "17.18");
  CHECK(t.unit == "GB");
  CHECK(text(t) == "17.18 GB");
  CHECK(text(value_term(in, Value::boolean(true))) == "true");
  CHECK(text(value_term(in, Value::string("memory"))) == "\"memory\"");
}
