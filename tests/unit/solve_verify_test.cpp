// napkin solve reports only what it has verified: a sign change of A - B
// across a jump or a pole is error E0504, not a solution; a crossing at a
// whole number comes back whole; the search is made of pieces (bracket,
// bisection) that can be run on their own.
#include <catch2/catch.hpp>

#include <string>

#include "interpreter/analysis/solve.hpp"
#include "interpreter/analysis/solve_search.hpp"
#include "support.hpp"

using napkin::SolveGoal;
using napkin::SolveSpec;
using napkin::test::Session;

namespace {

SolveSpec equation(const std::string& condition, const std::string& lo = "", const std::string& hi = "") {
  SolveSpec s;
  s.record = "r";
  s.input = "x";
  s.goal = SolveGoal::Equal;
  s.condition = condition;
  s.lo = lo;
  s.hi = hi;
  return s;
}

// The error a solve ends in (its code and message), or FAIL when it gives a
// solution.
napkin::Diagnostic solve_error(Session& s, const SolveSpec& spec) {
  try {
    auto r = napkin::solve(s.in, s.module, spec);
    FAIL("a solution was reported: x = " << r.solution.q.v << ", where the left side is " << r.value.q.v);
  } catch (const napkin::Error& e) {
    return e.diagnostic();
  }
  return {};
}

}  // namespace

TEST_CASE("a jump from 1 to -1 is no root of disc == 0", "[solve]") {
  Session s;
  s.load("record r {\n  x = 1.5\n  disc = if x < 3 then 1 else -1\n}\n");
  // Bracket [0, 8]: bisection tries 4, 2, 3, so the high end is x = 3
  // exactly, where disc is already -1; the low end creeps up to just below 3.
  const auto d = solve_error(s, equation("disc == 0", "0", "8"));
  CHECK(d.code == napkin::Code::no_root);
  CHECK(d.message.find("no solution in [0, 8]: disc jumps between x = 2.99999") == 0);
  CHECK(d.message.find(" and x = 3 (disc = 1 and -1) without equalling 0") != std::string::npos);
}

TEST_CASE("a step from 0 to 10 never equals 5", "[solve]") {
  Session s;
  s.load("record r {\n  x = 1.5\n  step = if x < 4 then 0 else 10\n}\n");
  const auto d = solve_error(s, equation("step == 5", "0", "10"));
  CHECK(d.code == napkin::Code::no_root);
  CHECK(d.message.find("step = 0 and 10") != std::string::npos);
  CHECK(d.message.find("without equalling 5") != std::string::npos);
}

TEST_CASE("the pole of 1 / (x - 2) is no root of inv == 0", "[solve]") {
  Session s;
  s.load("record r {\n  x = 1.5\n  inv = 1 / (x - 2)\n}\n");
  // Widened from 1.5: at 3, inv = 1 and at 1.5, inv = -2, so the bracket is
  // [1.5, 3]; its midpoints never reach 2 exactly (2 - 1.5 is a third of
  // the width), and close to 2, inv is about ±1e12.
  const auto d = solve_error(s, equation("inv == 0"));
  CHECK(d.code == napkin::Code::no_root);
  CHECK(d.message.find("no solution in [1.5, 3]: inv has a pole between x = 1.99999") == 0);
  CHECK(d.message.find("it changes sign there without equalling 0") != std::string::npos);
}

TEST_CASE("a real root is still found, and meets the documented tolerance", "[solve]") {
  Session s;
  s.load("record r {\n  x = 1.5\n  disc = 3 - x\n}\n");
  auto r = napkin::solve(s.in, s.module, equation("disc == 0", "0", "10"));
  // disc = 0 at x = 3; |disc| must be at most 1e-9 of the largest side at
  // the bracket's ends (|3 - 0| and |3 - 10|: 7).
  CHECK(std::abs(r.value.q.v) <= 1e-9 * 7);
  CHECK(std::abs(r.solution.q.v - 3) <= 3e-12);
}

TEST_CASE("a crossing at a whole number comes back whole", "[solve]") {
  Session s;
  s.load("record r {\n  x = 1.5\n  y = x * x\n}\n");
  // 8192² = 67,108,864, exactly. Widened from 1.5, the bracket is
  // [6144, 12288] and no midpoint of it is 8192 (8192 - 6144 is a third of
  // its width), so bisection alone ends beside it.
  auto r = napkin::solve(s.in, s.module, equation("y == 67108864"));
  CHECK(r.solution.q.v == 8192);
  CHECK(r.value.q.v == 67108864);
}

TEST_CASE("the pieces: a given bracket, then bisection to neighbours", "[solve]") {
  Session s;
  s.load("record r {\n  x = 8\n  fits = x * 3 <= 100\n}\n");
  SolveSpec spec;
  spec.record = "r";
  spec.input = "x";
  spec.goal = SolveGoal::Max;
  spec.condition = "fits";
  spec.lo = "1";
  spec.hi = "64";
  napkin::Record* base = s.eval("r").rec;
  const napkin::ast::Expr& cond = s.in.parse_snippet("<condition>", "fits");
  napkin::solve_detail::Search search{s.in, s.module, base, base->index().at("x"), napkin::Dim{}, spec, cond, true};
  auto b = napkin::solve_detail::given_bracket(search);
  CHECK(b.lo == 1);
  CHECK(b.hi == 64);
  CHECK(b.slo.holds);
  CHECK_FALSE(b.shi.holds);
  napkin::solve_detail::bisect(search, b);
  // 33 · 3 = 99 fits in 100, 34 · 3 = 102 does not.
  CHECK(b.lo == 33);
  CHECK(b.hi == 34);
}
