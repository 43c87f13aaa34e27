// The workload probes' own machinery: a model's shape survives the trip to
// text and back (the cache key, the GPU module's argument), shapes no decode
// step can have are refused, routing is fixed and within the experts, the
// read probe's exact sum fails when one element is missed, and a rectangular
// product's check fails on a wrong one.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "interpreter/measure/cpu_decode.hpp"
#include "interpreter/measure/cpu_matmul.hpp"
#include "interpreter/measure/cpu_stream.hpp"
#include "interpreter/measure/decode_shape.hpp"
#include "interpreter/measure/probes.hpp"

using namespace napkin::measure;

namespace {

ModelShape small_moe() {
  ModelShape s;
  s.name = "m";
  s.layers = 4, s.d_model = 64, s.heads = 8, s.kv_heads = 2, s.head_dim = 8, s.v_head_dim = 8;
  s.d_ffn = 128, s.mlp_matrices = 3, s.vocab = 100;
  s.experts = 16, s.experts_per_token = 2, s.shared_experts = 1, s.expert_d_ffn = 32, s.dense_layers = 1;
  return s;
}

}  // namespace

TEST_CASE("a model's shape reads back from its text", "[measure][decode]") {
  const ModelShape s = small_moe();
  std::string why;
  const auto back = ModelShape::parse(s.text(), why);
  REQUIRE(back);
  CHECK(back->text() == s.text());
  CHECK(back->experts == 16);
  CHECK(back->dense_layers == 1);
  CHECK(s.text() == "m[L=4,d=64,h=8,kv=2,hd=8,vd=8,ffn=128x3,V=100,E=16,k=2,S=1,effn=32,dense=1]");
}

TEST_CASE("shapes no decode step can have are refused", "[measure][decode]") {
  std::string why;
  CHECK_FALSE(ModelShape::parse("llama3_8b", why));
  CHECK_FALSE(ModelShape::parse("m[L=0,d=64,h=8,kv=2,hd=8,vd=8,ffn=128x3,V=100]", why));
  CHECK_FALSE(ModelShape::parse("m[L=2,d=64,h=8,kv=3,hd=8,vd=8,ffn=128x3,V=100]", why));
  CHECK(why.find("not a multiple of its 3 KV heads") != std::string::npos);
  CHECK_FALSE(ModelShape::parse("m[L=2,d=64,h=8,kv=2,hd=8,vd=8,ffn=128x5,V=100]", why));
  CHECK_FALSE(ModelShape::parse("m[L=2,d=64,h=8,kv=2,hd=8,vd=8,ffn=128x3,V=100,E=4,k=5]", why));
  CHECK_FALSE(ModelShape::parse("m[L=2,d=64,zz=1]", why));
  CHECK_FALSE(ModelShape::parse("m[L=99999999999999999999,d=64,h=8,kv=2,hd=8,vd=8,ffn=128x3,V=100]", why));
}

TEST_CASE("routing is fixed, distinct per token and within the experts", "[measure][decode]") {
  const ModelShape s = small_moe();
  std::set<long> reached;
  for (long t = 0; t < 64; ++t) {
    const auto e = routed_experts(s, 2, t);
    REQUIRE(e.size() == 2);
    CHECK(e[0] != e[1]);
    CHECK(e == routed_experts(s, 2, t));
    for (long x : e) {
      CHECK(x >= 0);
      CHECK(x < 16);
      reached.insert(x);
    }
  }
  CHECK(reached.size() > 8);  // a batch spreads over the experts, as a balanced router's would
}

TEST_CASE("a decode step's footprint counts only the experts a batch reaches", "[measure][decode]") {
  DecodeRequest one{small_moe(), 1, 10, "fp32", 1}, many{small_moe(), 64, 10, "fp32", 1};
  const DecodeFootprint a = decode_footprint(one), b = decode_footprint(many);
  CHECK(a.experts_allocated == 3 * 2);  // 3 MoE layers, 2 experts for one token
  CHECK(b.experts_allocated > a.experts_allocated);
  CHECK(b.kv_cache == 64 * a.kv_cache);
  DecodeRequest half = one;
  half.dtype = "bf16";
  CHECK(decode_footprint(half).weights == a.weights / 2);
}

TEST_CASE("the read probe's sum fails when the kernel misses an element", "[measure][decode]") {
  const std::size_t n = 10'000;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += stream_source(i);
  CHECK(check_read(sum, n).empty());
  CHECK_FALSE(check_read(sum - stream_source(n - 1), n).empty());
  CHECK_FALSE(check_read(0, n).empty());
}

TEST_CASE("a rectangular product's check fails on a wrong one", "[measure][decode]") {
  const int m = 5, n = 7, k = 11;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 37) % 17) / 17.0f - 0.5f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 53) % 19) / 19.0f - 0.5f;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += static_cast<double>(a[i * k + p]) * b[p * n + j];
      c[i * n + j] = static_cast<float>(s);
    }
  CHECK(check_product(m, n, k, a.data(), b.data(), c.data()).empty());
  // Read as if square or transposed, the same numbers are a wrong product.
  CHECK_FALSE(check_product(m, n, k - 1, a.data(), b.data(), c.data()).empty());
  for (auto& x : c) x += 0.25f;  // the check samples 16 entries: a wrong product is wrong at each
  CHECK_FALSE(check_product(m, n, k, a.data(), b.data(), c.data()).empty());
}

TEST_CASE("sizes and models are the file's to name, not napkin measure's", "[measure][decode]") {
  for (const Request& r : standard_requests(*find_probe("cpu.matmul_throughput"))) {
    CHECK(r.arg("n").empty());
    CHECK(r.arg("dtype") == "fp32");
  }
  CHECK(standard_requests(*find_probe("cpu.decode_step")).empty());
  Request r{find_probe("cpu.matmul_throughput"), {}};
  CHECK(settle(r, {{"n", "64"}}).empty());
  CHECK(r.key().find(",n=64)") != std::string::npos);
  CHECK(r.count("m", r.count("n", 0)) == 64);
}
