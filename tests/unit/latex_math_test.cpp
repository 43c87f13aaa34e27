#include <catch2/catch.hpp>

#include "interpreter/output/latex_math.hpp"

using napkin::break_lines;
using napkin::latex_math;
using napkin::latex_text;

TEST_CASE("names are upright text and units upright after a thin space", "[latex]") {
  CHECK(latex_math("batch · 1 token / weight_read_time") ==
        "\\text{batch} \\cdot 1\\,\\mathrm{token} / \\text{weight\\_read\\_time}");
  CHECK(latex_math("39.02 GB / (5.3 TB/s)") == "39.02\\,\\mathrm{GB} / ( 5.3\\,\\mathrm{TB/s} )");
  CHECK(latex_math("model.weight_bytes") == "\\text{model.weight\\_bytes}");
}

TEST_CASE("numbers with grouping and exponents and percent", "[latex]") {
  CHECK(latex_math("19,509,805,056 param") == "19{,}509{,}805{,}056\\,\\mathrm{param}");
  CHECK(latex_math("f(8_192 token)") == "\\text{f} ( 8{,}192\\,\\mathrm{token} )");
  CHECK(latex_math("1.756e23 FLOP") == "1.756 \\times 10^{23}\\,\\mathrm{FLOP}");
  CHECK(latex_math("11.22%") == "11.22\\,\\%");
  CHECK(latex_math("303.9 µs") == "303.9\\,\\mathrm{\\text{\\textmu}s}");
}

TEST_CASE("powers take the operand after the caret", "[latex]") {
  CHECK(latex_math("d^2 · 1 param") == "\\text{d}^{2} \\cdot 1\\,\\mathrm{param}");
  CHECK(latex_math("(a + b)^(n - 1)") == "( \\text{a} + \\text{b} )^{( \\text{n} - 1 )}");
  CHECK(latex_math("1 B^2") == "1\\,\\mathrm{B}^{2}");
}

TEST_CASE("keywords and comparisons and strings and conversions", "[latex]") {
  CHECK(latex_math("if x < ridge then \"memory\" else \"compute\"") ==
        "\\text{if}\\  \\text{x} < \\text{ridge} \\ \\text{then}\\  \\text{``memory''} \\ \\text{else}\\  \\text{``compute''}");
  CHECK(latex_math("a >= b") == "\\text{a} \\ge \\text{b}");
  CHECK(latex_math("x ≈ 31 / 3 within 0.0001%") == "\\text{x} \\approx 31 / 3 \\ \\text{within}\\  0.0001\\,\\%");
  CHECK(latex_math("x -> GiB") == "\\text{x} \\to\\,\\mathrm{GiB}");
  CHECK(latex_math("drill with { dtype = int8 }") == "\\text{drill} \\ \\text{with}\\  \\{ \\text{dtype} = \\text{int8} \\}");
}

TEST_CASE("LaTeX's special characters are escaped", "[latex]") {
  CHECK(latex_text("a_b 50% $5 #1 R&D {x} ~ ^ \\") ==
        "a\\_b 50\\% \\$5 \\#1 R\\&D \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}");
  CHECK(latex_text("3 µs · 2") == "3 \\textmu{}s $\\cdot$ 2");
  CHECK(latex_math("\"50% of $ & #\"") == "\\text{``50\\% of \\$ \\& \\#''}");
}

TEST_CASE("long derivations break at then and else and at plus or minus", "[latex]") {
  CHECK(break_lines("if a > 0 then b else c", 80) == std::vector<std::string>{"if a > 0", "then b", "else c"});
  CHECK(break_lines("(if a then b else c) + d", 80) == std::vector<std::string>{"(if a then b else c) + d"});
  CHECK(break_lines("aaaa + bbbb + cccc", 12) == std::vector<std::string>{"aaaa + bbbb", "+ cccc"});
  CHECK(break_lines("aaaa + bbbb + cccc", 10) == std::vector<std::string>{"aaaa", "+ bbbb", "+ cccc"});
  // Inside brackets only when the line is still too long: no line may run into the margin.
  CHECK(break_lines("f(a + b, c - d)", 80) == std::vector<std::string>{"f(a + b, c - d)"});
  CHECK(break_lines("f(a + b, c - d)", 8) == std::vector<std::string>{"f(a", "+ b, c", "- d)"});
}
