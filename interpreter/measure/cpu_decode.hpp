#pragma once
// One decode step of a model's own shapes on the CPU, timed: the embedding
// lookup, every weight matrix at its shape (Q, K, V, O, each MLP matrix,
// each routed expert the batch reaches, the LM head), the attention read of
// a KV cache of `context` tokens per sequence, and a greedy pick of the next
// token, through the BLAS cpu_blas.hpp opens. What is timed is what the
// bandwidth bound of decode_tokens_per_second predicts.
#include <string>

#include "decode_shape.hpp"
#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

struct DecodeRequest {
  ModelShape shape;
  long batch = 1, context = 1;
  std::string dtype = "fp32";  // fp32, or bf16 through cblas_sbgemm
  int threads = 1;
};

// Seconds a step, the median of several after a warm-up. Throws
// napkin::Error with the reason it cannot run (no BLAS, no bf16 in it, more
// memory than memory_budget() allows, with the size named) or when a
// product or the attention it computed is wrong.
Measurement cpu_decode(const DecodeRequest& r, const Settings& s);

// What the step holds: weights, KV cache and activations, in bytes.
struct DecodeFootprint {
  double weights = 0, kv_cache = 0, activations = 0;
  double weight_params = 0;  // elements of every matrix the step multiplies
  long experts_allocated = 0;  // routed experts the batch reaches, over all MoE layers
  double total() const { return weights + kv_cache + activations; }
};
DecodeFootprint decode_footprint(const DecodeRequest& r);

}  // namespace napkin::measure
