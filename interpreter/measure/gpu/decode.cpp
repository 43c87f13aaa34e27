// One decode step of a model's own shapes on the GPU, timed: the embedding
// lookup, every weight matrix at its shape through cublasGemmEx (Q, K, V, O,
// the MLP, the LM head), the attention over a KV cache of `context` tokens
// per sequence as two strided-batched products around a softmax, and a
// greedy argmax. Weights are uniform in [-1, 1) and scaled by √(3/in)
// through the product's α, so activations keep unit variance. A mixture of
// experts is refused with its reason (the CPU probe times its experts).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <memory>

#include "common.hpp"
#include "interpreter/measure/decode_shape.hpp"
#include "kernels.cuh"

namespace napkin::gpu {

namespace {

using measure::ModelShape;

void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Failure(strf("%s failed: %s", what, cublasGetStatusName(s)));
}
#define NAPKIN_CUBLAS(call) check_blas((call), #call)

struct Handle {
  cublasHandle_t h = nullptr;
  Handle() { NAPKIN_CUBLAS(cublasCreate(&h)); }
  ~Handle() { cublasDestroy(h); }
};

struct Type {
  const char* name;
  cudaDataType_t t;
  int bytes;
};
const Type kTypes[] = {{"bf16", CUDA_R_16BF, 2}, {"fp16", CUDA_R_16F, 2}, {"fp32", CUDA_R_32F, 4}};

double host_value(cudaDataType_t t, const unsigned char* p) {
  if (t == CUDA_R_16BF) return __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(p));
  if (t == CUDA_R_16F) return __half2float(*reinterpret_cast<const __half*>(p));
  return *reinterpret_cast<const float*>(p);
}

struct Mat {
  long out = 0, in = 0;
  std::unique_ptr<DeviceBuffer<unsigned char>> w;
};

class Step {
 public:
  Step(const ModelShape& s, long batch, long context, const Type& type) : s_(s), B_(batch), T_(context), ty_(type) {
    unsigned seed = 1;
    for (long l = 0; l < s.layers; ++l) {
      Layer& L = layers_.emplace_back();
      L.q = mat(s.q_dim(), s.d_model, seed++);
      L.k = mat(s.kv_dim(), s.d_model, seed++);
      L.v = mat(s.v_dim(), s.d_model, seed++);
      L.o = mat(s.d_model, s.o_in(), seed++);
      if (s.mlp_matrices == 3) L.mlp.push_back(mat(s.d_ffn, s.d_model, seed++));
      L.mlp.push_back(mat(s.d_ffn, s.d_model, seed++));
      L.mlp.push_back(mat(s.d_model, s.d_ffn, seed++));
      L.kc = buffer(static_cast<std::size_t>(B_) * s.kv_heads * T_ * s.head_dim);
      L.vc = buffer(static_cast<std::size_t>(B_) * s.kv_heads * T_ * s.v_head_dim);
      kernels::fill_random(ty_.t, L.kc->get(), L.kc->size() / ty_.bytes, seed++, false);
      kernels::fill_random(ty_.t, L.vc->get(), L.vc->size() / ty_.bytes, seed++, false);
    }
    head_ = mat(s.vocab, s.d_model, seed++);
    x_ = buffer(B_ * s.d_model), xn_ = buffer(B_ * s.d_model), o_ = buffer(B_ * s.d_model);
    q_ = buffer(B_ * s.q_dim()), k_ = buffer(B_ * s.kv_dim()), v_ = buffer(B_ * s.v_dim());
    attn_ = buffer(B_ * s.o_in());
    g_ = buffer(B_ * s.d_ffn), u_ = buffer(B_ * s.d_ffn), a_ = buffer(B_ * s.d_ffn);
    scores_ = buffer(static_cast<std::size_t>(B_) * s.heads * T_);
    logits_ = buffer(static_cast<std::size_t>(B_) * s.vocab);
    tokens_ = std::make_unique<DeviceBuffer<int>>(B_);
    std::vector<int> start(B_);
    for (long b = 0; b < B_; ++b) start[b] = static_cast<int>((b * 7919) % s.vocab);
    NAPKIN_CUDA(cudaMemcpy(tokens_->get(), start.data(), B_ * sizeof(int), cudaMemcpyHostToDevice));
    NAPKIN_CUDA(cudaGetLastError());
    NAPKIN_CUDA(cudaDeviceSynchronize());
  }

