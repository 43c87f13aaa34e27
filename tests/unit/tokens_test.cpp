#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "grammar/ast_equal.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "grammar/tokens.hpp"

using namespace napkin;

namespace {

const ast::Expr& parse(const std::string& text) {
  static std::deque<SourceFile> files;
  static std::deque<ast::ExprPtr> trees;
  files.push_back(SourceFile{"e", text, ""});
  trees.push_back(parse_expression(files.back()));
  return *trees.back();
}

std::string printed(const std::string& source, bool pretty = false) {
  TokenOptions o;
  o.pretty = pretty;
  return token_text(expression_tokens(parse(source), o));
}

// Each token as `Kind:text`, with `@N` for a break before it at binding N
// and `^D` for the brackets around it, space-separated where the text has
// a space: what a renderer reads.
std::string shape(const Tokens& t) {
  static const char* kinds[] = {"Name", "Number", "Unit",   "Op",   "Caret", "Key",
                                "Str",  "Text",   "Open",   "Close", "Punct"};
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i) out += t[i].space ? " " : "|";
    out += std::string(kinds[static_cast<int>(t[i].kind)]) + ":" + t[i].text;
    if (t[i].breaks >= 0) out += "@" + std::to_string(t[i].breaks);
    if (t[i].depth > 0) out += "^" + std::to_string(t[i].depth);
  }
  return out;
}

struct Case {
  const char* source;
  const char* text;    // as source: what fmt and diagnostics print
  const char* pretty;  // as a derivation prints it
};

}  // namespace

// Each expected line is written by hand from the grammar's precedence
// (docs/language.md, "Operators"): the fewest parentheses that keep the tree.
TEST_CASE("an expression prints with the fewest parentheses that keep its meaning", "[tokens]") {
  const Case c = GENERATE(values<Case>({
      {"a-(b-c)", "a - (b - c)", "a - (b - c)"},
      {"(a-b)-c", "a - b - c", "a - b - c"},
      {"a+(b+c)", "a + (b + c)", "a + (b + c)"},
      {"-x^2", "-x^2", "-x^2"},
      {"(-x)^2", "(-x)^2", "(-x)^2"},
      {"-(x^2)", "-x^2", "-x^2"},
      {"2^3^2", "2^3^2", "2^3^2"},
      {"(2^3)^2", "(2^3)^2", "(2^3)^2"},
      {"2^(-x)", "2^(-x)", "2^(-x)"},
      {"a/(b*c)", "a / (b * c)", "a / (b · c)"},
      {"a/b*c", "a / b * c", "(a / b) · c"},
      {"a*(b*c)", "a * (b * c)", "a · b · c"},
      {"(a+b)*c", "(a + b) * c", "(a + b) · c"},
      {"-(a+b)", "-(a + b)", "-(a + b)"},
      {"(2 m)^2", "(2 m)^2", "(2 m)^2"},
      {"x / (5.3 TB/s)", "x / (5.3 TB/s)", "x / (5.3 TB/s)"},
      {"x * 5.3 TB/s", "x * 5.3 TB/s", "x · 5.3 TB/s"},
      {"-(5.3 TB/s)", "-(5.3 TB/s)", "-(5.3 TB/s)"},
      {"$5/hour * 3", "$5/hour * 3", "$5/hour · 3"},
      {"40% * x", "40% * x", "40% · x"},
      {"(1 to 2) * 3", "(1 to 2) * 3", "(1 to 2) · 3"},
      {"2 * (1 to 3)", "2 * (1 to 3)", "2 · (1 to 3)"},
      {"1 to 2 * 3", "1 to 2 * 3", "1 to 2 · 3"},
      {"(a + 1) to 2", "a + 1 to 2", "a + 1 to 2"},
      {"(1 to 2) == x", "1 to 2 == x", "1 to 2 == x"},
      {"not (a and b)", "not (a and b)", "not (a and b)"},
      {"(not a) and b", "not a and b", "not a and b"},
      {"a or (b and c)", "a or b and c", "a or b and c"},
      {"(a or b) and c", "(a or b) and c", "(a or b) and c"},
      {"(a < b) and (c == d)", "a < b and c == d", "a < b and c == d"},
      {"f(a + b, n = 2*c)", "f(a + b, n = 2 * c)", "f(a + b, n = 2 · c)"},
      {"(f)(x)", "f(x)", "f(x)"},
      {"a.b.c(d).e", "a.b.c(d).e", "a.b.c(d).e"},
      {"(a + b).c", "(a + b).c", "(a + b).c"},
      {"(m with { a = 1 }).b", "(m with { a = 1 }).b", "(m with { a = 1 }).b"},
      {"m with { a: count = 1, b = x*2 }", "m with { a: count = 1, b = x * 2 }", "m with { a: count = 1, b = x · 2 }"},
      {"(m with { a = 1 }) with { b = 2 }", "(m with { a = 1 }) with { b = 2 }", "(m with { a = 1 }) with { b = 2 }"},
      {"if a > 0 then b else c", "if a > 0 then b else c", "if a > 0 then b else c"},
      {"(if a then 1 else 2) + 1", "(if a then 1 else 2) + 1", "(if a then 1 else 2) + 1"},
      {"if a then 1 else if b then 2 else 3", "if a then 1 else if b then 2 else 3", "if a then 1 else if b then 2 else 3"},
      {"f(if a then 1 else 2)", "f(if a then 1 else 2)", "f(if a then 1 else 2)"},
      {"(a + b) -> GiB", "a + b -> GiB", "a + b -> GiB"},
      {"(x -> GiB) * 2", "(x -> GiB) * 2", "(x -> GiB) · 2"},
      {"[1, 2 GB, \"s\"]", "[1, 2 GB, \"s\"]", "[1, 2 GB, \"s\"]"},
      {"measure(gpu.copy_bandwidth, threads = 4) else 4.8 TB/s",
       "measure(gpu.copy_bandwidth, threads = 4) else 4.8 TB/s", "measure(gpu.copy_bandwidth, threads = 4) else 4.8 TB/s"},
      {"(measure(cpu.stream) else 1 GB/s) * 2", "(measure(cpu.stream) else 1 GB/s) * 2",
       "(measure(cpu.stream) else 1 GB/s) · 2"},
      {"x == \"a (b) + c\"", "x == \"a (b) + c\"", "x == \"a (b) + c\""},
  }));
  INFO(c.source);
  CHECK(printed(c.source) == c.text);
  CHECK(printed(c.source, true) == c.pretty);
  // What prints parses back to the same tree. (A derivation's spelling
  // may regroup a product, `a · b · c`: the same number, another tree.)
  CHECK(ast_difference(parse(c.source), parse(c.text)) == "");
}

