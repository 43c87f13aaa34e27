// The standard library as the build stores it: each module's tree compiled
// to words (grammar/compiled_ast.hpp) must be the tree its text parses to,
// spans included, and --stdlib DIR must still read modules from their text.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "grammar/ast_equal.hpp"
#include "grammar/compiled_ast.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/prelude.hpp"
#include "interpreter/core/stdlib_files.hpp"
#include "temp_dir.hpp"

using namespace napkin;
using napkin::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Every span of a tree in one walk, with each expression's printed form:
// two trees that give the same list point at the same text the same way.
struct Walk {
  const SourceFile* file;
  std::vector<std::string> out;

  void span(const char* what, const Span& s) {
    out.push_back(fmt::format("{} {}-{}{}", what, s.begin, s.end, s.file == file ? "" : s.file ? " elsewhere" : " none"));
  }
  void unit(const ast::UnitExpr& u) {
    span("unit", u.span);
    for (const auto& t : u.terms) span(t.symbol.c_str(), t.span);
  }
  void fields(const std::vector<ast::FieldDecl>& fs) {
    for (const auto& f : fs) {
      span(f.name.c_str(), f.name_span);
      span("field", f.span);
      span("type", f.type.span);
      unit(f.type.unit);
      if (f.value) expr(*f.value);
    }
  }
  void expr(const ast::Expr& e) {
    out.push_back(print_expr(e));
    span("expr", e.span);
    if (e.unit) unit(*e.unit);
    for (const auto& c : e.items) expr(*c);
    fields(e.fields);
    if (e.fallback) expr(*e.fallback);
  }
  void module(const ast::Module& m) {
    for (const auto& st : m.statements) {
      span(st.name.c_str(), st.span);
      span("name", st.name_span);
      for (const auto* e : {st.value.get(), st.base.get(), st.expected.get(), st.tolerance.get()})
        if (e) expr(*e);
      fields(st.fields);
      out.push_back(print_fields_inline(st.fields));
      for (const auto& p : st.params) {
        span(p.name.c_str(), p.span);
        if (p.default_value) expr(*p.default_value);
      }
      for (const auto& v : st.sweep_vars) {
        span(v.name.c_str(), v.span);
        if (v.values) expr(*v.values);
      }
      for (const auto& c : st.columns) span(c.name.c_str(), c.span);
    }
  }
};

std::vector<std::string> walk(const ast::Module& m, const SourceFile& file) {
  Walk w{&file, {}};
  w.module(m);
  return w.out;
}

// The parse and the compiled tree of `text`, compared every way.
void same_both_ways(const std::string& text) {
  const SourceFile file{"t.napkin", text, ""};
  const ast::Module parsed = parse_module(file);
  const CompiledAstData c = compile_ast(parsed);
  const ast::Module loaded = load_compiled_ast(c.view(), file);
  CHECK(ast_difference(parsed, loaded) == "");
  CHECK(walk(parsed, file) == walk(loaded, file));
  CHECK(compile_ast(loaded).words == c.words);
}

std::string rendered_error(Interpreter& in, Module* m, const std::string& expr) {
  try {
    in.eval_in(m, in.parse_snippet("<expr>", expr));
  } catch (const Error& e) {
    return render(e.diagnostic());
  }
  return "";
}

}  // namespace

TEST_CASE("each built-in standard module's compiled tree is the tree its text parses to", "[stdlib]") {
  REQUIRE(kStdlibCount > 0);
  for (std::size_t i = 0; i < kStdlibCount; ++i) {
    const EmbeddedFile& f = kStdlib[i];
    INFO("std/" << f.name);
    const SourceFile file{std::string("std/") + f.name, std::string(f.text, f.size), ""};
    const ast::Module parsed = parse_module(file);
    const ast::Module loaded = load_compiled_ast(f.ast, file);
    CHECK(ast_difference(parsed, loaded) == "");
    CHECK(walk(parsed, file) == walk(loaded, file));
    // The stored words are what this text compiles to now: not a stale build.
    const CompiledAstData again = compile_ast(parsed);
    CHECK(again.words == std::vector<std::uint32_t>(f.ast.words, f.ast.words + f.ast.size));
    CHECK(again.strings == std::string(f.ast.strings, f.ast.string_count ? f.ast.string_ends[f.ast.string_count - 1] : 0));
    std::vector<std::string> names;
    for (const auto& st : parsed.statements)
      if (st.kind == ast::StmtKind::Let || st.kind == ast::StmtKind::Fn || st.kind == ast::StmtKind::Record)
        names.push_back(st.name);
    CHECK(names == std::vector<std::string>(f.names, f.names + f.name_count));
  }
}

