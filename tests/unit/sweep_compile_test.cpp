// Compiled sweeps: every cell the compiled program gives is the cell the
// tree walker gives at that point, to the bit, with the same unit, display
// and note; where the compiler cannot take a sweep, or a point would stop
// with an error, the table and the error are the tree walker's.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "grammar/diagnostic.hpp"
#include "interpreter/core/samples.hpp"
#include "interpreter/plot/plot.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/sweep/sweep.hpp"
#include "support.hpp"

using napkin::SweepResult;
using napkin::test::Session;

namespace {

struct Outcome {
  std::vector<SweepResult> sweeps;
  std::string error;  // the rendered diagnostic: the sweep stopped, or one of its points failed
};

Outcome sweep(Session& s, bool compile) {
  Outcome o;
  try {
    o.sweeps = napkin::run_sweeps(s.in, s.module, compile);
    for (const SweepResult& r : o.sweeps)
      if (r.first_error && o.error.empty()) o.error = napkin::render(*r.first_error);
  } catch (const napkin::Error& e) {
    o.error = napkin::render(e.diagnostic());
  }
  return o;
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Runs the file's sweeps compiled and walked, in two interpreters, and
// compares every cell. Returns whether each sweep was compiled.
std::vector<bool> same_both_ways(const std::string& source, const std::string& path = "") {
  Session compiled, walked;
  if (path.empty()) {
    compiled.load(source);
    walked.load(source);
  } else {
    compiled.module = compiled.in.load_file(path);
    walked.module = walked.in.load_file(path);
  }
  const Outcome a = sweep(compiled, true);
  const Outcome b = sweep(walked, false);
  REQUIRE(a.error == b.error);
  REQUIRE(a.sweeps.size() == b.sweeps.size());
  std::vector<bool> out;
  for (std::size_t i = 0; i < a.sweeps.size(); ++i) {
    const SweepResult& x = a.sweeps[i];
    const SweepResult& y = b.sweeps[i];
    REQUIRE_FALSE(y.compiled);
    REQUIRE(x.row_count() == y.row_count());
    REQUIRE(x.width() == y.width());
    for (std::size_t r = 0; r < x.row_count(); ++r)
      for (std::size_t c = 0; c < x.width(); ++c) {
        const napkin::SweepCell p = x.cell(r, c), q = y.cell(r, c);
        INFO("sweep " << i << ", row " << r << ", column " << c);
        REQUIRE(p.ok == q.ok);
        REQUIRE(p.needs == q.needs);
        REQUIRE(p.error == q.error);
        REQUIRE(p.value.kind == q.value.kind);
        if (p.value.kind == napkin::Value::Kind::Quantity) {
          REQUIRE(bits(p.value.q.v) == bits(q.value.q.v));
          REQUIRE(p.value.q.dim == q.value.q.dim);
        }
        REQUIRE(compiled.in.show(p.value) == walked.in.show(q.value));
        REQUIRE((p.value.note ? *p.value.note : "") == (q.value.note ? *q.value.note : ""));
      }
    REQUIRE(napkin::sweep_text(compiled.in, x) == napkin::sweep_text(walked.in, y));
    REQUIRE(napkin::sweep_csv(compiled.in, x) == napkin::sweep_csv(walked.in, y));
    out.push_back(x.compiled);
  }
  return out;
}

}  // namespace

TEST_CASE("exercise 1's decode sweep compiles, and every point equals the tree walker's", "[sweep][compile]") {
  const auto path = std::filesystem::path(NAPKIN_SOURCE_DIR) / "bench" / "decode_sweep.napkin";
  CHECK(same_both_ways("", path.generic_string()) == std::vector<bool>{true});
}

TEST_CASE("a compiled sweep keeps displays, percentages, notes and booleans", "[sweep][compile]") {
  CHECK(same_both_ways("record link {\n"
                       "  n: count\n"
                       "  bw: B/s\n"
                       "  share = 25%\n"
                       "  size = 2 GB * n\n"
                       "  t = size / bw -> ms\n"
                       "  slow = t > 30 ms\n"
                       "  busy = share * n\n"
                       "  clamp = min(max(t, 10 ms), 50 ms)\n"
                       "  root = sqrt(n * 1 GB^2)\n"
                       "  steps = ceil(size / 1 GB) + floor(n / 3) + round(n / 2) + log2(n) + ln(n) + exp(-n)\n"
                       "  sign = -abs(size - 4 GB)\n"
                       "  either = slow or n == 2\n"
                       "  both = not slow and n != 2\n"
                       "  power = (n / 2)^1.5 + 2^n\n"
                       "}\n"
                       "sweep link over n in [1, 2, 3, 4], bw in [50 GB/s, 100 GB/s, 0.4 TB/s]\n"
                       "  show t, slow, busy, clamp, root, steps, sign, either, both, power\n"
                       "sweep link over bw in [10 GB/s, 20 GB/s] show t, share\n")  // t needs n: walked
        == std::vector<bool>{true, false});
}

TEST_CASE("a compiled sweep inlines functions with defaults and named arguments", "[sweep][compile]") {
  CHECK(same_both_ways("fn step(bytes, bw, batch = 1, extra = 0 B) = (bytes + batch * extra) / bw\n"
                       "fn rate(bytes, bw, batch = 1) = batch * 1 token / step(bytes, bw, batch = batch, extra = 1 MB)\n"
                       "record hw { bw = 3 TB/s }\n"
                       "record decode {\n"
                       "  batch = 1\n"
                       "  gpu = hw\n"
                       "  weights = 16 GB\n"
                       "  tps = rate(weights, gpu.bw, batch)\n"
                       "  bound = if batch > 8 then tps * 2 else tps\n"
                       "}\n"
                       "sweep decode over batch in [1, 2, 4, 8, 16, 32] show tps, bound\n") == std::vector<bool>{true});
}

TEST_CASE("a point that would stop is the tree walker's, value or error", "[sweep][compile]") {
  // x = 0 divides by zero only in the branch not taken: the compiled program
  // marks the point, and the tree walker gives its value.
  CHECK(same_both_ways("record r {\n"
                       "  x = 1\n"
                       "  y = if x == 0 then 0 else 1 / x\n"
                       "}\n"
                       "sweep r over x in [-1, 0, 1, 2] show y\n") == std::vector<bool>{true});
  // A division by zero in the formula itself: the error at the third point,
  // whose cell shows it; the other points stand.
  const auto stops = [] {
    Session s;
    s.load("record r {\n  x = 1\n  y = 1 / (x - 2)\n}\nsweep r over x in [0, 1, 2, 3] show y\n");
    return sweep(s, true).error;
  }();
  CHECK(stops.find("E0400") != std::string::npos);
  CHECK(stops.find("at the point x = 2 of sweep r over x") != std::string::npos);
  CHECK(same_both_ways("record r {\n  x = 1\n  y = 1 / (x - 2)\n}\nsweep r over x in [0, 1, 2, 3] show y\n").size() == 1);
  CHECK(same_both_ways("record r {\n  x = 1\n  y = 10^(300 * x)\n}\nsweep r over x in [0, 1, 2] show y\n").size() == 1);
}

TEST_CASE("what the compiler does not take is left to the tree walker", "[sweep][compile]") {
  // A string per point, a record made per point, a missing input, a value
  // of the wrong type, values of two dimensions.
  CHECK(same_both_ways("record r {\n  n = 1\n  tag = if n > 2 then \"many\" else \"few\"\n}\n"
                       "sweep r over n in [1, 2, 3] show tag\n") == std::vector<bool>{false});
  CHECK(same_both_ways("record part { size = 1 GB }\nrecord r {\n  n = 1\n  p = part with { size = 1 GB * n }\n"
                       "  s = p.size\n}\nsweep r over n in [1, 2] show s\n") == std::vector<bool>{false});
  CHECK(same_both_ways("record r {\n  n = 1\n  m: count\n  y = n * m\n}\nsweep r over n in [1, 2] show y\n") ==
        std::vector<bool>{false});
  CHECK(same_both_ways("record r {\n  n: count\n  y = n * 2\n}\nsweep r over n in [1, 2 GB] show y\n").empty());
  CHECK(same_both_ways("record r {\n  n = 1 s\n  y = n * 2\n}\nsweep r over n in [1 s, 2 ms -> ms] show y\n") ==
        std::vector<bool>{false});
}

TEST_CASE("a range in a sweep is kept whole: its cells show the interval, CSV and JSON its percentiles", "[sweep][compile]") {
  const std::string source =
      "record decode {\n"
      "  batch = 1\n"
      "  frac = 80% to 90%\n"
      "  rate = batch * 1 token / (1 ms / frac)\n"
      "  plain = batch * 1 token/s\n"
      "}\n"
      "sweep decode over batch in [1, 2] show rate, plain\n";
  CHECK(same_both_ways(source) == std::vector<bool>{false});  // a range is samples: the tree walker's
  Session s;
  s.load(source);
  const auto sweeps = napkin::run_sweeps(s.in, s.module);
  const napkin::SweepCell rate = sweeps[0].cell(1, 1);
  REQUIRE(napkin::is_range(rate.value));
  // Twice the batch, twice every sample: 2 token/ms × (80% to 90%).
  CHECK(s.in.show(rate.value) == "1,697 token/s (90%: 1,600–1,800)");
  const std::string csv = napkin::sweep_csv(s.in, sweeps[0]);
  INFO(csv);
  CHECK(csv.rfind("batch,rate (token/s),rate p5 (token/s),rate p95 (token/s),plain (token/s)\n", 0) == 0);
  const napkin::RangeSummary& q = napkin::range_summary(rate.value);
  CHECK(q.p5 == Approx(1600).epsilon(1e-3));
  CHECK(q.p95 == Approx(1800).epsilon(1e-3));
  CHECK(csv.find(fmt::format("\n2,{},{},{},2\n", q.p50, q.p5, q.p95)) != std::string::npos);
  // The plot draws the median as the line and the 90% interval as a band
  // behind it: one band, for `rate`; `plain` has none.
  const std::string svg = napkin::sweep_svg(s.in, sweeps[0]);
  std::size_t bands = 0;
  for (std::size_t at = svg.find("fill-opacity=\"0.18\""); at != std::string::npos; at = svg.find("fill-opacity=\"0.18\"", at + 1))
    ++bands;
  CHECK(bands == 1);
}