TEST_CASE("each token says what it is, where a line may break, and how deep in brackets it stands", "[tokens]") {
  const auto [source, want] = GENERATE(table<const char*, const char*>({
      {"2 TB/s * x", "Number:2 Unit:TB/s Op:*@8 Name:x"},
      {"a + b * c", "Name:a Op:+@7 Name:b Op:*@8 Name:c"},
      {"x^2", "Name:x|Caret:^|Number:2"},
      {"-x", "Op:-|Name:x"},
      {"f(a, n = 2)", "Name:f|Open:(|Name:a^1|Punct:,^1 Name:n^1 Punct:=^1 Number:2^1|Close:)"},
      {"(a - b) / c", "Open:(|Name:a^1 Op:-@7^1 Name:b^1|Close:) Op:/@8 Name:c"},
      {"1 to 2", "Number:1 Key:to@6 Number:2"},
      {"a and not b", "Name:a Key:and@3 Key:not Name:b"},
      {"x -> GiB", "Name:x Op:->@0 Unit:GiB"},
      {"if c then 1 else 2", "Key:if Name:c Key:then Number:1 Key:else Number:2"},
      {"m with { a = 1 }", "Name:m Key:with Open:{ Name:a^1 Punct:=^1 Number:1^1 Close:}"},
      {"model.layers", "Name:model.layers"},
      {"$2/hour", "Punct:$|Number:2|Unit:/hour"},
      {"[\"s\", 40%]", "Open:[|Str:s^1|Punct:,^1 Number:40%^1|Close:]"},
  }));
  INFO(source);
  CHECK(shape(expression_tokens(parse(source))) == want);
}

static TokenOptions o_pretty() {
  TokenOptions o;
  o.pretty = true;
  return o;
}

