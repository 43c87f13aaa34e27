#include <catch2/catch.hpp>

#include "interpreter/output/latex_math.hpp"

using namespace napkin;

namespace {

// The formula as a derivation prints it (`·` for `*`), as LaTeX.
std::string math(const std::string& source) {
  static Interpreter in;
  return latex_math(term_of(in.parse_snippet("<test>", source)));
}

// An interpreter with the units std/units declares.
Interpreter& with_units() {
  static Interpreter in;
  static const bool loaded = in.load_std("units") != nullptr;
  (void)loaded;
  return in;
}

Dim dim(const char* unit) { return with_units().units().dimension(unit).value(); }

std::string value(const Value& v) { return latex_math(value_term(with_units(), v)); }

// Where the formula breaks, each piece as plain text.
std::vector<std::string> pieces(const std::string& source, std::size_t width) {
  static Interpreter in;
  std::vector<std::string> out;
  for (const auto& line : break_lines(term_of(in.parse_snippet("<test>", source)), width)) {
    std::string t;
    for (std::size_t i = 0; i < line.size(); ++i) t += (i && line[i].space ? " " : "") + line[i].text;
    out.push_back(t);
  }
  return out;
}

}  // namespace

TEST_CASE("names are upright text and units upright after a thin space", "[latex]") {
  CHECK(math("batch * 1 token / weight_read_time") ==
        "\\text{batch} \\cdot 1\\,\\mathrm{token} / \\text{weight\\_read\\_time}");
  CHECK(math("39.02 GB / (5.3 TB/s)") == "39.02\\,\\mathrm{GB} / ( 5.3\\,\\mathrm{TB/s} )");
  CHECK(math("model.weight_bytes") == "\\text{model.weight\\_bytes}");
}

TEST_CASE("numbers with grouping and exponents and percent", "[latex]") {
  CHECK(value(Value::quantity(19509805056, dim("param"))) == "19{,}509{,}805{,}056\\,\\mathrm{param}");
  CHECK(math("f(8_192 token)") == "\\text{f} ( 8{,}192\\,\\mathrm{token} )");
  CHECK(value(Value::quantity(1.756e23, dim("FLOP"))) == "1.756 \\times 10^{23}\\,\\mathrm{FLOP}");
  CHECK(math("11.22%") == "11.22\\,\\%");
  CHECK(value(Value::quantity(303.9e-6, dim("s"))) == "303.9\\,\\mathrm{\\text{\\textmu}s}");
  CHECK(value(Value::quantity(-3e-3, dim("s"))) == "- 3\\,\\mathrm{ms}");
}

TEST_CASE("powers take the operand after the caret", "[latex]") {
  CHECK(math("d^2 * 1 param") == "\\text{d}^{2} \\cdot 1\\,\\mathrm{param}");
  CHECK(math("(a + b)^(n - 1)") == "( \\text{a} + \\text{b} )^{( \\text{n} - 1 )}");
  CHECK(math("1 B^2") == "1\\,\\mathrm{B}^{2}");
}

TEST_CASE("keywords and comparisons and strings and conversions", "[latex]") {
  CHECK(math("if x < ridge then \"memory\" else \"compute\"") ==
        "\\text{if}\\  \\text{x} < \\text{ridge} \\ \\text{then}\\  \\text{``memory''} \\ \\text{else}\\  \\text{``compute''}");
  CHECK(math("a >= b") == "\\text{a} \\ge \\text{b}");
  CHECK(math("a == b and not c") == "\\text{a} = \\text{b} \\ \\text{and}\\  \\ \\text{not}\\  \\text{c}");
  CHECK(math("x -> GiB") == "\\text{x} \\to\\,\\mathrm{GiB}");
  CHECK(math("drill with { dtype = int8 }") == "\\text{drill} \\ \\text{with}\\  \\{ \\text{dtype} = \\text{int8} \\}");
  CHECK(math("[1, 8]") == "[ 1 , 8 ]");
}

TEST_CASE("LaTeX's special characters are escaped", "[latex]") {
  CHECK(latex_text("a_b 50% $5 #1 R&D {x} ~ ^ \\") ==
        "a\\_b 50\\% \\$5 \\#1 R\\&D \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}");
  CHECK(latex_text("3 µs · 2") == "3 \\textmu{}s $\\cdot$ 2");
  CHECK(math("\"50% of $ & #\"") == "\\text{``50\\% of \\$ \\& \\#''}");
}

TEST_CASE("long derivations break at then and else and at plus or minus", "[latex]") {
  CHECK(pieces("if a > 0 then b else c", 80) == std::vector<std::string>{"if a > 0", "then b", "else c"});
  CHECK(pieces("(if a then b else c) + d", 80) == std::vector<std::string>{"(if a then b else c) + d"});
  CHECK(pieces("aaaa + bbbb + cccc", 12) == std::vector<std::string>{"aaaa + bbbb", "+ cccc"});
  CHECK(pieces("aaaa + bbbb + cccc", 10) == std::vector<std::string>{"aaaa", "+ bbbb", "+ cccc"});
  // Inside brackets only when the line is still too long: no line may run into the margin.
  CHECK(pieces("f(a + b, c - d)", 80) == std::vector<std::string>{"f(a + b, c - d)"});
  CHECK(pieces("f(a + b, c - d)", 8) == std::vector<std::string>{"f(a", "+ b, c", "- d)"});
  // A negative value is no place to break.
  CHECK(pieces("aaaa * -bbbb", 4) == std::vector<std::string>{"aaaa", "· -bbbb"});
}
