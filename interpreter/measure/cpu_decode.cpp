#include "cpu_decode.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "bf16.hpp"
#include "cpu_blas.hpp"
#include "cpu_info.hpp"
#include "grammar/diagnostic.hpp"

namespace napkin::measure {

namespace {

using u16 = std::uint16_t;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Rng {
  std::uint64_t s;
  float next() {  // uniform in [-1, 1)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(static_cast<double>(s >> 40) / 8388608.0 - 1.0);
  }
};

// Values of fp32 or bf16 storage, one of which is used.
struct Store {
  std::vector<float> f;
  std::vector<u16> h;
  void make(std::size_t n, bool bf16, float scale, Rng& rng) {
    if (bf16) {
      h.resize(n);
      for (auto& x : h) x = to_bf16(rng.next() * scale);
    } else {
      f.resize(n);
      for (auto& x : f) x = rng.next() * scale;
    }
  }
  double at(std::size_t i) const { return h.empty() ? f[i] : from_bf16(h[i]); }
  void put(std::size_t i, float v) {
    if (h.empty()) f[i] = v;
    else h[i] = to_bf16(v);
  }
};

// A weight matrix out × in, stored as nn.Linear stores it: row r holds
// output r's weights, so a batch-1 product reads each row once, in order.
struct Mat {
  long out = 0, in = 0;
  Store w;
};

struct Mlp {
  std::vector<Mat> m;  // gate (when gated), up, down
};

struct Layer {
  Mat q, k, v, o;
  Mlp dense;
  Mat router;                             // a mixture of experts: experts × d
  std::map<long, Mlp> experts;            // the routed experts this batch reaches
  std::map<long, std::vector<long>> sent;  // expert → the tokens sent to it
  std::vector<Mlp> shared;
  Store kc, vc;  // [batch][kv_heads][context][head_dim] and [v_head_dim]
};

double element_bytes(const std::string& dtype) { return dtype == "bf16" ? 2 : 4; }

// The routed experts each MoE layer's tokens reach: expert → tokens.
std::map<long, std::vector<long>> routes(const ModelShape& s, long layer, long batch) {
  std::map<long, std::vector<long>> out;
  for (long t = 0; t < batch; ++t)
    for (long e : routed_experts(s, layer, t)) out[e].push_back(t);
  return out;
}

double mlp_params(const ModelShape& s, long width) { return static_cast<double>(s.mlp_matrices) * s.d_model * width; }

class Step {
 public:
  Step(const DecodeRequest& r, const CpuBlas& blas) : r_(r), s_(r.shape), blas_(blas), bf16_(r.dtype == "bf16") {
    Rng rng{0x5eed};
    const long B = r.batch, T = r.context;
    layers_.reserve(s_.layers);
    for (long l = 0; l < s_.layers; ++l) {
      Layer& L = layers_.emplace_back();
      L.q = mat(s_.q_dim(), s_.d_model, rng);
      L.k = mat(s_.kv_dim(), s_.d_model, rng);
      L.v = mat(s_.v_dim(), s_.d_model, rng);
      L.o = mat(s_.d_model, s_.o_in(), rng);
      if (s_.moe_layer(l)) {
        L.router = mat(s_.experts, s_.d_model, rng);
        L.sent = routes(s_, l, B);
        for (const auto& [e, tokens] : L.sent) L.experts[e] = mlp(s_.expert_d_ffn, rng);
        for (long i = 0; i < s_.shared_experts; ++i) L.shared.push_back(mlp(s_.expert_d_ffn, rng));
      } else {
        L.dense = mlp(s_.d_ffn, rng);
      }
      // Earlier tokens' keys and values: unit-variance values, as a layer's outputs are.
      L.kc.make(static_cast<std::size_t>(B) * s_.kv_heads * T * s_.head_dim, bf16_, 1.7f, rng);
      L.vc.make(static_cast<std::size_t>(B) * s_.kv_heads * T * s_.v_head_dim, bf16_, 1.7f, rng);
    }
    head_ = mat(s_.vocab, s_.d_model, rng);
    const long width = std::max(s_.d_ffn, s_.moe() ? s_.expert_d_ffn : 0);
    x_.assign(B * s_.d_model, 0);
    xn_ = o_ = down_ = gathered_ = part_ = x_;
    q_.assign(B * s_.q_dim(), 0);
    k_.assign(B * s_.kv_dim(), 0);
    v_.assign(B * s_.v_dim(), 0);
    attn_.assign(B * s_.o_in(), 0);
    g_.assign(B * width, 0);
    u_ = a_ = g_;
    logits_.assign(B * std::max(s_.vocab, s_.experts), 0);
    scores_.assign((s_.heads / s_.kv_heads) * T, 0);
    tokens_.assign(B, 0);
    for (long b = 0; b < B; ++b) tokens_[b] = (b * 7919) % s_.vocab;
  }

