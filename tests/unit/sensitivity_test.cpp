// napkin sensitivity: power laws come out exactly, others by central
// differences; inputs are found through the record's fields.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "interpreter/analysis/sensitivity.hpp"
#include "support.hpp"

using napkin::test::Session;

namespace {

const napkin::SensitivityInput& find(const napkin::SensitivityResult& r, const std::string& path) {
  for (const auto& i : r.inputs)
    if (i.path == path) return i;
  FAIL("no input " << path);
  throw;
}

const char* kDecode =
    "import \"std/models\"\n"
    "import \"std/hardware\"\n"
    "scenario decode {\n"
    "  model     = llama3_70b\n"
    "  gpu       = h100_sxm\n"
    "  batch     = 32\n"
    "  context   = 8192 token\n"
    "  kv_bytes  = batch * context * model.kv_bytes_per_token\n"
    "  memory    = model.weight_bytes + kv_bytes\n"
    "  decode_time = model.weight_bytes / gpu.memory_bandwidth\n"
    "  step_time = memory / gpu.memory_bandwidth\n"
    "}\n";

// The library's inputs too (by default only the file's own are ranked).
const napkin::SensitivityOptions kAllInputs{{}, {}, true};

}  // namespace

TEST_CASE("KV bytes scale exactly with layers and kv_heads", "[sensitivity]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::sensitivity(s.in, s.module, "decode.kv_bytes", kAllInputs);
  const auto& layers = find(r, "decode.model.layers");
  REQUIRE(layers.ok);
  CHECK(layers.exact);
  CHECK(layers.elasticity == 1.0);
  CHECK(layers.label == "llama3_70b.layers");
  CHECK(layers.where_set.rfind("std/models:", 0) == 0);
  const auto& kv_heads = find(r, "decode.model.kv_heads");
  CHECK(kv_heads.exact);
  CHECK(kv_heads.elasticity == 1.0);
  const auto& batch = find(r, "decode.batch");
  CHECK(batch.elasticity == 1.0);
  CHECK(batch.where_set == "test0.napkin:6");
  // Not an input of the KV cache: the GPU.
  for (const auto& i : r.inputs) CHECK(i.path.rfind("decode.gpu.", 0) != 0);
}

TEST_CASE("decode time scales exactly as 1 / bandwidth", "[sensitivity]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::sensitivity(s.in, s.module, "decode.decode_time", kAllInputs);
  const auto& bw = find(r, "decode.gpu.memory_bandwidth");
  CHECK(bw.exact);
  CHECK(bw.elasticity == -1.0);
  CHECK(r.inputs.front().ok);
}

TEST_CASE("an elasticity that is not a power law comes from central differences", "[sensitivity]") {
  Session s;
  s.load(kDecode);
  auto r = napkin::sensitivity(s.in, s.module, "decode.step_time");
  const auto& batch = find(r, "decode.batch");
  REQUIRE(batch.ok);
  CHECK_FALSE(batch.exact);
  // step_time ∝ weights + batch·kv: d ln y / d ln batch = kv / memory.
  const double kv = s.si("decode.kv_bytes"), memory = s.si("decode.memory");
  CHECK(std::abs(batch.elasticity - kv / memory) < 1e-7);
  // Ranked by the size of the elasticity.
  for (std::size_t i = 1; i < r.inputs.size(); ++i)
    if (r.inputs[i].ok) CHECK(std::abs(r.inputs[i - 1].elasticity) >= std::abs(r.inputs[i].elasticity));
}

TEST_CASE("a step in the formula is not given an elasticity", "[sensitivity]") {
  Session s;
  s.load("record r {\n  x = 4\n  y = if x > 4 then 2 * x else x\n}\n");
  auto r = napkin::sensitivity(s.in, s.module, "r.y");
  const auto& x = find(r, "r.x");
  CHECK_FALSE(x.ok);
  CHECK(x.note.find("not smooth") != std::string::npos);
}

TEST_CASE("sensitivity needs a record's numeric field", "[sensitivity]") {
  Session s;
  s.load("record r {\n  x = 4\n  ok = x > 2\n}\nlet t = 3\n");
  CHECK_THROWS_AS(napkin::sensitivity(s.in, s.module, "r.ok"), napkin::Error);
  CHECK_THROWS_AS(napkin::sensitivity(s.in, s.module, "t"), napkin::Error);
  CHECK_THROWS_AS(napkin::sensitivity(s.in, s.module, "r.nope"), napkin::Error);
}
