#pragma once
// The shapes a decode step multiplies by, read from a napkin `model` record
// (std/transformer's inputs) and carried to the probe as text, which is also
// what the cache keys on: two records with one shape are one measurement,
// and a record changed with `with` is another.
#include <optional>
#include <string>
#include <vector>

namespace napkin::measure {

struct ModelShape {
  std::string name;  // the record's name, for the reader: "llama3_8b"
  long layers = 0, d_model = 0, heads = 0, kv_heads = 0, head_dim = 0, v_head_dim = 0;
  long d_ffn = 0, mlp_matrices = 3;  // 3: gated (SwiGLU, GeGLU), 2: up and down
  long vocab = 0;
  long experts = 1, experts_per_token = 1, shared_experts = 0, expert_d_ffn = 0, dense_layers = 0;

  // "llama3_8b[L=32,d=4096,h=32,kv=8,hd=128,vd=128,ffn=14336x3,V=128256]", with
  // ",E=256,k=8,S=1,effn=2048,dense=3" for a mixture of experts.
  std::string text() const;
  static std::optional<ModelShape> parse(const std::string& text, std::string& why);

  bool moe() const { return experts > 1; }
  bool moe_layer(long layer) const { return moe() && layer >= dense_layers; }
  long q_dim() const { return heads * head_dim; }
  long kv_dim() const { return kv_heads * head_dim; }
  long v_dim() const { return kv_heads * v_head_dim; }
  long o_in() const { return heads * v_head_dim; }
};

// Which routed experts token `t` of a step in layer `layer` goes to: a fixed
// pseudo-random top-k, the same on every run, so the experts a batch reaches
// are those a router with uniform load would reach.
std::vector<long> routed_experts(const ModelShape& s, long layer, long token);

}  // namespace napkin::measure