// A derivation replaces names by values; a value that reads ambiguously
// beside an operator takes parentheses there, one that does not stays bare.
TEST_CASE("a substituted operand is parenthesized where it would read ambiguously", "[tokens]") {
  const auto [source, value, want] = GENERATE(table<const char*, const char*, const char*>({
      {"a / v", "5.3 TB/s", "a / (5.3 TB/s)"},
      {"a / v", "7.362 ms", "a / 7.362 ms"},
      {"a * v", "5.3 TB/s", "a · 5.3 TB/s"},
      {"a - v", "-3", "a - (-3)"},
      {"a + v", "-3", "a + (-3)"},
      {"a * v", "-3", "a · (-3)"},
      {"-v", "5.3 TB/s", "-(5.3 TB/s)"},
      {"-v", "3 ms", "-3 ms"},
      {"v ^ 2", "2 m/s", "(2 m/s)^2"},
      {"a / v", "b * c", "a / (b · c)"},
      {"a * v", "b - c", "a · (b - c)"},
      {"a - v", "b + c", "a - (b + c)"},
      {"a + v", "b + c", "a + (b + c)"},
      {"a / v", "(b + c)", "a / (b + c)"},
      {"a and v", "b or c", "a and (b or c)"},
  }));
  INFO(source << " with v = " << value);
  const ast::Expr& shown = parse(value);
  TokenOptions o;
  o.pretty = true;
  o.substitute = [&](const ast::Expr& e) -> std::optional<Replacement> {
    if (e.kind != ast::ExprKind::Name || e.text != "v") return std::nullopt;
    Tokens t;
    if (shown.kind == ast::ExprKind::Negate && shown.items[0]->kind == ast::ExprKind::Number) {
      append_number(t, "-" + shown.items[0]->text, "", false);  // a value as a derivation shows it: one number
      return Replacement{t};
    }
    if (shown.kind == ast::ExprKind::Number) {
      append_number(t, shown.text, shown.unit ? shown.unit->text : "", false);
      return Replacement{t};
    }
    // An `if`'s branch, with its own binding; one written in brackets stays one operand.
    int bind = 0;
    t = expression_tokens(shown, o_pretty(), &bind);
    if (value[0] == '(') return Replacement{grouped(std::move(t))};
    return Replacement{t, bind};
  };
  CHECK(token_text(expression_tokens(parse(source), o)) == want);
}

// Random trees, printed and parsed back: the stream's parentheses keep
// every tree, and printing what it printed changes nothing.
TEST_CASE("printing then parsing gives the same tree, for random expressions", "[tokens]") {
  const unsigned seed = GENERATE(range(1u, 301u));
  std::mt19937 rng(seed);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  static const char* atoms[] = {"a", "b.c", "2", "3 GB", "5.3 TB/s", "40%", "$2/hour", "\"s\"", "true"};
  static const char* ops[] = {" + ", " - ", " * ", " / ", " and ", " or ", " == ", " < ", " to ", " ^ "};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    if (depth > 4) return atoms[pick(9)];
    switch (pick(9)) {
      case 0: return atoms[pick(9)];
      case 1: return "(-" + gen(depth + 1) + ")";
      case 2: return "(not " + gen(depth + 1) + ")";
      case 3: return "f(" + gen(depth + 1) + ", n = " + gen(depth + 1) + ")";
      case 4: return "(if " + gen(depth + 1) + " then " + gen(depth + 1) + " else " + gen(depth + 1) + ")";
      case 5: return "((" + gen(depth + 1) + ") -> GiB)";
      case 6: return "((m with { x = " + gen(depth + 1) + " }).y)";
      default: return "(" + gen(depth + 1) + ops[pick(10)] + gen(depth + 1) + ")";
    }
  };
  const std::string source = gen(0);
  INFO(source);
  const std::string once = printed(source);
  INFO(once);
  CHECK(ast_difference(parse(source), parse(once)) == "");
  CHECK(printed(once) == once);
  // A derivation's spelling reads `a · (b · c)` as `a · b · c`: the same
  // number, a different tree; printed again, it stays as it is.
  const std::string pretty = printed(source, true);
  INFO(pretty);
  CHECK(printed(pretty, true) == pretty);
}
