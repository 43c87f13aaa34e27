// napkin sensitivity: which inputs are ranked (the file's own by default,
// every one, the ones named, less the ones left out), inputs read only by
// conditions, and the varied copies given back.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "interpreter/analysis/sensitivity.hpp"
#include "support.hpp"

using napkin::SensitivityOptions;
using napkin::test::Session;

namespace {

bool ranked(const napkin::SensitivityResult& r, const std::string& path) {
  return std::any_of(r.inputs.begin(), r.inputs.end(), [&](const auto& i) { return i.path == path; });
}

const napkin::SensitivityInput& find(const napkin::SensitivityResult& r, const std::string& path) {
  for (const auto& i : r.inputs)
    if (i.path == path) return i;
  FAIL("not ranked: " << path);
  throw;
}

std::string why(const napkin::SensitivityResult& r, const std::string& path) {
  for (const auto& u : r.unranked)
    if (u.path == path) return u.why;
  return "";
}

// A dense model's KV bytes at batch 32: llama3_70b is set in std/models,
// batch and context here.
const char* kDecode =
    "import \"std/models\"\n"
    "scenario decode {\n"
    "  model    = llama3_70b\n"
    "  batch    = 32\n"
    "  context  = 8192 token\n"
    "  kv_bytes = batch * context * model.kv_bytes_per_token\n"
    "  weights  = model.weight_bytes\n"
    "}\n";

}  // namespace

TEST_CASE("by default only the inputs the file sets are ranked", "[sensitivity]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::sensitivity(s.in, s.module, "decode.kv_bytes");
  REQUIRE(r.inputs.size() == 2);
  // kv_bytes = batch · context · (per-token bytes): both exactly +1.
  CHECK(find(r, "decode.batch").elasticity == 1.0);
  CHECK(find(r, "decode.context").elasticity == 1.0);
  CHECK(why(r, "decode.model.layers") == "set outside the file");
  CHECK(r.ranked == "the inputs test0.napkin sets");
  auto all = napkin::sensitivity(s.in, s.module, "decode.kv_bytes", SensitivityOptions{{}, {}, true});
  CHECK(ranked(all, "decode.model.layers"));
  CHECK(find(all, "decode.model.layers").elasticity == 1.0);
}

TEST_CASE("vary ranks the inputs named, except leaves some out", "[sensitivity]") {
  Session s;
  s.load(kDecode);
  SensitivityOptions vary;
  vary.vary = {"model.layers", "decode.batch", "llama3_70b.kv_heads"};  // the three ways to name one
  auto r = napkin::sensitivity(s.in, s.module, "decode.kv_bytes", vary);
  REQUIRE(r.inputs.size() == 3);
  CHECK(ranked(r, "decode.model.layers"));
  CHECK(ranked(r, "decode.batch"));
  CHECK(ranked(r, "decode.model.kv_heads"));
  CHECK(why(r, "decode.context") == "not named (--vary)");

  SensitivityOptions except;
  except.except = {"batch"};
  auto e = napkin::sensitivity(s.in, s.module, "decode.kv_bytes", except);
  REQUIRE(e.inputs.size() == 1);
  CHECK(e.inputs[0].path == "decode.context");
  CHECK(why(e, "decode.batch") == "left out (--except)");

  SensitivityOptions typo;
  typo.vary = {"bach"};
  try {
    napkin::sensitivity(s.in, s.module, "decode.kv_bytes", typo);
    FAIL("no error");
  } catch (const napkin::Error& err) {
    CHECK(err.diagnostic().code == napkin::Code::usage);
    CHECK(err.diagnostic().help == "did you mean `batch`?");
  }
}

TEST_CASE("an input read only by a condition is not reported as not smooth", "[sensitivity]") {
  Session s;
  // A dense model: experts = 1 only chooses the branch; y is w there.
  s.load("record m {\n  experts = 1\n  w = 3\n  y = if experts > 1 then experts * w else w\n}\n");
  auto r = napkin::sensitivity(s.in, s.module, "m.y");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].path == "m.w");
  CHECK(r.inputs[0].exact);
  CHECK(r.inputs[0].elasticity == 1.0);
  CHECK(why(r, "m.experts") == "read only by conditions");
  // Named, it is shown, with why it has no elasticity.
  SensitivityOptions vary;
  vary.vary = {"experts"};
  auto v = napkin::sensitivity(s.in, s.module, "m.y", vary);
  REQUIRE(v.inputs.size() == 1);
  CHECK_FALSE(v.inputs[0].ok);
  CHECK(v.inputs[0].note.find("read only by conditions") == 0);
}

TEST_CASE("an input the arithmetic reads as well keeps its kink", "[sensitivity]") {
  Session s;
  s.load("record m {\n  x = 4\n  y = if x > 4 then 2 * x else x\n}\n");
  auto r = napkin::sensitivity(s.in, s.module, "m.y");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].note.find("not smooth here") == 0);
}

TEST_CASE("the varied copies are given back", "[sensitivity]") {
  Session s;
  s.load("scenario ranged {\n  a = 1 to 3\n  b = 2\n  c = 5\n  y = a * b + c\n}\n");
  s.eval("ranged.y");  // the record's own ranges, drawn once
  const std::size_t held = napkin::samples_held();
  auto q = napkin::sensitivity(s.in, s.module, "ranged.y");
  REQUIRE(q.inputs.size() == 3);
  // a, b and c are varied four or five times each (x·2, x/2, x·(1+h),
  // x/(1+h), and a fixed at its median), each copy holding ranges of the
  // same samples; given back, what is held afterwards is what the record
  // itself holds.
  CHECK(napkin::samples_held() == held);
}
