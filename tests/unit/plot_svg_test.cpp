#include <catch2/catch.hpp>

#include "interpreter/plot/svg.hpp"

namespace svg = napkin::svg;

TEST_CASE("decade ranges are whole decades and wide enough", "[plot]") {
  CHECK(svg::decade_range(0.5, 2234) == std::pair<double, double>{0.1, 1e4});
  CHECK(svg::decade_range(1, 10) == std::pair<double, double>{1, 10});
  auto [lo, hi] = svg::decade_range(100, 300, 3);
  CHECK(hi / lo == Approx(1000));
  CHECK(svg::decade_ticks(0.1, 1000) == std::vector<double>{0.1, 1, 10, 100, 1000});
  CHECK(svg::minor_ticks(1, 10).size() == 8);
}

TEST_CASE("linear ticks step by 1 or 2 or 5 and start at zero", "[plot]") {
  auto [lo, hi] = svg::nice_range(3, 87);
  CHECK(lo == 0);
  CHECK(hi == 100);
  CHECK(svg::nice_ticks(0, 100) == std::vector<double>{0, 20, 40, 60, 80, 100});
}

TEST_CASE("axes map values to pixels", "[plot]") {
  svg::Axis log{1, 1000, true, 0, 300};
  CHECK(log.at(10) == Approx(100));
  svg::Axis lin{0, 10, false, 500, 100};
  CHECK(lin.at(5) == Approx(300));
}

TEST_CASE("tick labels and SVG text", "[plot]") {
  CHECK(svg::number(0.1) == "0.1");
  CHECK(svg::number(10000) == "10,000");
  CHECK(svg::number(1e7) == "1e7");
  CHECK(svg::number(0.0001) == "1e-4");
  CHECK(svg::escape("a < b & \"c\"") == "a &lt; b &amp; &quot;c&quot;");
}
