// Issue 12: a student's mistake never passes silently. One test (or more)
// per defect: typos in `extends`, broken files, unit exponents, equality,
// `super`, clearer answers, and review noise.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "interpreter/output/report.hpp"
#include "diff_support.hpp"
#include "support.hpp"

using napkin::test::Pair;
using napkin::test::exercise;

using napkin::test::Session;
using namespace napkin;

namespace {

// Every check of the last file loaded, passed or not; an error is rethrown.
std::vector<bool> outcomes(Session& s) {
  std::vector<bool> out;
  for (const auto& c : run_checks(s.in, s.module)) out.push_back(c.passed);
  return out;
}

const char* kTypo =
    "import \"std/transformer\"\n"
    "model m extends transformer { layers = 48, d_model = 6144, heads = 48, kv_head = 8, d_ffn = 16384, mlp = swiglu, "
    "vocab = 64000 }\n";

}  // namespace

// 1. ------------------------------------------------------------------------

TEST_CASE("a misspelt input in extends is an error with a did-you-mean", "[issue12][typo]") {
  Session s;
  s.load(kTypo);  // the record is made when first used
  const std::string e = s.error("m.params");
  CHECK_THAT(e, Catch::Contains("error[E0308]"));
  CHECK_THAT(e, Catch::Contains("did you mean its input `kv_heads`?"));
  CHECK_THAT(e, Catch::Contains("kv_head: TYPE"));  // how to add the field on purpose
}

TEST_CASE("a typed field adds a new field whose name looks like an input", "[issue12][typo]") {
  Session s;
  s.load(std::regex_replace(std::string(kTypo), std::regex("kv_head = 8"), "kv_heads = 8, kv_head: count = 3"));
  CHECK(s.si("m.kv_head") == 3);
  CHECK(s.si("m.params") == 19'509'805'056.0);
}

TEST_CASE("new derived fields in extends keep working", "[issue12][typo]") {
  Session s;
  s.load("record box { width: count\n depth = 2 }\n"
         "record a extends box { width = 3, area = width * depth, x = 1, y = x + 1 }\n"
         "import \"std/hardware\"\n"
         "hardware mine extends gpu { memory_bandwidth = 1 TB/s, copy_bandwidth = 2 TB/s }\n");
  CHECK(s.si("a.area") == 6);
  CHECK(s.si("a.y") == 2);
  CHECK(s.si("mine.copy_bandwidth") == 2e12);
}

TEST_CASE("a misspelt field in with is an error too", "[issue12][typo]") {
  Session s;
  s.load("record r { kv_heads = 8 }\n");
  CHECK_THAT(s.error("r with { kv_head = 4 }"), Catch::Contains("did you mean `kv_heads`?"));
}

// 2 and 3. ------------------------------------------------------------------

namespace {
const char* kBroken =
    "import \"std/hardware\"\n"
    "let a = 1 GB\n"
    "let t = 39 GB / h100.memory_bandwidth\n"
    "let z = 1 / 0\n"
    "scenario s {\n  x = y + 1\n  y = x + 1\n  ok = 3\n}\n"
    "check a == 1 GB\n";
}

TEST_CASE("a broken file reports every error once, and every value it can", "[issue12][keep_going]") {
  Session s;
  s.load(kBroken);
  const Report r = build_report(s.in, s.module, false, /*keep_going=*/true);
  REQUIRE(r.errors.size() == 3);
  CHECK(r.errors[0].message == "unknown name `h100`");
  CHECK(r.errors[1].code == codes::division_by_zero);
  CHECK(r.errors[2].code == codes::cycle);
  int ok = 0, failed = 0;
  for (const auto& sec : r.sections)
    for (const auto& f : sec.fields) (f.ok ? ok : failed) += 1;
  CHECK(ok == 2);      // a, s.ok
  CHECK(failed == 4);  // t, z, s.x, s.y
  REQUIRE(r.checks.size() == 1);
  CHECK(r.checks[0].passed);
}

TEST_CASE("without keep_going the first error is thrown, as explain and quick expect", "[issue12][keep_going]") {
  Session s;
  s.load(kBroken);
  CHECK_THROWS_AS(build_report(s.in, s.module, false), Error);
}

// 4. ------------------------------------------------------------------------

TEST_CASE("unit exponents never wrap", "[issue12][exponent]") {
  Session s;
  CHECK_THAT(s.error("1 B^64 * 1 B^64 * 1 B^64 * 1 B^64 + 1"), Catch::Contains("error[E0209]"));
  CHECK_THAT(s.error("1 B^64 * 1 B^64"), Catch::Contains("error[E0209]"));
  CHECK_THAT(s.error("1 B^64 / 1 B^-64"), Catch::Contains("error[E0209]"));
  CHECK_THAT(s.error("(1 B^64)^2"), Catch::Contains("error[E0209]"));
  CHECK_THAT(s.error("1 B^60*B^60"), Catch::Contains("error[E0209]"));
  CHECK(s.error("1 B^50 * 1 B^50") == "");  // ±100 is still in range
  CHECK(s.show("1 B^50 / 1 B^50") == "1");
}

// 5. ------------------------------------------------------------------------

TEST_CASE("== on quantities holds within a few units in the last place", "[issue12][equality]") {
  Session s;
  CHECK(s.eval("7.362 ms == 7362 us").b);
  CHECK_FALSE(s.eval("7.362 ms != 7362 us").b);
  CHECK(s.eval("7.362 ms <= 7362 us").b);
  CHECK(s.eval("7.362 ms >= 7362 us").b);
  CHECK_FALSE(s.eval("7.362 ms < 7362 us").b);
  CHECK_FALSE(s.eval("7362 us > 7.362 ms").b);
  CHECK(s.eval("0.1 + 0.2 == 0.3").b);
  CHECK_FALSE(s.eval("1 == 1.000000000001").b);  // far more than a few ulps
  CHECK_FALSE(s.eval("1 GB == 1 GiB").b);
}

TEST_CASE("≈ within: the boundary, just inside and just outside", "[issue12][equality]") {
  Session s;
  s.load("check 101 ≈ 100 within 1%\n"
         "check 100.999 ≈ 100 within 1%\n"
         "check 101.001 ≈ 100 within 1%\n"
         "check 99 ≈ 100 within 1%\n"
         "check 98.99 ≈ 100 within 1%\n"
         "check 1 GB + 5 MB ≈ 1 GB within 5 MB\n"
         "check 1 GB + 5 MB + 1 B ≈ 1 GB within 5 MB\n"
         "check 1 GB - 5 MB - 1 B ≈ 1 GB within 5 MB\n"
         "check 103 ≈ 100 within 1%\n");
  CHECK(outcomes(s) == std::vector<bool>{true, true, false, true, false, true, false, false, false});
}

TEST_CASE("within a zero or negative tolerance is an error that says so", "[issue12][equality]") {
  Session s;
  s.load("check 1 ≈ 1 within 0\n");
  CHECK_THROWS_WITH(run_checks(s.in, s.module), Catch::Contains("a tolerance must be greater than zero"));
  Session t;
  t.load("check 1 GB ≈ 1 GB within -1 MB\n");
  try {
    run_checks(t.in, t.module);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.diagnostic().code == codes::bad_tolerance);
  }
}