  // One greedy decode step. `verify`: every output starts as NaN and every
  // product and attention is checked against double precision once made.
  void run(bool verify) {
    verify_ = verify;
    const long B = r_.batch, d = s_.d_model;
    for (long b = 0; b < B; ++b)  // the embedding lookup: the tied table's rows
      for (long i = 0; i < d; ++i) x_[b * d + i] = static_cast<float>(head_.w.at(tokens_[b] * d + i));
    for (long l = 0; l < s_.layers; ++l) layer(l);
    norm(x_, xn_);
    linear(head_, xn_.data(), B, logits_.data(), "the LM head");
    for (long b = 0; b < B; ++b) {
      const float* row = logits_.data() + b * s_.vocab;
      tokens_[b] = std::max_element(row, row + s_.vocab) - row;
    }
  }

 private:
  Mat mat(long out, long in, Rng& rng) {
    Mat m{out, in, {}};
    // Uniform in [-a, a) with a = √(3/in): unit-variance inputs give unit-variance outputs.
    m.w.make(static_cast<std::size_t>(out) * in, bf16_, std::sqrt(3.0f / static_cast<float>(in)), rng);
    return m;
  }
  Mlp mlp(long width, Rng& rng) {
    Mlp m;
    if (s_.mlp_matrices == 3) m.m.push_back(mat(width, s_.d_model, rng));
    m.m.push_back(mat(width, s_.d_model, rng));
    m.m.push_back(mat(s_.d_model, width, rng));
    return m;
  }

  void norm(const std::vector<float>& in, std::vector<float>& out) {
    const long d = s_.d_model;
    for (long b = 0; b < r_.batch; ++b) {
      double sum = 0;
      for (long i = 0; i < d; ++i) sum += static_cast<double>(in[b * d + i]) * in[b * d + i];
      const float scale = static_cast<float>(1 / std::sqrt(sum / d + 1e-6));
      for (long i = 0; i < d; ++i) out[b * d + i] = in[b * d + i] * scale;
    }
  }

  // y (rows × W.out) = x (rows × W.in) · Wᵀ.
  void linear(const Mat& W, const float* x, long rows, float* y, const std::string& what) {
    if (verify_) std::fill(y, y + rows * W.out, kNaN);
    if (bf16_) {
      xh_.resize(static_cast<std::size_t>(rows) * W.in);
      for (std::size_t i = 0; i < xh_.size(); ++i) xh_[i] = to_bf16(x[i]);
      blas_.sbgemm(kCblasRowMajor, kCblasNoTrans, kCblasTrans, rows, W.out, W.in, 1.0f, xh_.data(), W.in, W.w.h.data(),
                   W.in, 0.0f, y, W.out);
    } else {
      blas_.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasTrans, rows, W.out, W.in, 1.0f, x, W.in, W.w.f.data(), W.in,
                  0.0f, y, W.out);
    }
    if (!verify_) return;
    for (long n = 0; n < 4; ++n) {
      const long row = (n * 7 + 1) % rows, col = (n * 7919 + 3) % W.out;
      double want = 0, scale = 0;
      for (long i = 0; i < W.in; ++i) {
        const double xi = bf16_ ? from_bf16(xh_[row * W.in + i]) : x[row * W.in + i];
        const double p = xi * W.w.at(static_cast<std::size_t>(col) * W.in + i);
        want += p;
        scale += std::fabs(p);
      }
      const double got = y[row * W.out + col];
      if (!(std::fabs(got - want) <= 1e-4 * scale + 1e-6))
        fail(codes::probe_unavailable, fmt::format("the decode step's {} product is wrong at ({}, {}): {} instead of {}",
                                                   what, row, col, got, want));
    }
  }

