// Answers that cannot be wrong without a word: a base's formulas keep the
// names their author meant, whole numbers are exact, ranges never overflow
// into NaN or a dropped interval, and an `if` chooses sample by sample
// (docs/language.md: "Names in call position", "Numbers", "Equality",
// "Ranges").
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "interpreter/core/samples.hpp"
#include "interpreter/sweep/sweep.hpp"
#include "support.hpp"

using napkin::test::Session;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

double rel(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

}  // namespace

TEST_CASE("a field an extending block adds cannot capture a name of its base's formulas", "[names]") {
  Session s;
  s.load("let rate = 2\n"
         "record base { y = 3 * rate }\n"
         "record derived extends base { rate = 5 }\n");
  // base's `rate` is the top-level let: 3 · 2, in base and in derived alike
  // (the field `rate` that derived adds is not one base's formula knew).
  CHECK(s.si("base.y") == 6);
  CHECK(s.si("derived.y") == 6);
  CHECK(s.si("derived.rate") == 5);
}

TEST_CASE("late binding still reaches the fields a base declares", "[names]") {
  Session s;
  s.load("record box { width: count\n depth = 2\n area = width * depth }\n"
         "record a extends box { width = 3 }\n"
         "record b extends a { depth = 5 }\n");
  CHECK(s.si("a.area") == 6);   // 3 · 2
  CHECK(s.si("b.area") == 15);  // 3 · 5: box's formula sees b's depth
}

TEST_CASE("a name in call position finds a function, not a field of that name", "[names]") {
  Session s;
  s.load("record r {\n  floor = 7\n  y = floor(2.5)\n}\n"
         "record base { z = max(1, 4) }\n"
         "record derived extends base { max = 0 }\n");
  CHECK(s.si("r.y") == 2);        // the builtin floor(2.5), beside a field `floor` of 7
  CHECK(s.si("r.floor") == 7);
  CHECK(s.si("derived.z") == 4);  // base's max(1, 4), beside derived's field `max`
}

TEST_CASE("std/serving's max_batch and memory_fits keep the library's floor and fits", "[names][stdlib]") {
  Session s;
  s.load("import \"std/models\"\nimport \"std/hardware\"\nimport \"std/serving\"\n"
         "scenario mine extends serving {\n"
         "  model = llama3_8b\n  gpu = h100_sxm\n  batch = 32\n  context = 8192 token\n"
         "  floor = 2\n  fits = memory_fits\n}\n");
  // (80 GiB − 8,030,261,248 param · 2 B) / 1 GiB of KV per 8,192-token
  // sequence (2 · 32 layers · 8 KV heads · 128 · 2 B · 8,192) =
  // 69,838,823,424 B / 1,073,741,824 B = 65.04: 65.
  CHECK(s.si("mine.max_batch") == 65);
  CHECK(s.eval("mine.memory_fits").b);  // 16.06 GB + 32 GiB ≤ 80 GiB
  CHECK(s.eval("mine.fits").b);
  CHECK(s.si("mine.floor") == 2);
}

TEST_CASE("a field declared `: fn` can be called, and an override of it is late-bound", "[names]") {
  Session s;
  s.load("record r {\n  f: fn = sqrt\n  y = f(16)\n}\n"
         "record q extends r { f = abs }\n");
  CHECK(s.si("r.y") == 4);   // sqrt(16)
  CHECK(s.si("q.y") == 16);  // abs(16)
  CHECK(s.eval("q.f").kind == napkin::Value::Kind::Function);
}

TEST_CASE("calling a field not declared `: fn` says how to declare it", "[names][errors]") {
  Session s;
  s.load("record r {\n  act = 2\n  y = act(3)\n}\n");
  const std::string e = s.error("r.y");
  CHECK(has(e, "error[E0309]"));
  CHECK(has(e, "test0.napkin:3:7"));
  CHECK(has(e, "act: fn = …"));
}

TEST_CASE("a base formula naming a field only an extending block adds says where to declare it", "[names][errors]") {
  Session s;
  s.load("record base {\n  y = 2 * x\n}\n"
         "record derived extends base { x = 3 }\n");
  const std::string e = s.error("derived.y");
  CHECK(has(e, "error[E0300]"));
  CHECK(has(e, "test0.napkin:2:11"));
  CHECK(has(e, "`y` (test0.napkin:2) was written in a block that has no field `x`"));
  CHECK(has(e, "declare it in that block (`x: TYPE`)"));
}

TEST_CASE("a let named after the catalog record its formula uses means that record", "[names][stdlib]") {
  Session s;
  s.load("import \"std/activations\"\n"
         "let full_recompute = layer_activation_bytes(2048 token, 1, 4096, 32, recompute = full_recompute)\n"
         "let x = x + 1\n");
  // Korthikanti et al. 2022, Table 2: full recompute keeps sbh·2 bytes per
  // layer, 2,048 · 1 · 4,096 · 2 = 16,777,216 B.
  CHECK(s.si("full_recompute") == 16'777'216);
  // Nothing imported is called x: the let itself, a cycle.
  CHECK(has(s.error("x"), "error[E0303]"));
}

