// Checks with a name and points (`check "q6" (2 points): ...`): parsed,
// stored in the compiled tree, printed back by `fmt`, and carried to the
// check's result with its values in the checker's units.
#include <catch2/catch.hpp>

#include "grammar/ast_equal.hpp"
#include "grammar/compiled_ast.hpp"
#include "grammar/parser.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/layout/formatter.hpp"
#include "interpreter/output/check_results.hpp"

using namespace napkin;

namespace {

const ast::Stmt& only_check(const ast::Module& m) {
  for (const auto& st : m.statements)
    if (st.kind == ast::StmtKind::Check) return st;
  FAIL("no check");
  return m.statements.front();
}

}  // namespace

TEST_CASE("a check's name and points are parsed") {
  const SourceFile a{"t.napkin", "check \"q6 KV \\\"cache\\\"\" (2 points): 1 == 1\n", ""};
  const ast::Module ma = parse_module(a);
  const ast::Stmt& ca = only_check(ma);
  CHECK(ca.check_name == "q6 KV \"cache\"");
  CHECK(ca.points == 2);
  CHECK(ca.points_text == "2");
  CHECK(ca.value->kind == ast::ExprKind::Binary);

  const SourceFile b{"t.napkin", "check (0.5 points): 2 > 1\ncheck \"one\" (1 point): true\n", ""};
  const ast::Module mb = parse_module(b);
  CHECK(mb.statements[0].check_name.empty());
  CHECK(mb.statements[0].points == 0.5);
  CHECK(mb.statements[1].check_name == "one");
  CHECK(mb.statements[1].points == 1);

  // A string compared is a condition, not a name; a check without points counts 1.
  const SourceFile c{"t.napkin", "check \"a\" == \"a\"\n", ""};
  const ast::Module mc = parse_module(c);
  CHECK(only_check(mc).check_name.empty());
  CHECK(only_check(mc).points == 1);
  CHECK(only_check(mc).points_text.empty());
}

TEST_CASE("a check's label survives the compiled tree and fmt") {
  const std::string text = "check \"q1\" (2 points): 1 == 1\ncheck (3 points): 2 > 1\ncheck \"q3\": true\n";
  const SourceFile f{"t.napkin", text, ""};
  const ast::Module parsed = parse_module(f);
  const CompiledAstData c = compile_ast(parsed);
  const ast::Module loaded = load_compiled_ast(c.view(), f);
  CHECK(ast_difference(parsed, loaded) == "");
  CHECK(loaded.statements[0].check_name == "q1");
  CHECK(loaded.statements[0].points == 2);
  CHECK(loaded.statements[1].points == 3);
  CHECK(loaded.statements[2].points == 1);
  // Already in the one layout: fmt prints it back byte for byte.
  CHECK(format_source(f) == text);
  // `check "q3" :true` is laid out as `check "q3": true`.
  const SourceFile loose{"t.napkin", "check   \"q3\"  :true\n", ""};
  CHECK(format_source(loose) == "check \"q3\": true\n");
}

TEST_CASE("a check's result carries its name, points and values in the checker's units") {
  Interpreter in;
  Module* m = in.load_source("t.napkin",
                             "let t = 15 ms\n"
                             "check \"q5\" (2 points): t ≈ 9922 µs within 0.1%\n"
                             "check t < 20000 µs\n",
                             "");
  std::vector<CheckResult> results;
  for (const auto& st : m->ast.statements)
    if (st.kind == ast::StmtKind::Check) results.push_back(in.run_check(st));
  REQUIRE(results.size() == 2);
  CHECK(results[0].name == "q5");
  CHECK(results[0].points == 2);
  CHECK_FALSE(results[0].passed);
  CHECK(results[0].relation == "≈");
  // 15 ms is 15,000 µs: a grader reads both sides in the unit the expected
  // value is written in; the values themselves keep their own display.
  CHECK(in.show(results[0].actual) == "15 ms");
  const CheckOutcome approx = outcome_of(in, results[0]);
  CHECK(approx.actual == "15,000 µs");
  CHECK(approx.expected == "9,922 µs");
  CHECK(approx.tolerance == "0.1%");
  CHECK(approx.points == 2);
  CHECK(approx.score == 0);
  CHECK(approx.message == "check failed: t is 15,000 µs, expected 9,922 µs (off by 51.2% (allowed 0.1%))");
  CHECK(results[1].name.empty());
  CHECK(results[1].points == 1);
  CHECK(results[1].passed);
  CHECK(results[1].relation == "<");
  const CheckOutcome less = outcome_of(in, results[1]);
  CHECK(less.name == "check t < 20000 µs");
  CHECK(less.actual == "15,000 µs");
  CHECK(less.expected == "20,000 µs");
  CHECK(less.score == 1);
}