  void mlp_apply(const Mlp& m, const float* x, long rows, float* y, const std::string& what) {
    const bool gated = m.m.size() == 3;
    const Mat& up = m.m[gated ? 1 : 0];
    if (gated) linear(m.m[0], x, rows, g_.data(), what + " gate");
    linear(up, x, rows, u_.data(), what + " up");
    for (long i = 0; i < rows * up.out; ++i) {
      const float z = gated ? g_[i] : u_[i];
      const float silu = z / (1 + std::exp(-z));
      a_[i] = gated ? silu * u_[i] : silu;
    }
    linear(m.m.back(), a_.data(), rows, y, what + " down");
  }

  void layer(long l) {
    Layer& L = layers_[l];
    const long B = r_.batch, d = s_.d_model;
    const std::string at = fmt::format("layer {}", l);
    norm(x_, xn_);
    linear(L.q, xn_.data(), B, q_.data(), at + " W_Q");
    linear(L.k, xn_.data(), B, k_.data(), at + " W_K");
    linear(L.v, xn_.data(), B, v_.data(), at + " W_V");
    attention(L, at);
    linear(L.o, attn_.data(), B, o_.data(), at + " W_O");
    for (long i = 0; i < B * d; ++i) x_[i] += o_[i];
    norm(x_, xn_);
    if (!s_.moe_layer(l)) {
      mlp_apply(L.dense, xn_.data(), B, down_.data(), at + " MLP");
    } else {
      // The router's product is made and its scores set aside: tokens go
      // where routed_experts() sends them, so every run reads the same experts.
      linear(L.router, xn_.data(), B, logits_.data(), at + " router");
      std::fill(down_.begin(), down_.end(), 0.0f);
      for (const auto& [e, tokens] : L.sent) {
        const long n = static_cast<long>(tokens.size());
        for (long j = 0; j < n; ++j) std::copy_n(xn_.data() + tokens[j] * d, d, gathered_.data() + j * d);
        mlp_apply(L.experts.at(e), gathered_.data(), n, part_.data(), fmt::format("{} expert {}", at, e));
        for (long j = 0; j < n; ++j)
          for (long i = 0; i < d; ++i) down_[tokens[j] * d + i] += part_[j * d + i] / s_.experts_per_token;
      }
      for (std::size_t i = 0; i < L.shared.size(); ++i) {
        mlp_apply(L.shared[i], xn_.data(), B, part_.data(), fmt::format("{} shared expert {}", at, i));
        for (long j = 0; j < B * d; ++j) down_[j] += part_[j];
      }
    }
    for (long i = 0; i < B * d; ++i) x_[i] += down_[i];
  }

