// napkin solve: the solution meets its condition, and the next whole number
// past it does not; equations land on their root; no solution is an error.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "interpreter/analysis/solve.hpp"
#include "support.hpp"

using napkin::SolveGoal;
using napkin::SolveSpec;
using napkin::test::Session;

namespace {

// A decode step on one GPU: weights plus a KV cache per sequence.
const char* kDecode =
    "scenario decode {\n"
    "  batch     = 8\n"
    "  context   = 4096 token\n"
    "  weights   = 16 GB\n"
    "  kv_per_token = 131072 B/token\n"
    "  capacity  = 80 GB\n"
    "  bandwidth = 3.35 TB/s\n"
    "  memory    = weights + batch * context * kv_per_token\n"
    "  fits      = memory <= capacity\n"
    "  step_time = memory / bandwidth\n"
    "  tokens_per_s = batch * 1 token / step_time\n"
    "}\n";

SolveSpec spec(const std::string& input, SolveGoal g, const std::string& cond) {
  SolveSpec s;
  s.record = "decode";
  s.input = input;
  s.goal = g;
  s.condition = cond;
  return s;
}

}  // namespace

TEST_CASE("max where: the solved batch fits and batch + 1 does not", "[solve]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::solve(s.in, s.module, spec("batch", SolveGoal::Max, "fits"));
  REQUIRE(r.integer);
  const double b = r.solution.q.v;
  // (80 GB - 16 GB) / (4096 · 131072 B) = 119.2: 119 sequences fit.
  CHECK(b == 119);
  const std::string at = "(decode with { batch = " + std::to_string(static_cast<int>(b)) + " }).fits";
  const std::string next = "(decode with { batch = " + std::to_string(static_cast<int>(b) + 1) + " }).fits";
  CHECK(s.eval(at).b);
  CHECK_FALSE(s.eval(next).b);
  REQUIRE(r.beyond);
  CHECK(r.beyond->q.v == b + 1);
  CHECK_FALSE(r.beyond_value.b);
  CHECK(r.value.b);
  // The record at the solution, with its derivation.
  CHECK(r.at->name == "decode");
  CHECK_FALSE(r.trace.entries.empty());
}

TEST_CASE("min where: the smallest whole number that holds", "[solve]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::solve(s.in, s.module, spec("batch", SolveGoal::Min, "tokens_per_s >= 2000 token/s"));
  const int b = static_cast<int>(r.solution.q.v);
  CHECK(s.eval("(decode with { batch = " + std::to_string(b) + " }).tokens_per_s >= 2000 token/s").b);
  CHECK_FALSE(s.eval("(decode with { batch = " + std::to_string(b - 1) + " }).tokens_per_s >= 2000 token/s").b);
}

TEST_CASE("where A == B: a real input lands on the root", "[solve]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::solve(s.in, s.module, spec("bandwidth", SolveGoal::Equal, "tokens_per_s == 500 token/s"));
  CHECK_FALSE(r.integer);
  const double tps = s.eval("(decode with { bandwidth = " + std::to_string(r.solution.q.v) + " B/s }).tokens_per_s").q.v;
  CHECK(std::abs(tps - 500) < 1e-3);
  CHECK(std::abs(r.value.q.v - 500) <= 500 * 1e-11);
}

TEST_CASE("where A == B over whole numbers: the first one at or past the crossing", "[solve]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::solve(s.in, s.module, spec("batch", SolveGoal::Equal, "tokens_per_s == 2000 token/s"));
  REQUIRE(r.integer);
  const int b = static_cast<int>(r.solution.q.v);
  CHECK(s.eval("(decode with { batch = " + std::to_string(b) + " }).tokens_per_s").q.v >= 2000);
  CHECK(s.eval("(decode with { batch = " + std::to_string(b - 1) + " }).tokens_per_s").q.v < 2000);
}

TEST_CASE("a given bracket is searched as given", "[solve]") {
  Session s;
  s.load(kDecode);
  auto sp = spec("batch", SolveGoal::Max, "fits");
  sp.lo = "1";
  sp.hi = "50";
  auto r = napkin::solve(s.in, s.module, sp);
  CHECK(r.solution.q.v == 50);
  CHECK(r.at_bracket_end);
}

TEST_CASE("no solution in the bracket is error E0503", "[solve]") {
  Session s;
  s.load(kDecode);
  auto sp = spec("batch", SolveGoal::Max, "fits");
  sp.lo = "200";
  sp.hi = "300";
  try {
    napkin::solve(s.in, s.module, sp);
    FAIL("no error");
  } catch (const napkin::Error& e) {
    CHECK(e.diagnostic().code == napkin::Code::no_solution);
  }
  auto eq = spec("bandwidth", SolveGoal::Equal, "tokens_per_s == 500 token/s");
  eq.lo = "2 TB/s";
  eq.hi = "3 TB/s";
  try {
    napkin::solve(s.in, s.module, eq);
    FAIL("no error");
  } catch (const napkin::Error& e) {
    CHECK(e.diagnostic().code == napkin::Code::no_solution);
  }
}

TEST_CASE("a condition that is not a boolean, or sides of two dimensions, is an error", "[solve]") {
  Session s;
  s.load(kDecode);
  CHECK_THROWS_AS(napkin::solve(s.in, s.module, spec("batch", SolveGoal::Max, "memory")), napkin::Error);
  CHECK_THROWS_AS(napkin::solve(s.in, s.module, spec("batch", SolveGoal::Equal, "memory == 1 s")), napkin::Error);
  CHECK_THROWS_AS(napkin::solve(s.in, s.module, spec("batch", SolveGoal::Equal, "fits")), napkin::Error);
  CHECK_THROWS_AS(napkin::solve(s.in, s.module, spec("bach", SolveGoal::Max, "fits")), napkin::Error);
}