TEST_CASE("a sweep compiles names by the same rule as the tree walker", "[names][sweep]") {
  for (const bool compile : {true, false}) {
    Session s;
    s.load("let k = 2\n"
           "record b { x = 1\n y = floor(x * k / 3) }\n"
           "record d extends b { k = 10\n floor = 0 }\n"
           "sweep d over x in [1, 2, 3] show y\n");
    const auto sweeps = napkin::run_sweeps(s.in, s.module, compile);
    REQUIRE(sweeps.size() == 1);
    // floor(x · 2 / 3) with the let k = 2 and the builtin floor: 0, 1, 2.
    const double want[] = {0, 1, 2};
    for (std::size_t r = 0; r < 3; ++r) CHECK(sweeps[0].cell(r, 1).value.q.v == want[r]);
  }
}

TEST_CASE("a whole number that cannot be held exactly is an error naming its neighbours", "[whole]") {
  Session s;
  const std::string e = s.load_error("let n = 9007199254740993 param\n");
  CHECK(has(e, "error[E0403]"));
  CHECK(has(e, "test0.napkin:1:9"));
  // 2^53 + 1 lies between 2^53 and 2^53 + 2, the doubles on either side.
  CHECK(has(e, "9,007,199,254,740,992 and 9,007,199,254,740,994"));
  CHECK(has(e, "9.007199254740993e15"));
  // 2^54 + 1: doubles there are 4 apart.
  CHECK(has(Session().load_error("let n = 18_014_398_509_481_985\n"),
            "18,014,398,509,481,984 and 18,014,398,509,481,988"));
}

TEST_CASE("whole numbers that are held exactly are taken, as are decimals", "[whole]") {
  Session s;
  s.load("let a = 9007199254740992 param\nlet b = 9007199254740994\nlet c = 9.007199254740993e15\n"
         "let d = 1_000_000_000_000_000_000_000\n");
  CHECK(s.si("a") == 9007199254740992.0);  // 2^53
  CHECK(s.si("b") == 9007199254740994.0);  // 2^53 + 2, a double
  CHECK(s.si("c") == 9007199254740992.0);  // a decimal: the nearest double
  CHECK(s.si("d") == 1e21);                // 10^21 = 2^21 · 5^21, and 5^21 < 2^53
}

TEST_CASE("whole numbers held exactly compare exactly", "[whole]") {
  Session s;
  CHECK_FALSE(s.eval("4000000000000001 param == 4000000000000000 param").b);
  CHECK(s.eval("4000000000000001 param != 4000000000000000 param").b);
  CHECK(s.eval("4000000000000001 param > 4000000000000000 param").b);
  CHECK_FALSE(s.eval("9007199254740991 <= 9007199254740990").b);
  CHECK(s.eval("4000000000000000 param == 4e15 param").b);
  // Other values keep the four-ulp rule: the two conversions round apart.
  CHECK(s.eval("7.362 ms == 7362 us").b);
}

TEST_CASE("a range whose tail overflows is E0401 where it is written", "[ranges][overflow]") {
  Session s;
  std::string e = s.error("normal(1e308, 1e308)");
  CHECK(has(e, "error[E0401]"));
  CHECK(has(e, "<expr>:1:1"));
  // ln of its samples spreads 354.6 ± 215.6·3.9 past ln(1.8e308) = 709.8.
  e = s.error("p5(1 to 1e308)");
  CHECK(has(e, "error[E0401]"));
  CHECK(has(e, "<expr>:1:4"));
  // Samples an operation overflows are E0401 at the operation (its point
  // value, 1e285 · 1e20, does not overflow; the tail, 1e297 · 1e20, does).
  e = s.error("(1e280 to 1e290) * 1e20");
  CHECK(has(e, "error[E0401]: for some of the range's samples this overflows"));
  CHECK(has(e, "<expr>:1:1"));
}

TEST_CASE("uniform() with ends further apart than the largest double is still a uniform", "[ranges][overflow]") {
  Session s;
  // p5 and p95 of uniform(−1e308, 1e308): −1e308 + 5% · 2e308 = −9e307, and 9e307.
  CHECK(rel(s.si("p5(uniform(-1e308, 1e308))"), -9e307) < 1e-3);
  CHECK(rel(s.si("p95(uniform(-1e308, 1e308))"), 9e307) < 1e-3);
  CHECK(std::fabs(s.si("median(uniform(-1e308, 1e308))")) < 1e304);
  CHECK(s.show("uniform(-1e308, 1e308)").find("NaN") == std::string::npos);
  // The sd of a uniform is its width / √12: 2e308 / √12 = 1e308 / √3 = 5.774e307.
  CHECK(rel(s.si("sd(uniform(-1e308, 1e308))"), 1e308 / std::sqrt(3.0)) < 1e-3);
}