  // What the step reads a step: weights, then KV cache, in bytes.
  static double weight_bytes(const ModelShape& s, int bytes) {
    const double attention = static_cast<double>(s.d_model) * (s.q_dim() + s.kv_dim() + s.v_dim()) +
                             static_cast<double>(s.o_in()) * s.d_model;
    return (s.layers * (attention + static_cast<double>(s.mlp_matrices) * s.d_model * s.d_ffn) +
            static_cast<double>(s.vocab) * s.d_model) * bytes;
  }

  void run(bool verify) {
    verify_ = verify;
    const int B = static_cast<int>(B_), d = static_cast<int>(s_.d_model);
    kernels::embed(ty_.t, head_.w->get(), tokens_->get(), x_->get(), B, d);
    for (Layer& L : layers_) {
      kernels::rmsnorm(ty_.t, x_->get(), xn_->get(), B, d);
      linear(L.q, *xn_, *q_, "W_Q");
      linear(L.k, *xn_, *k_, "W_K");
      linear(L.v, *xn_, *v_, "W_V");
      attention(L);
      linear(L.o, *attn_, *o_, "W_O");
      kernels::add(ty_.t, x_->get(), o_->get(), static_cast<std::size_t>(B) * d);
      kernels::rmsnorm(ty_.t, x_->get(), xn_->get(), B, d);
      const bool gated = L.mlp.size() == 3;
      if (gated) linear(L.mlp[0], *xn_, *g_, "MLP gate");
      linear(L.mlp[gated ? 1 : 0], *xn_, *u_, "MLP up");
      kernels::silu(ty_.t, gated ? g_->get() : nullptr, u_->get(), a_->get(), static_cast<std::size_t>(B) * s_.d_ffn);
      linear(L.mlp.back(), *a_, *o_, "MLP down");
      kernels::add(ty_.t, x_->get(), o_->get(), static_cast<std::size_t>(B) * d);
    }
    kernels::rmsnorm(ty_.t, x_->get(), xn_->get(), B, d);
    linear(head_, *xn_, *logits_, "LM head");
    kernels::argmax(ty_.t, logits_->get(), B, static_cast<int>(s_.vocab), tokens_->get());
    NAPKIN_CUDA(cudaGetLastError());
  }

 private:
  struct Layer {
    Mat q, k, v, o;
    std::vector<Mat> mlp;
    std::unique_ptr<DeviceBuffer<unsigned char>> kc, vc;
  };

  std::unique_ptr<DeviceBuffer<unsigned char>> buffer(std::size_t elems) {
    return std::make_unique<DeviceBuffer<unsigned char>>(elems * ty_.bytes);
  }
  Mat mat(long out, long in, unsigned seed) {
    Mat m{out, in, buffer(static_cast<std::size_t>(out) * in)};
    kernels::fill_random(ty_.t, m.w->get(), static_cast<std::size_t>(out) * in, seed, true);
    return m;
  }
  float alpha(const Mat& m) const { return std::sqrt(3.0f / static_cast<float>(m.in)); }