TEST_CASE("a compiled tree reads back every kind of statement and expression", "[stdlib]") {
  same_both_ways(R"(import "std/transformer"
unit tok
unit kilotok = 1000 tok
let a = -3.5e2 GB/s^2 * 50% + $1.20/h
let s = "tab\t \"quoted\" π"
fn f(x, y = 2 kB, z = [1, 2, true, false]) = if x > y and not z then x -> MB else (x^2)/y
model m extends transformer.base {
  n: count
  t: B/s = 3 TB/s
  u = f(1 B, z = 3).q.r with { k = super.k * 2 }
  p = 0.25 -> %
  v = measure(stream, bytes = 1 GB) else 2 TB/s
}
hardware h = m with { n = 1 }
check a == a
check a ≈ 2 within 1%
sweep m
  over n in [1, 2, 4],
       t in [1 B/s, 2 B/s]
  show u, p
)");
  same_both_ways("");
  same_both_ways("# only a comment\n");
}

TEST_CASE("a module in the --stdlib directory is read from its text, the rest from the built-in copy", "[stdlib]") {
  TempDir dir;
  dir.write("comms.napkin", "# a replacement\nlet probe = 42\nfn twice(x) = 2 * x\nlet broken = twice(1 GB) + 1\n");
  Options o;
  o.stdlib_dir = dir.path.string();
  Interpreter in(o);
  Module* m = in.load_source("t.napkin", "import \"std/comms\"\nimport \"std/dtypes\"\nlet y = twice(probe)\n", "");
  CHECK(in.show(in.eval_in(m, in.parse_snippet("<expr>", "y"))) == "84");
  CHECK(in.show(in.eval_in(m, in.parse_snippet("<expr>", "fp32.bytes_per_param * 1 param"))) == "4 B");
  // An error in the replacement quotes its line.
  const std::string e = rendered_error(in, m, "broken");
  CHECK(e.find("std/comms:4:") != std::string::npos);
  CHECK(e.find("let broken = twice(1 GB) + 1") != std::string::npos);
  // A name it defines is found for "defined in std/comms" without importing it.
  Module* other = in.load_source("u.napkin", "let z = 1\n", "");
  CHECK(rendered_error(in, other, "probe").find("`probe` is defined in std/comms, which this file does not import") !=
        std::string::npos);
  CHECK(rendered_error(in, other, "gpt2").find("defined in std/models") != std::string::npos);
}

TEST_CASE("a name of a built-in module is found without importing it", "[stdlib]") {
  Interpreter in;
  Module* m = in.load_source("t.napkin", "let z = 1\n", "");
  CHECK(rendered_error(in, m, "gpt2").find("`gpt2` is defined in std/models, which this file does not import") !=
        std::string::npos);
  CHECK(rendered_error(in, m, "probe").find("defined in std/") == std::string::npos);
}

namespace {

// What `napkin eval` prints for `text`: with prelude_for's modules first and
// the whole library if that fails (as cmd_eval does), or the whole library only.
std::string eval_like_cli(const std::string& text, bool some_first) {
  Interpreter in;
  const ast::Expr& e = in.parse_snippet("<eval>", text);
  try {
    if (some_first) try {
        if (Module* m = prelude_for(in, e)) return in.show(in.eval_in(m, e));
      } catch (const Error&) {
      }
    return in.show(in.eval_in(in.prelude(), e));
  } catch (const Error& err) {
    return render(err.diagnostic());
  }
}

}  // namespace

TEST_CASE("an expression evaluated with only the modules its names need reads as with the whole library", "[stdlib]") {
  for (const char* text : {"gpt2.params", "h100_sxm.power * 1 h", "kv_cache_bytes(gpt2, 1024 token) -> MiB",
                           "fits(gpt2.params * 2 B/param, h100_sxm.memory_capacity)", "gpt2 with { layers = 2 }",
                           "in_flight(3 request/s, 2 s)", "cost_per_million_tokens(2 USD/h, 1000 token/s)",
                           "gpt2.paramz", "gpt3.params", "transformer.params", "kv_cache_bytes(gpt2)",
                           "gpt2.params + 1 request", "min(gpt2.layers, 3)"}) {
    INFO(text);
    CHECK(eval_like_cli(text, true) == eval_like_cli(text, false));
  }
  // It loads what the names need and what those import, nothing else.
  Interpreter in;
  const ast::Expr& e = in.parse_snippet("<eval>", "gpt2.params");
  Module* m = prelude_for(in, e);
  REQUIRE(m);
  // std/models writes its newer entries through std/hf's hf_model.
  REQUIRE(m->imports.size() == 4);
  CHECK(m->imports[0]->file->name == "std/dtypes");
  CHECK(m->imports[1]->file->name == "std/transformer");
  CHECK(m->imports[2]->file->name == "std/hf");
  CHECK(m->imports[3]->file->name == "std/models");
  // A directory's modules may define other names: it is left to prelude().
  Options o;
  o.stdlib_dir = ".";
  Interpreter with_dir(o);
  CHECK(prelude_for(with_dir, with_dir.parse_snippet("<eval>", "gpt2.params")) == nullptr);
}
