#include <catch2/catch.hpp>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "support.hpp"

using namespace napkin;

namespace {

ast::Module parse(const std::string& text) {
  static std::deque<SourceFile> files;
  files.push_back(SourceFile{"p.napkin", text, ""});
  return parse_module(files.back());
}

std::string reprint(const std::string& expr) {
  static std::deque<SourceFile> files;
  files.push_back(SourceFile{"e", expr, ""});
  return print_expr(*parse_expression(files.back()));
}

std::string parse_error(const std::string& text) {
  static std::deque<SourceFile> files;
  files.push_back(SourceFile{"bad.napkin", text, ""});
  try {
    parse_module(files.back());
  } catch (const Error& e) {
    return render(e.diagnostic());
  }
  return "";
}

}  // namespace

TEST_CASE("every statement kind parses", "[parser]") {
  auto m = parse(R"(# a comment
import "std/transformer"
unit request
unit GPU_hour = 1 hour
let x = 2
y = 3
fn ring(bytes, n, bw = 1 GB/s) = 2 * (n - 1) / n * bytes / bw
model m extends transformer {
  layers: count
  width: count = 2
  name = "m"
}
scenario s = m with { layers = 4 }
check x == 2
check x ≈ 2 within 1%
check y ~= 3 within 0.5
)");
  REQUIRE(m.statements.size() == 11);
  CHECK(m.statements[0].kind == ast::StmtKind::Import);
  CHECK(m.statements[0].name == "std/transformer");
  CHECK(m.statements[1].kind == ast::StmtKind::Unit);
  CHECK(m.statements[2].value != nullptr);
  CHECK(m.statements[3].record_kind == "let");
  CHECK(m.statements[4].record_kind == "");
  CHECK(m.statements[5].params.size() == 3);
  CHECK(m.statements[5].params[2].default_value != nullptr);
  const auto& rec = m.statements[6];
  CHECK(rec.record_kind == "model");
  CHECK(rec.base->text == "transformer");
  REQUIRE(rec.fields.size() == 3);
  CHECK(rec.fields[0].value == nullptr);
  CHECK(rec.fields[0].type.kind == ast::TypeKind::Count);
  CHECK(rec.fields[1].value != nullptr);
  CHECK(m.statements[7].value->kind == ast::ExprKind::With);
  CHECK(!m.statements[8].approx);
  CHECK(m.statements[9].approx);
  CHECK(m.statements[10].approx);
}

TEST_CASE("a unit follows a number literal and has no spaces", "[parser]") {
  CHECK(reprint("batch * 1 token / weight_read_time") == "batch * 1 token / weight_read_time");
  CHECK(reprint("5.3 TB/s") == "5.3 TB/s");
  CHECK(reprint("40%") == "40%");
  CHECK(reprint("x -> GiB") == "x -> GiB");
  CHECK(reprint("1_500_000") == "1_500_000");
  CHECK(reprint("1.5e12 token") == "1.5e12 token");
  CHECK(reprint("$2/hour") == "$2/hour");
  CHECK(reprint("2 FLOP/param/token") == "2 FLOP/param/token");
}

TEST_CASE("precedence and associativity", "[parser]") {
  CHECK(reprint("1 + 2 * 3") == "1 + 2 * 3");
  CHECK(reprint("(1 + 2) * 3") == "(1 + 2) * 3");
  CHECK(reprint("a - (b - c)") == "a - (b - c)");
  CHECK(reprint("a - b - c") == "a - b - c");
  CHECK(reprint("a / (b * c)") == "a / (b * c)");
  CHECK(reprint("2^3^2") == "2^3^2");
  CHECK(reprint("(2^3)^2") == "(2^3)^2");
  CHECK(reprint("-x^2") == "-x^2");
  CHECK(reprint("not a and b or c") == "not a and b or c");
  CHECK(reprint("if a > b then a else b") == "if a > b then a else b");
  CHECK(reprint("f(1, n = 2).x") == "f(1, n = 2).x");
  CHECK(reprint("m with { a = 1, b = 2 }") == "m with { a = 1, b = 2 }");
  CHECK(reprint("[1, 8, 32]") == "[1, 8, 32]");
  CHECK(reprint("x / (5.3 TB/s)") == "x / (5.3 TB/s)");
}

TEST_CASE("fields may be named like statement words", "[parser]") {
  auto m = parse("scenario s {\n  model = 1\n  unit = 2\n  hardware = model + unit\n}\n");
  CHECK(m.statements[0].fields.size() == 3);
}