  // Each sequence's new key and value go to the last of its `context`
  // places; then per KV head, S = Q·Kᵀ/√hd over the cache, a softmax, and S·V.
  void attention(Layer& L, const std::string& at) {
    const long B = r_.batch, T = r_.context, kvh = s_.kv_heads, hd = s_.head_dim, vd = s_.v_head_dim;
    const long group = s_.heads / kvh;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
    if (verify_) std::fill(attn_.begin(), attn_.end(), kNaN);
    for (long b = 0; b < B; ++b)
      for (long g = 0; g < kvh; ++g) {
        const std::size_t kbase = static_cast<std::size_t>(b * kvh + g) * T * hd, vbase = static_cast<std::size_t>(b * kvh + g) * T * vd;
        for (long i = 0; i < hd; ++i) L.kc.put(kbase + (T - 1) * hd + i, k_[b * s_.kv_dim() + g * hd + i]);
        for (long i = 0; i < vd; ++i) L.vc.put(vbase + (T - 1) * vd + i, v_[b * s_.v_dim() + g * vd + i]);
        const float* q = q_.data() + b * s_.q_dim() + g * group * hd;
        float* out = attn_.data() + b * s_.o_in() + g * group * vd;
        if (bf16_) {
          qh_.resize(group * hd);
          for (long i = 0; i < group * hd; ++i) qh_[i] = to_bf16(q[i]);
          blas_.sbgemm(kCblasRowMajor, kCblasNoTrans, kCblasTrans, group, T, hd, scale, qh_.data(), hd,
                       L.kc.h.data() + kbase, hd, 0.0f, scores_.data(), T);
        } else {
          blas_.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasTrans, group, T, hd, scale, q, hd, L.kc.f.data() + kbase, hd,
                      0.0f, scores_.data(), T);
        }
        for (long h = 0; h < group; ++h) {
          float* row = scores_.data() + h * T;
          const float top = *std::max_element(row, row + T);
          float sum = 0;
          for (long t = 0; t < T; ++t) sum += row[t] = std::exp(row[t] - top);
          for (long t = 0; t < T; ++t) row[t] /= sum;
        }
        if (bf16_) {
          sh_.resize(group * T);
          for (long i = 0; i < group * T; ++i) sh_[i] = to_bf16(scores_[i]);
          blas_.sbgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, group, vd, T, 1.0f, sh_.data(), T,
                       L.vc.h.data() + vbase, vd, 0.0f, out, vd);
        } else {
          blas_.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, group, vd, T, 1.0f, scores_.data(), T,
                      L.vc.f.data() + vbase, vd, 0.0f, out, vd);
        }
      }
    if (verify_) check_attention(L, at);
  }

  void check_attention(const Layer& L, const std::string& at) {
    const long B = r_.batch, T = r_.context, kvh = s_.kv_heads, hd = s_.head_dim, vd = s_.v_head_dim;
    const long group = s_.heads / kvh;
    for (long n = 0; n < 4; ++n) {
      const long b = (n * 5 + 1) % B, h = (n * 3 + 2) % s_.heads, j = (n * 37 + 5) % vd, g = h / group;
      const std::size_t kbase = static_cast<std::size_t>(b * kvh + g) * T * hd, vbase = static_cast<std::size_t>(b * kvh + g) * T * vd;
      std::vector<double> p(T);
      for (long t = 0; t < T; ++t) {
        double dot = 0;
        for (long i = 0; i < hd; ++i) {
          const float qi = q_[b * s_.q_dim() + h * hd + i];
          dot += (bf16_ ? from_bf16(to_bf16(qi)) : qi) * L.kc.at(kbase + t * hd + i);
        }
        p[t] = dot / std::sqrt(static_cast<double>(hd));
      }
      const double top = *std::max_element(p.begin(), p.end());
      double sum = 0, want = 0, scale = 0;
      for (auto& x : p) sum += x = std::exp(x - top);
      for (long t = 0; t < T; ++t) {
        const double term = p[t] / sum * L.vc.at(vbase + t * vd + j);
        want += term;
        scale += std::fabs(term);
      }
      const double got = attn_[b * s_.o_in() + h * vd + j];
      // bf16 rounds the probabilities before S·V: 2⁻⁸ of each term.
      if (!(std::fabs(got - want) <= (bf16_ ? 1e-2 : 1e-4) * scale + 1e-6))
        fail(codes::probe_unavailable,
             fmt::format("the decode step's attention over the KV cache is wrong in {} (sequence {}, head {}, value {}): "
                         "{} instead of {}",
                         at, b, h, j, got, want));
    }
  }

  const DecodeRequest& r_;
  const ModelShape& s_;
  const CpuBlas& blas_;
  const bool bf16_;
  bool verify_ = false;
  std::vector<Layer> layers_;
  Mat head_;
  std::vector<float> x_, xn_, o_, down_, gathered_, part_, q_, k_, v_, attn_, g_, u_, a_, logits_, scores_;
  std::vector<u16> xh_, qh_, sh_;
  std::vector<long> tokens_;
};

}  // namespace

DecodeFootprint decode_footprint(const DecodeRequest& r) {
  const ModelShape& s = r.shape;
  const double e = element_bytes(r.dtype), B = static_cast<double>(r.batch), T = static_cast<double>(r.context);
  DecodeFootprint f;
  const double attention = static_cast<double>(s.d_model) * (s.q_dim() + s.kv_dim() + s.v_dim()) +
                           static_cast<double>(s.o_in()) * s.d_model;
  for (long l = 0; l < s.layers; ++l) {
    f.weight_params += attention;
    if (!s.moe_layer(l)) {
      f.weight_params += mlp_params(s, s.d_ffn);
      continue;
    }
    // Past a few thousand tokens every expert is reached; no need to route them all.
    const long reached = r.batch * s.experts_per_token >= 8 * s.experts
                             ? s.experts
                             : static_cast<long>(routes(s, l, r.batch).size());
    f.experts_allocated += reached;
    f.weight_params += static_cast<double>(s.experts) * s.d_model +
                       (reached + s.shared_experts) * mlp_params(s, s.expert_d_ffn);
  }
  f.weight_params += static_cast<double>(s.vocab) * s.d_model;
  f.weights = f.weight_params * e;
  f.kv_cache = s.layers * B * s.kv_heads * T * (s.head_dim + s.v_head_dim) * e;
  const double width = std::max(s.d_ffn, s.moe() ? s.expert_d_ffn : 0);
  f.activations = 4 * B * (6.0 * s.d_model + s.q_dim() + s.kv_dim() + s.v_dim() + s.o_in() + 3 * width +
                           std::max(s.vocab, s.experts)) +
                  6.0 * (s.heads / s.kv_heads) * T + 2 * B * std::max<double>(width, s.o_in());
  return f;
}