// 6. ------------------------------------------------------------------------

TEST_CASE("super names the base's value of a field", "[issue12][super]") {
  Session s;
  s.load("record a { batch = 4\n twice = batch * 2 }\n"
         "record b extends a { batch = super.batch + 1 }\n"
         "record c extends b { }\n"
         "let d = a with { batch = super.batch * 3 }\n"
         "let e = b with { batch = super.batch * 10 }\n");
  CHECK(s.si("b.batch") == 5);
  CHECK(s.si("b.twice") == 10);  // late binding still holds
  CHECK(s.si("c.batch") == 5);
  CHECK(s.si("d.batch") == 12);
  CHECK(s.si("d.twice") == 24);
  CHECK(s.si("e.batch") == 50);
  CHECK(s.si("a.batch") == 4);  // the base is untouched
}

TEST_CASE("the cycle of batch = batch * 2 in with suggests super", "[issue12][super]") {
  Session s;
  s.load("record a { batch = 4 }\nlet d = a with { batch = batch * 2 }\n");
  const std::string e = s.error("d.batch");
  CHECK_THAT(e, Catch::Contains("error[E0303]"));
  CHECK_THAT(e, Catch::Contains("write `super.batch`"));
}

TEST_CASE("a function's parameter that a field of its with block hides is an error, not the field", "[with][E0310]") {
  Session s;
  s.load(
      "record serving { batch = 1\n gpus = 2\n context = 2048 }\n"
      "record q { batch = 7\n d = 0 }\n"
      "record other { x = 0 }\n"
      "fn at(batch) = serving with { context = batch * 256 }\n"
      "fn nest(batch) = other with { x = (q with { d = batch }).d }\n"
      "fn outer(batch) = serving with { context = (other with { x = batch }).x }\n"
      "fn renamed(n) = serving with { context = n * 256 }\n"
      "fn caller(batch) = inner(3)\n"
      "fn inner(x) = serving with { context = batch * x }\n"
      "let a = at(128).context\n"
      "let b = nest(100).x\n"
      "let f = outer(100).context\n"
      "let c = renamed(128).context\n"
      "let d = caller(100).context\n"
      "let e = at(128)\n");
  const std::string a = s.error("a");
  CHECK_THAT(a, Catch::Contains("error[E0310]"));
  CHECK_THAT(a, Catch::Contains("the parameter, which this name does not reach"));
  CHECK_THAT(a, Catch::Contains("write `super.batch`"));
  // Two blocks out: still the function's parameter.
  CHECK_THAT(s.error("b"), Catch::Contains("error[E0310]"));
  // The field of the outer block: `super` in the inner one would be other.
  const std::string f = s.error("f");
  CHECK_THAT(f, Catch::Contains("error[E0310]"));
  CHECK_THAT(f, !Catch::Contains("super"));
  CHECK(s.si("c") == 128 * 256);
  // A caller's parameter is not in the block's scope: the field it is.
  CHECK(s.si("d") == 3);
  // A sweep of the record, compiled or not, refuses it too.
  CHECK_THAT(s.error("(e with { gpus = 4 }).context"), Catch::Contains("error[E0310]"));
}