TEST_CASE("parse errors say what was expected, where", "[parser][errors]") {
  CHECK(parse_error("model m {\n  layers = 4\n") ==
        "bad.napkin:2:13: error[E0100]: expected a field (NAME = EXPR) or '}' to close the block\n"
        "  |\n"
        "2 |   layers = 4\n"
        "  |             ^\n");
  CHECK(parse_error("let x = (1 + 2\n").find("expected ')' to close the parenthesis") != std::string::npos);
  CHECK(parse_error("let x = \"abc\n").find("unterminated string") != std::string::npos);
  CHECK(parse_error("let x = 1 +\n").find("expected an operand after the operator") != std::string::npos);
  CHECK(parse_error("let = 3").find("expected a name after 'let'") != std::string::npos);
  CHECK(parse_error("fn f(a, b = 2\n").find("expected ',' or ')' in the parameter list") != std::string::npos);
  CHECK(parse_error("check x ≈ 3").find("expected 'within'") != std::string::npos);
  CHECK(parse_error("model m extends { }").find("expected the name of a record after 'extends'") != std::string::npos);
  CHECK(parse_error("x = if a then b").find("expected 'else'") != std::string::npos);
  CHECK(parse_error("x = a ->").find("expected a unit after '->'") != std::string::npos);
  CHECK(parse_error("x = [1, 2").find("expected ',' or ']'") != std::string::npos);
  CHECK(parse_error("x = f(1, 2").find("expected ',' or ')' to close the argument list") != std::string::npos);
  CHECK(parse_error("model m { a: }").find("expected a type after ':'") != std::string::npos);
  CHECK(parse_error("model m { a }").find("expected '=' (a value) or ':'") != std::string::npos);
  CHECK(parse_error("3 + 4").find("expected a statement") != std::string::npos);
  CHECK(parse_error("x = d.").find("expected a field name after '.'") != std::string::npos);
  CHECK(parse_error("x = m with 3").find("expected '{' after 'with'") != std::string::npos);
  CHECK(parse_error("import std").find("expected a quoted path") != std::string::npos);
}

TEST_CASE("duplicate fields are reported at both places", "[parser][errors]") {
  const std::string e = parse_error("model m {\n  a = 1\n  a = 2\n}\n");
  CHECK(e.find("E0304") != std::string::npos);
  CHECK(e.find("defined again here") != std::string::npos);
  CHECK(e.find("first defined here") != std::string::npos);
}

TEST_CASE("bad bytes are errors, not crashes", "[parser][errors]") {
  CHECK(parse_error(std::string("let x = 1\xff\n")).find("not valid UTF-8") != std::string::npos);
  CHECK(parse_error(std::string("let x = 1\0\n", 11)).find("NUL byte") != std::string::npos);
}

TEST_CASE("every node's span is the text it was read from", "[parser]") {
  auto text_of = [](const ast::Expr& e) { return std::string(e.span.text()); };
  auto m = parse("let a = not x and y\nlet b = (p + q) * r -> GiB\nlet c = f(1, n = 2).z with { k = $2/hour }\n"
                 "let d = -w^2\nlet e = measure(gpu.copy_bandwidth, dtype = bf16) else 4.8 TB/s\n");
  const ast::Expr& a = *m.statements[0].value;  // (not x) and y
  CHECK(text_of(a) == "not x and y");
  CHECK(text_of(*a.items[0]) == "not x");
  const ast::Expr& b = *m.statements[1].value;  // ((p + q) * r) -> GiB
  REQUIRE(b.kind == ast::ExprKind::Convert);
  CHECK(text_of(b) == "(p + q) * r -> GiB");
  CHECK(text_of(*b.items[0]->items[0]) == "p + q");
  CHECK(b.unit->text == "GiB");
  const ast::Expr& c = *m.statements[2].value;  // ((f(1, n = 2)).z) with {...}
  REQUIRE(c.kind == ast::ExprKind::With);
  CHECK(text_of(c) == "f(1, n = 2).z with { k = $2/hour }");
  CHECK(text_of(*c.items[0]) == "f(1, n = 2).z");
  const ast::Expr& call = *c.items[0]->items[0];
  CHECK(text_of(call) == "f(1, n = 2)");
  CHECK(call.arg_names == std::vector<std::string>{"", "n"});
  const ast::Expr& dollars = *c.fields.at(0).value;
  CHECK(text_of(dollars) == "$2/hour");
  CHECK(dollars.text == "$2");
  REQUIRE(dollars.unit->terms.size() == 2);
  CHECK(dollars.unit->terms[1].symbol == "hour");
  CHECK(dollars.unit->terms[1].power == -1);
  CHECK(std::string(dollars.unit->terms[1].span.text()) == "hour");
  const ast::Expr& d = *m.statements[3].value;  // -(w^2)
  CHECK(d.kind == ast::ExprKind::Negate);
  CHECK(text_of(*d.items[0]) == "w^2");
  const ast::Expr& e = *m.statements[4].value;
  CHECK(e.kind == ast::ExprKind::Measure);
  CHECK(e.text == "gpu.copy_bandwidth");
  CHECK(e.arg_names == std::vector<std::string>{"dtype"});
  CHECK(text_of(*e.fallback) == "4.8 TB/s");
}

TEST_CASE("an argument is named only when `=` follows its name", "[parser]") {
  auto m = parse("let a = f(x == 2, y = 3, z)\n");
  const ast::Expr& call = *m.statements[0].value;
  REQUIRE(call.items.size() == 4);
  CHECK(call.arg_names == std::vector<std::string>{"", "y", ""});
  CHECK(call.items[1]->kind == ast::ExprKind::Binary);
  CHECK(call.items[1]->op == ast::BinOp::Eq);
}

TEST_CASE("the first mistake in reading order is the one reported", "[parser][errors]") {
  // A bad escape on line 1 comes before a missing operand on line 2.
  CHECK_THAT(parse_error("let a = \"x\\q\"\nlet b = (1 +\n"), Catch::StartsWith("bad.napkin:1:11: error[E0102]"));
  // `let` is read as a name, so the missing `)` is found at `b`, before the escape.
  CHECK_THAT(parse_error("let a = (1 +\nlet b = \"x\\q\"\n"), Catch::StartsWith("bad.napkin:2:5: error[E0100]: expected ')'"));
}
