// Sweeps: every point equals the record evaluated with that point's values,
// whatever the sweep shares between points or frees as it goes.
#include <catch2/catch.hpp>

#include <string>

#include "interpreter/sweep/sweep.hpp"
#include "support.hpp"

using napkin::test::Session;

namespace {

// The sweep's cell at `row`, `column`, next to the same field of
// `target with { ... }` evaluated directly.
void check_points(Session& s, const napkin::SweepResult& sweep, const std::string& target) {
  for (const auto& row : sweep.rows()) {
    std::string with;
    for (std::size_t k = 0; k < sweep.inputs.size(); ++k)
      with += (k ? ", " : "") + sweep.inputs[k] + " = " + s.in.show(row[k].value);
    for (std::size_t c = 0; c < sweep.columns.size(); ++c) {
      const std::string expr = "(" + target + " with { " + with + " })." + sweep.columns[c];
      INFO(expr);
      REQUIRE(row[sweep.inputs.size() + c].ok);
      CHECK(s.in.show(row[sweep.inputs.size() + c].value) == s.show(expr));
    }
  }
}

}  // namespace

TEST_CASE("a sweep's points equal the record evaluated at each point", "[sweep]") {
  Session s;
  s.load("record part { size = 2 GB }\n"
         "record link {\n"
         "  n: count\n"
         "  bw: B/s\n"
         "  payload = part.size\n"                    // independent: shared between points
         "  scaled = part with { size = payload * n }\n"  // a record made at every point
         "  t = scaled.size / bw -> ms\n"
         "  tag = if n > 2 then \"many\" else \"few\"\n"
         "}\n"
         "sweep link over n in [1, 2, 3, 4], bw in [50 GB/s, 100 GB/s] show t, tag, payload\n");
  auto sweeps = napkin::run_sweeps(s.in, s.module);
  REQUIRE(sweeps.size() == 1);
  REQUIRE(sweeps[0].row_count() == 8);
  check_points(s, sweeps[0], "link");
  CHECK(s.in.show(sweeps[0].cell(7, 2).value) == "80 ms");  // 4 × 2 GB at 100 GB/s
  CHECK(s.in.show(sweeps[0].cell(7, 3).value) == "\"many\"");
}

TEST_CASE("a sweep may show a record made at each point", "[sweep]") {
  Session s;
  s.load("record part { size = 1 GB }\n"
         "record link {\n"
         "  n: count\n"
         "  scaled = part with { size = 1 GB * n }\n"
         "  again = scaled with { size = scaled.size * 2 }\n"
         "}\n"
         "sweep link over n in [1, 2, 3] show scaled, again\n");
  auto sweeps = napkin::run_sweeps(s.in, s.module);
  REQUIRE(sweeps[0].row_count() == 3);
  for (std::size_t p = 0; p < 3; ++p) {
    const auto row = sweeps[0].rows()[p];
    REQUIRE(row[1].value.kind == napkin::Value::Kind::Record);
    // The shown records' fields are still there to ask for after the sweep.
    const napkin::Value size = s.in.field(row[2].value.rec, 0, napkin::Span{});
    CHECK(size.q.v == Approx(2e9 * static_cast<double>(p + 1)));
  }
}