TEST_CASE("super outside a block that extends is an error that says what it is for", "[issue12][super]") {
  Session s;
  s.load("record a { b = super.x }\nlet c = super\n");
  CHECK_THAT(s.error("a.b"), Catch::Contains("extends no record"));
  CHECK_THAT(s.error("c"), Catch::Contains("`super` has nothing to name here"));
}

// 7. ------------------------------------------------------------------------

TEST_CASE("an unknown name suggests prefix matches, spellings and the import to add", "[issue12][suggest]") {
  Session s;
  s.load("import \"std/hardware\"\nimport \"std/dtypes\"\nlet a = h100\nlet b = float16\n");
  const std::string h = s.error("a");
  CHECK_THAT(h, Catch::Contains("`h100_pcie`"));
  CHECK_THAT(h, Catch::Contains("`h100_sxm`"));
  CHECK_THAT(s.error("b"), Catch::Contains("did you mean `fp16`?"));
  Session t;
  t.load("let g = mi300x.memory_bandwidth\n");
  CHECK_THAT(t.error("g"), Catch::Contains("add `import \"std/hardware\"`"));
}

TEST_CASE("cost per million tokens carries its per-token unit", "[issue12][cost]") {
  Session s;
  s.load("import \"std/serving\"\nlet c = cost_per_million_tokens(2 USD/hour, 1000 token/s)\n");
  CHECK(s.show("c") == "0.5556 USD/Mtoken");
}

// 8. ------------------------------------------------------------------------


TEST_CASE("diff folds rows that move identically and puts the file's own fields first", "[issue12][diff]") {
  const std::string old_text = exercise();
  const std::regex eight_heads(R"((kv_heads\s*=)\s*8)");
  Pair p(old_text, std::regex_replace(old_text, eight_heads, "$1 4", std::regex_constants::format_first_only));
  const Diff d = diff_versions(p.before, p.after, 0);
  int layer_rows = 0;
  bool library_seen = false, own_after_library = false;
  for (const auto& e : d.moved) {
    if (e.after.value.kind == Value::Kind::Quantity && e.after.value.q.v == 383'778'816.0) ++layer_rows;
    if (!e.after.own) library_seen = true;
    else if (library_seen) own_after_library = true;
  }
  CHECK(layer_rows == 1);  // parameters.layer, naming drill.layer_params and the other five
  CHECK_FALSE(own_after_library);
  REQUIRE_FALSE(d.moved.empty());
  CHECK(d.moved.front().after.own);
  const auto layer = std::find_if(d.moved.begin(), d.moved.end(), [](const DiffEntry& e) { return e.name == "parameters.layer"; });
  REQUIRE(layer != d.moved.end());
  for (const char* name : {"drill.layer_params", "drill.dense_layer_params", "drill.active_layer_params",
                           "drill.layer_matmul_params", "drill.dense_layer_matmul_params",
                           "drill.active_layer_matmul_params"})
    CHECK(std::find(layer->same_as.begin(), layer->same_as.end(), name) != layer->same_as.end());
  CHECK(d.moved.size() < 50);  // 59 rows before folding
}

TEST_CASE("diff: an input that changed and moved nothing is a change", "[issue12][diff]") {
  Pair p("record r { used = 1\n unused = 1\n out = used * 2 }\n", "record r { used = 1\n unused = 2\n out = used * 2 }\n");
  const Diff d = diff_versions(p.before, p.after, 0);
  CHECK(d.inputs.size() == 1);
  CHECK_FALSE(d.values_moved());
  CHECK(d.anything_moved());  // exit 1
}