  // y (B × out) = α · x (B × in) · Wᵀ, W stored out × in row-major: in
  // cuBLAS's column-major terms yᵀ = op(W)ᵀ · xᵀ, the "TN" product.
  void linear(const Mat& W, const DeviceBuffer<unsigned char>& x, DeviceBuffer<unsigned char>& y, const char* what) {
    const float a = alpha(W), zero = 0;
    if (verify_) NAPKIN_CUDA(cudaMemset(y.get(), 0xff, static_cast<std::size_t>(B_) * W.out * ty_.bytes));  // NaN
    NAPKIN_CUBLAS(cublasGemmEx(blas_.h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(W.out), static_cast<int>(B_),
                               static_cast<int>(W.in), &a, W.w->get(), ty_.t, static_cast<int>(W.in), x.get(), ty_.t,
                               static_cast<int>(W.in), &zero, y.get(), ty_.t, static_cast<int>(W.out),
                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    if (!verify_) return;
    NAPKIN_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned char> xr(W.in * ty_.bytes), wr(xr.size()), got(ty_.bytes);
    for (int n = 0; n < 2; ++n) {
      const long row = (n * 7 + 1) % B_, col = (n * 7919 + 3) % W.out;
      NAPKIN_CUDA(cudaMemcpy(xr.data(), x.get() + row * W.in * ty_.bytes, xr.size(), cudaMemcpyDeviceToHost));
      NAPKIN_CUDA(cudaMemcpy(wr.data(), W.w->get() + col * W.in * ty_.bytes, wr.size(), cudaMemcpyDeviceToHost));
      NAPKIN_CUDA(cudaMemcpy(got.data(), y.get() + (row * W.out + col) * ty_.bytes, ty_.bytes, cudaMemcpyDeviceToHost));
      double want = 0, scale = 0;
      for (long i = 0; i < W.in; ++i) {
        const double p = a * host_value(ty_.t, xr.data() + i * ty_.bytes) * host_value(ty_.t, wr.data() + i * ty_.bytes);
        want += p;
        scale += std::fabs(p);
      }
      const double g = host_value(ty_.t, got.data());
      // The output is rounded to the step's type: 2⁻⁸ of it for bf16.
      if (!std::isfinite(g) || !(std::fabs(g - want) <= 0.01 * std::fabs(want) + 2e-3 * scale))
        throw Failure(strf("the decode step's %s product is wrong at (%ld, %ld): %g instead of %g", what, row, col, g, want));
    }
  }

  // Per (sequence, KV head): S = Kᵀ·Q over the cache, a softmax per head,
  // then V·P: the KV cache's columns are the cache's rows.
  void attention(Layer& L) {
    const int B = static_cast<int>(B_), T = static_cast<int>(T_), kvh = static_cast<int>(s_.kv_heads);
    const int hd = static_cast<int>(s_.head_dim), vd = static_cast<int>(s_.v_head_dim);
    const int group = static_cast<int>(s_.heads / s_.kv_heads);
    kernels::append(ty_.t, k_->get(), L.kc->get(), B, kvh, T, hd);
    kernels::append(ty_.t, v_->get(), L.vc->get(), B, kvh, T, vd);
    const float scale = 1.0f / std::sqrt(static_cast<float>(hd)), one = 1, zero = 0;
    if (verify_) NAPKIN_CUDA(cudaMemset(attn_->get(), 0xff, attn_->size()));
    NAPKIN_CUBLAS(cublasGemmStridedBatchedEx(blas_.h, CUBLAS_OP_T, CUBLAS_OP_N, T, group, hd, &scale, L.kc->get(), ty_.t,
                                             hd, static_cast<long long>(T) * hd, q_->get(), ty_.t, hd,
                                             static_cast<long long>(group) * hd, &zero, scores_->get(), ty_.t, T,
                                             static_cast<long long>(T) * group, B * kvh, CUBLAS_COMPUTE_32F,
                                             CUBLAS_GEMM_DEFAULT));
    kernels::softmax(ty_.t, scores_->get(), B * static_cast<int>(s_.heads), T);
    NAPKIN_CUBLAS(cublasGemmStridedBatchedEx(blas_.h, CUBLAS_OP_N, CUBLAS_OP_N, vd, group, T, &one, L.vc->get(), ty_.t,
                                             vd, static_cast<long long>(T) * vd, scores_->get(), ty_.t, T,
                                             static_cast<long long>(T) * group, &zero, attn_->get(), ty_.t, vd,
                                             static_cast<long long>(group) * vd, B * kvh, CUBLAS_COMPUTE_32F,
                                             CUBLAS_GEMM_DEFAULT));
    if (verify_) check_attention(L);
  }

  // One output of the last sequence's first head, from the cache and the
  // query on the host.
  void check_attention(const Layer& L) {
    NAPKIN_CUDA(cudaDeviceSynchronize());
    const long b = B_ - 1, hd = s_.head_dim, vd = s_.v_head_dim, T = T_;
    const std::size_t e = ty_.bytes;
    std::vector<unsigned char> q(hd * e), k(T * hd * e), v(T * vd * e), got(e);
    const std::size_t kbase = static_cast<std::size_t>(b * s_.kv_heads) * T * hd * e;
    const std::size_t vbase = static_cast<std::size_t>(b * s_.kv_heads) * T * vd * e;
    NAPKIN_CUDA(cudaMemcpy(q.data(), q_->get() + b * s_.q_dim() * e, q.size(), cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(k.data(), L.kc->get() + kbase, k.size(), cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(v.data(), L.vc->get() + vbase, v.size(), cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(got.data(), attn_->get() + b * s_.o_in() * e, e, cudaMemcpyDeviceToHost));
    std::vector<double> p(T);
    double top = -1e300;
    for (long t = 0; t < T; ++t) {
      double dot = 0;
      for (long i = 0; i < hd; ++i) dot += host_value(ty_.t, &q[i * e]) * host_value(ty_.t, &k[(t * hd + i) * e]);
      p[t] = dot / std::sqrt(static_cast<double>(hd));
      top = std::max(top, p[t]);
    }
    double sum = 0, want = 0, scale = 0;
    for (auto& x : p) sum += x = std::exp(x - top);
    for (long t = 0; t < T; ++t) {
      const double term = p[t] / sum * host_value(ty_.t, &v[t * vd * e]);
      want += term;
      scale += std::fabs(term);
    }
    const double g = host_value(ty_.t, got.data());
    if (!std::isfinite(g) || !(std::fabs(g - want) <= 0.02 * scale + 1e-3))
      throw Failure(strf("the decode step's attention over the KV cache is wrong: %g instead of %g", g, want));
  }

  const ModelShape& s_;
  const long B_, T_;
  const Type& ty_;
  bool verify_ = false;
  Handle blas_;
  std::vector<Layer> layers_;
  Mat head_;
  std::unique_ptr<DeviceBuffer<unsigned char>> x_, xn_, o_, q_, k_, v_, attn_, g_, u_, a_, scores_, logits_;
  std::unique_ptr<DeviceBuffer<int>> tokens_;
};

}  // namespace

void run_decode_step(const Args& args, napkin_gpu_result* out) {
  std::string why;
  const auto shape = ModelShape::parse(args.get("model"), why);
  if (!shape) throw Failure(why);
  const long batch = args.count("batch", 1), context = args.count("context", 1);
  const Type* type = nullptr;
  for (const Type& t : kTypes)
    if (args.get("dtype", "bf16") == t.name) type = &t;
  if (!type) throw Failure("the GPU decode step takes dtype bf16, fp16 or fp32");
  if (shape->moe())
    throw Failure(strf("%s is a mixture of experts; the GPU decode step times dense models (cpu.decode_step routes experts)",
                       shape->name.c_str()));
  const double weights = Step::weight_bytes(*shape, type->bytes);
  const double kv = static_cast<double>(shape->layers) * batch * shape->kv_heads * context *
                    (shape->head_dim + shape->v_head_dim) * type->bytes;
  const double acts = static_cast<double>(batch) * type->bytes *
                      (4.0 * shape->d_model + shape->q_dim() + shape->kv_dim() + shape->v_dim() + shape->o_in() +
                       3.0 * shape->d_ffn + shape->vocab + static_cast<double>(shape->heads) * context);
  const double free = static_cast<double>(free_memory());
  if (weights + kv + acts > 0.9 * free)
    throw Failure(strf("%s's decode step at batch %ld and context %ld needs %.3g GB (%.3g GB of %s weights, %.3g GB of "
                       "KV cache), more than 90%% of the GPU's %.3g GB free",
                       shape->name.c_str(), batch, context, (weights + kv + acts) / 1e9, weights / 1e9, type->name,
                       kv / 1e9, free / 1e9));
  Step step(*shape, batch, context, *type);
  Timing timing;
  timing.samples = 15;
  timing.min_sample_s = 0;  // a step is one sample: its own launches
  std::vector<double> seconds = time_launches([&] { step.run(false); }, timing);
  step.run(true);
  NAPKIN_CUDA(cudaDeviceSynchronize());
  out->n = 0;
  for (double s : seconds)
    if (out->n < NAPKIN_GPU_MAX_SAMPLES) out->samples[out->n++] = s;
  set_text(out->unit, sizeof out->unit, "s");
  set_text(out->method, sizeof out->method,
           strf("one greedy decode step of %s (%ld layers, d %ld, %ld heads, %ld KV heads) at batch %ld, context %ld "
                "through cublasGemmEx (%s, fp32 compute): reads %.4g MB of weights and %.4g MB of KV cache a step; "
                "per layer RMSnorm, W_Q, W_K, W_V, attention as two strided-batched products around a softmax, W_O, "
                "the MLP, then the LM head and an argmax; every product and the attention checked after timing",
                shape->name.c_str(), shape->layers, shape->d_model, shape->heads, shape->kv_heads, batch, context,
                type->name, weights / 1e6, kv / 1e6));
  out->ok = 1;
}

}  // namespace napkin::gpu