TEST_CASE("mean and sd of large samples do not overflow", "[ranges][overflow]") {
  Session s;
  // The sd of normal(m, s) is s and its mean m (stratified samples: within 0.1%).
  CHECK(rel(s.si("sd(normal(1e200, 1e200))"), 1e200) < 1e-3);
  CHECK(rel(s.si("sd(normal(0, 1e160))"), 1e160) < 1e-3);
  CHECK(rel(s.si("mean(normal(1e305, 1e303))"), 1e305) < 1e-6);  // the plain sum passes 1.8e308
  CHECK(std::isfinite(s.si("sd(1 to 1e150)")));
  // Where nothing overflows, the usual sums: √(Σ(x − x̄)² / (n − 1)), bit for bit.
  s.load("let x = normal(10, 2)\n");
  const napkin::Value x = s.eval("x");
  REQUIRE(x.samples);
  double sum = 0, ss = 0;
  for (double v : x.samples->v) sum += v;
  const double mean = sum / static_cast<double>(x.samples->v.size());
  for (double v : x.samples->v) ss += (v - mean) * (v - mean);
  CHECK(s.si("mean(x)") == mean);
  CHECK(s.si("sd(x)") == std::sqrt(ss / static_cast<double>(x.samples->v.size() - 1)));
}

TEST_CASE("a unit defined as a range is an error", "[ranges][units]") {
  Session s;
  const std::string e = s.load_error("unit foo = 1 s to 2 s\nlet t = 3 foo\n");
  CHECK(has(e, "error[E0212]"));
  CHECK(has(e, "test0.napkin:1:12"));
  CHECK(has(e, "unit foo = 1.414 s"));
}

TEST_CASE("an if on a comparison of ranges chooses sample by sample", "[ranges][if]") {
  Session s;
  s.load("let c = 1 ms to 3 ms\n"
         "let m = 2 ms\n"
         "let longer = if c >= m then c else m\n"
         "let bound = if c >= m then \"compute\" else \"memory\"\n"
         "let low = if c >= 0.1 ms then \"compute\" else \"memory\"\n"
         "let ratio = if c >= m then 1 else 1 ms\n");
  // `if c >= m then c else m` is max(c, m), sample for sample.
  CHECK(s.eval("prob(longer == max(c, m)) == 100%").b);
  CHECK(s.si("p5(longer)") == 2e-3);
  CHECK(s.si("p95(longer)") == s.si("p95(c)"));
  // c is lognormal with median √3 ms and σ = ln 3 / (2 · 1.645) = 0.3339:
  // P(c ≥ 2 ms) = 1 − Φ(ln(2/√3) / 0.3339) = 1 − Φ(0.4307) = 33.33%.
  const napkin::Value b = s.eval("bound");
  REQUIRE(b.kind == napkin::Value::Kind::String);
  CHECK(b.str() == "memory");
  REQUIRE(b.note);
  CHECK(has(*b.note, "in 66.6"));
  CHECK(has(*b.note, "of the samples; \"compute\" in the other 33.3"));
  // Every sample of c is above 0.1 ms: one branch, no note.
  const napkin::Value low = s.eval("low");
  CHECK(low.str() == "compute");
  CHECK_FALSE(low.note);
  const std::string e = s.error("ratio");
  CHECK(has(e, "error[E0213]"));
}

TEST_CASE("std/serving takes a bandwidth that is a range", "[ranges][stdlib]") {
  Session s;
  s.load("import \"std/models\"\nimport \"std/hardware\"\nimport \"std/serving\"\n"
         "scenario s extends serving {\n"
         "  model = llama3_8b\n"
         "  gpu = h100_sxm with { memory_bandwidth = super.memory_bandwidth * (60% to 85%) }\n"
         "}\n");
  // Batch 1 at 2,048 tokens reads 8,030,261,248 · 2 B of weights and
  // 2 · 32 · 8 · 128 · 2 B · 2,048 = 268,435,456 B of KV: 16,328,957,952 B
  // a step, at 3.35 TB/s · 60% (p95), · √(60% · 85%) (median), · 85% (p5).
  CHECK(s.eval("s.decode_bound").str() == "memory");
  CHECK(rel(s.si("median(s.step_time)"), 16328957952.0 / (3.35e12 * std::sqrt(0.6 * 0.85))) < 1e-3);
  CHECK(rel(s.si("p5(s.step_time)"), 16328957952.0 / (3.35e12 * 0.85)) < 2e-3);
  CHECK(rel(s.si("p95(s.step_time)"), 16328957952.0 / (3.35e12 * 0.6)) < 2e-3);
}