Measurement cpu_decode(const DecodeRequest& r, const Settings& s) {
  const ModelShape& shape = r.shape;
  const bool bf16 = r.dtype == "bf16";
  const CpuBlas& blas = cpu_blas(s.cpu_blas);
  if (!blas.found) fail(codes::probe_unavailable, "the decode step runs through a BLAS: " + blas.reason);
  if (bf16 && !blas.sbgemm)
    fail(codes::probe_unavailable,
         fmt::format("{} has no cblas_sbgemm for a bf16 decode step (OpenBLAS has it when built with BUILD_BFLOAT16)",
                     blas.name));
  // A BLAS index is an int: a KV cache or an LM head past 2³¹ elements cannot be passed.
  if (static_cast<double>(r.context) * std::max(shape.head_dim, shape.v_head_dim) > 2e9 ||
      static_cast<double>(r.batch) * std::max(shape.vocab, shape.d_model) > 2e9)
    fail(codes::probe_unavailable, fmt::format("{}'s decode step at batch {} and context {} is past what a BLAS call indexes",
                                               shape.name, r.batch, r.context));

  const DecodeFootprint f = decode_footprint(r);
  const MemoryBudget budget = memory_budget(s);
  if (f.total() > static_cast<double>(budget.bytes))
    fail(codes::probe_unavailable,
         fmt::format("{}'s decode step at batch {} and context {} needs {:.3g} GB ({:.3g} GB of {} weights, {:.3g} GB of "
                     "KV cache), more than the {:.3g} GB napkin may use here ({})",
                     shape.name, r.batch, r.context, f.total() / 1e9, f.weights / 1e9, r.dtype, f.kv_cache / 1e9,
                     budget.bytes / 1e9, budget.rule));

  if (blas.set_threads) blas.set_threads(r.threads);
  const int used = blas.get_threads ? blas.get_threads() : r.threads;
  Step step(r, blas);
  auto seconds = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    step.run(false);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  seconds();  // the warm-up: first touches, the library's threads
  std::vector<double> samples;
  double spent = 0;
  while (samples.size() < 25 && (samples.size() < 3 || spent < 0.5)) {
    samples.push_back(seconds());
    spent += samples.back();
  }
  step.run(true);

  Measurement m;
  m.probe = "cpu.decode_step";
  m.unit = "s";
  m.device = cpu_info().device();
  summarize(m, samples);
  std::string experts;
  if (shape.moe())
    experts = fmt::format(", {} routed experts reached over the {} MoE layers (of {} each; only those are allocated)",
                          f.experts_allocated, shape.layers - std::min(shape.layers, shape.dense_layers), shape.experts);
  m.method = fmt::format(
      "one greedy decode step of {} ({} layers, d {}, {} heads, {} KV heads, head dim {}, MLP {} × {}, vocab {}{}) at "
      "batch {}, context {}: per layer RMSnorm, W_Q, W_K, W_V, attention over the KV cache, W_O and the MLP, then the "
      "LM head and an argmax; reads {:.4g} MB of {} weights ({:.4g} M) and {:.4g} MB of KV cache a step; {} from {}, "
      "{} thread{}; random weights, 1 warm-up step; every product and the attention checked in double after timing",
      shape.name, shape.layers, shape.d_model, shape.heads, shape.kv_heads, shape.head_dim, shape.mlp_matrices,
      shape.d_ffn, shape.vocab, experts, r.batch, r.context, f.weights / 1e6, r.dtype, f.weight_params / 1e6,
      f.kv_cache / 1e6, bf16 ? "cblas_sbgemm" : "cblas_sgemm", blas.name, used, used == 1 ? "" : "s");
  m.measured_at = utc_now();
  return m;
}

}  // namespace napkin::measure
