// Ranges as values: `a to b` recovers its ends as the 5th and 95th
// percentiles, a range used twice is the same samples, results are the same
// on every run, and a range meets every operator and builtin sample by sample.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "interpreter/analysis/sensitivity.hpp"
#include "interpreter/core/samples.hpp"
#include "interpreter/layout/formatter.hpp"
#include "support.hpp"

using napkin::Interpreter;
using napkin::Options;
using napkin::Value;
using napkin::test::Session;

namespace {

struct Ranges {
  Interpreter in;
  napkin::Module* module = nullptr;
  explicit Ranges(std::size_t samples = napkin::kDefaultSamples) : in(make(samples)) {}
  static Options make(std::size_t n) {
    Options o;
    o.samples = n;
    return o;
  }
  int loaded = 0;
  void load(const std::string& text) {
    module = in.load_source("ranges" + std::to_string(loaded++) + ".napkin", text, "");
  }
  Value eval(const std::string& expr) {
    return in.eval_in(module ? module : in.prelude(), in.parse_snippet("<expr>", expr));
  }
  std::string show(const std::string& expr) { return in.show(eval(expr)); }
  std::string error(const std::string& expr) {
    try {
      eval(expr);
    } catch (const napkin::Error& e) {
      return render(e.diagnostic());
    }
    return "";
  }
};

double rel(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

}  // namespace

TEST_CASE("normal_quantile is the standard normal's inverse", "[ranges]") {
  CHECK(napkin::normal_quantile(0.5) == 0);
  CHECK(std::fabs(napkin::normal_quantile(0.95) - 1.6448536269514722) < 2e-9);
  CHECK(std::fabs(napkin::normal_quantile(0.05) + 1.6448536269514722) < 2e-9);
  CHECK(std::fabs(napkin::normal_quantile(0.975) - 1.959963984540054) < 3e-9);
  CHECK(std::fabs(napkin::normal_quantile(1e-6) + 4.753424308822899) < 1e-8);
}

TEST_CASE("5 to 10 recovers its 5th and 95th percentiles within 1% at 100k samples", "[ranges]") {
  Ranges r(100'000);
  r.load("let x = 5 to 10\nlet y = -5 to 10\n");
  const Value x = r.eval("x");
  REQUIRE(x.samples);
  CHECK(x.samples->v.size() == 100'000);
  const auto& s = x.samples->summary();
  CHECK(rel(s.p5, 5) < 0.01);
  CHECK(rel(s.p95, 10) < 0.01);
  CHECK(rel(s.p50, std::sqrt(50.0)) < 0.001);  // lognormal: the median is the geometric mean
  CHECK(x.q.v == Approx(std::sqrt(50.0)));     // the point value is the median
  // Stratified samples land closer than 1%: within a sample's spacing.
  CHECK(rel(s.p5, 5) < 1e-4);
  CHECK(rel(s.p95, 10) < 1e-4);
  // An end at or below zero: normal.
  const auto& n = r.eval("y").samples->summary();
  CHECK(std::fabs(n.p5 + 5) < 0.01 * 5);
  CHECK(rel(n.p95, 10) < 0.01);
  CHECK(rel(n.mean, 2.5) < 1e-9);
  CHECK(r.eval("p5(x)").q.v == s.p5);
  CHECK(r.eval("p95(x)").q.v == s.p95);
  CHECK(r.eval("median(x)").q.v == s.p50);
  CHECK(r.eval("quantile(x, 5%)").q.v == Approx(s.p5).epsilon(1e-12));
}

TEST_CASE("a range used twice is the same samples: x - x is exactly 0", "[ranges]") {
  Ranges r;
  r.load("let x = 35% to 55%\nlet z = x - x\nlet q = x / x\nlet w = 35% to 55%\n");
  const Value z = r.eval("z");
  CHECK_FALSE(z.samples);  // every sample 0: a plain number
  CHECK(z.q.v == 0);
  CHECK(r.eval("z == 0").b);
  CHECK(r.eval("q").q.v == 1);
  // Written twice, two ranges: independent, so their difference is spread.
  const Value d = r.eval("x - w");
  REQUIRE(d.samples);
  CHECK(d.samples->summary().sd > 0.05);
  // A record made by `with` draws its range from the same place.
  r.load("scenario s {\n  mfu = 35% to 55%\n  batch = 8\n  rate = batch * mfu\n}\nlet t = s with { batch = 16 }\n");
  CHECK(r.eval("sd(t.rate / s.rate - 2)").q.v == 0);
}

TEST_CASE("ranges are the same bytes on every run, and differ by where they are written", "[ranges]") {
  auto shown = [] {
    Ranges r;
    r.load("let a = 1 GB to 3 GB\nlet b = normal(10 ms, 1 ms)\nlet c = uniform(2, 4)\nlet d = a / b * c\n");
    return r.show("d") + " | " + r.show("a") + " | " + r.show("b") + " | " + r.show("c");
  };
  const std::string first = shown();
  CHECK(first == shown());
  CHECK(first.find("(90%: ") != std::string::npos);
  // Same text, another occurrence: another stream.
  const auto s1 = napkin::range_seed("f.napkin", "x = 1 to 2\ny = 1 to 2\n", 4, "1 to 2");
  const auto s2 = napkin::range_seed("f.napkin", "x = 1 to 2\ny = 1 to 2\n", 15, "1 to 2");
  const auto s3 = napkin::range_seed("dir/f.napkin", "x = 1 to 2\ny = 1 to 2\n", 4, "1 to 2");
  CHECK(s1 != s2);
  CHECK(s1 == s3);  // the directory does not count
}

TEST_CASE("a range prints as its median and its 90% interval", "[ranges]") {
  Ranges r;
  CHECK(r.show("100 token/s to 200 token/s") == "141.4 token/s (90%: 100–200)");
  CHECK(r.show("35% to 55%") == "43.87% (90%: 35–55)");
  CHECK(r.show("(1 GB to 2 GB) -> GiB") == "1.317 GiB (90%: 0.931–1.86)");
  CHECK(r.show("5 to 5") == "5");
  CHECK(r.show("uniform(0 ms, 10 ms)") == "5 ms (90%: 0.5–9.5)");
}

TEST_CASE("operators and builtins work sample by sample", "[ranges]") {
  Ranges r;
  r.load("let x = 2 to 8\nlet t = 1 ms to 4 ms\n");
  const Value y = r.eval("max(x, 4)");
  REQUIRE(y.samples);
  for (double v : y.samples->v) CHECK(v >= 4);
  const Value sq = r.eval("sqrt(x * x)");
  const Value x = r.eval("x");
  for (std::size_t i = 0; i < 100; ++i) CHECK(sq.samples->v[i] == Approx(x.samples->v[i]));
  CHECK(r.eval("-x").samples->summary().p95 == Approx(-x.samples->summary().p5));
  const Value up = r.eval("ceil(x)");
  for (double v : up.samples->v) CHECK(v == std::ceil(v));
  CHECK(r.eval("sum([x, x, 1])").samples->summary().p50 == Approx(2 * x.samples->summary().p50 + 1));
  CHECK(r.eval("p95(1 / t)").q.v == Approx(1 / r.eval("p5(t)").q.v).epsilon(1e-3));
  CHECK(r.eval("median(4)").q.v == 4);
  CHECK(r.eval("sd(4 GB)").q.v == 0);
}

TEST_CASE("ranges meet comparisons, checks and bad ends with clear errors", "[ranges]") {
  Ranges r;
  r.load("let x = 1 GB to 2 GB\n");
  CHECK(r.error("x <= 80 GB").find("E0211") != std::string::npos);
  CHECK(r.error("x <= 80 GB").find("p95(x)") != std::string::npos);
  CHECK(r.error("p95(x) <= 80 GB").empty());
  CHECK(r.eval("p95(x) <= 80 GB").b);
  CHECK(r.error("1 GB to 2 s").find("E0210") != std::string::npos);
  CHECK(r.error("2 to 1").find("E0402") != std::string::npos);
  CHECK(r.error("(1 to 2) to 3").find("E0402") != std::string::npos);
  CHECK(r.error("normal(1, -1)").find("E0402") != std::string::npos);
  CHECK(r.error("1 / (-1 to 1)").find("E0400") != std::string::npos);
  CHECK(r.error("ln(-1 to 1)").find("E0401") != std::string::npos);
  CHECK(r.error("2 GB ^ (1 to 2)").find("E0205") != std::string::npos);
  CHECK(r.error("quantile(x, 2)").find("E0306") != std::string::npos);
}

TEST_CASE("sensitivity gives a range input its share of the variance", "[ranges]") {
  Ranges r;
  r.load(
      "scenario s {\n"
      "  a = 1 to 10\n"
      "  b = 1 to 1.1\n"
      "  k = 3\n"
      "  y = k * a * b\n"
      "}\n");
  auto res = napkin::sensitivity(r.in, r.module, "s.y");
  REQUIRE(res.has_ranges);
  const napkin::SensitivityInput* a = nullptr;
  const napkin::SensitivityInput* b = nullptr;
  for (const auto& i : res.inputs) {
    if (i.label == "s.a") a = &i;
    if (i.label == "s.b") b = &i;
  }
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(a->has_share);
  REQUIRE(b->has_share);
  CHECK(a->variance_share > 0.95);
  CHECK(b->variance_share < 0.05);
  CHECK(a->ok);
  CHECK(a->elasticity == 1);  // exact at the point value
}

TEST_CASE("prob() is the share of samples for which a condition holds", "[ranges]") {
  Ranges r(100'000);
  r.load("let x = 5 to 10\nlet y = 5 to 10\n");
  CHECK(r.eval("prob(x <= 5)").q.v == Approx(0.05).margin(1e-3));
  CHECK(r.eval("prob(x >= 10)").q.v == Approx(0.05).margin(1e-3));
  CHECK(r.eval("prob(x - x == 0)").q.v == 1);
  CHECK(r.eval("prob(x > 5 and x < 10)").q.v == Approx(0.9).margin(1e-3));
  CHECK(r.eval("prob(not (x > 5) or x >= 10)").q.v == Approx(0.1).margin(1e-3));
  CHECK(r.eval("prob(x < y)").q.v == Approx(0.5).margin(0.01));  // independent
  CHECK(r.eval("prob(1 < 2)").q.v == 1);
  CHECK(r.show("prob(x <= 5)").back() == '%');
  CHECK(r.error("prob(x)").find("E0207") != std::string::npos);
  CHECK(r.error("prob(x <= 5 GB)").find("E0202") != std::string::npos);
}

TEST_CASE("a range of a few samples has its median and interval between its samples", "[ranges]") {
  for (std::size_t n : {2, 3, 4, 5, 7, 20, 101}) {
    Ranges r(n);
    const Value x = r.eval("1 to 2");
    REQUIRE(x.samples);
    std::vector<double> sorted(x.samples->v.begin(), x.samples->v.end());
    std::sort(sorted.begin(), sorted.end());
    const auto& s = x.samples->summary();
    for (auto [q, got] : {std::pair{0.05, s.p5}, std::pair{0.5, s.p50}, std::pair{0.95, s.p95}}) {
      const double h = q * static_cast<double>(n - 1);
      const auto k = static_cast<std::size_t>(h);
      const double want = k + 1 < n ? sorted[k] + (h - static_cast<double>(k)) * (sorted[k + 1] - sorted[k]) : sorted[k];
      CHECK(got == Approx(want).epsilon(1e-12));
      CHECK(x.samples->quantile(q) == Approx(want).epsilon(1e-12));
    }
  }
}

TEST_CASE("`to` binds looser than arithmetic, and `solve` is a statement only as one", "[ranges]") {
  napkin::SourceFile f{"t.napkin",
                       "let r = 1 + 2 to 3 * 4\n"
                       "solve = 3\n"
                       "scenario s {\n  to = 1\n  x = to\n  y = x to 2\n}\n"
                       "solve s.inner for x in [1, 2] min where y >= 3\n"
                       "solve s for x where y == 2\n",
                       ""};
  const napkin::ast::Module m = napkin::parse_module(f);
  REQUIRE(m.statements.size() == 5);
  const auto& r = *m.statements[0].value;
  CHECK(r.op == napkin::ast::BinOp::To);
  CHECK(r.items[0]->op == napkin::ast::BinOp::Add);
  CHECK(r.items[1]->op == napkin::ast::BinOp::Mul);
  CHECK(m.statements[1].kind == napkin::ast::StmtKind::Let);  // `solve = 3`
  const auto& st = m.statements[3];
  REQUIRE(st.kind == napkin::ast::StmtKind::Solve);
  CHECK(st.name == "s.inner");
  CHECK(st.record_kind == "min");
  REQUIRE(st.sweep_vars.size() == 1);
  CHECK(st.sweep_vars[0].name == "x");
  REQUIRE(st.sweep_vars[0].values);
  CHECK(st.sweep_vars[0].values->items.size() == 2);
  CHECK(m.statements[4].record_kind == "where");
  CHECK_FALSE(m.statements[4].sweep_vars[0].values);
  // The canonical layout reads back the same.
  const std::string laid_out = napkin::format_source(f);
  CHECK(laid_out.find("solve s.inner for x in [1, 2] min where y >= 3\n") != std::string::npos);
  CHECK(laid_out.find("y  = x to 2") != std::string::npos);
  napkin::SourceFile again{"t.napkin", laid_out, ""};
  CHECK(napkin::format_source(again) == laid_out);
}

TEST_CASE("a large sample buffer is aligned to 2 MiB and holds what is written", "[ranges]") {
  // 300,000 samples (2.4 MB) are past the 2 MiB where huge pages are asked
  // for; 100 (800 B) are not.
  for (const std::size_t n : {std::size_t{100}, std::size_t{300'000}}) {
    napkin::SampleVector v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) * 0.5;
    if (n >= 262'144) CHECK(reinterpret_cast<std::uintptr_t>(v.data()) % (std::size_t{2} << 20) == 0);
    CHECK(v.front() == 0);
    CHECK(v[n / 2] == static_cast<double>(n / 2) * 0.5);
    CHECK(v.back() == static_cast<double>(n - 1) * 0.5);
    napkin::SampleVector copy(v.begin(), v.end());
    CHECK(copy == v);
  }
}

TEST_CASE("a million-sample range's arithmetic is the same in a fresh buffer and a reused one", "[ranges]") {
  // A buffer is not cleared before it is written, and a freed one is kept
  // for the next of its size: what a dropped result left there must never
  // show through.
  Ranges r(1'000'000);
  r.load("let a = 1 to 2\nlet b = 3 to 4\n");
  const Value fresh = r.eval("a * 2 + b");
  (void)r.eval("a * 3 - b * 7");  // made and dropped: its buffers are free again
  const Value reused = r.eval("a * 2 + b");
  REQUIRE(fresh.samples);
  REQUIRE(reused.samples);
  REQUIRE(fresh.samples->v.size() == 1'000'000);
  CHECK(fresh.samples->v == reused.samples->v);
  CHECK(fresh.samples->summary().p50 == reused.samples->summary().p50);
}
