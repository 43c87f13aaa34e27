// Dense matmul throughput through cuBLASLt at 16384³ (where memory allows),
// 8192³ and 4096³, per input type: bf16 and fp16 (fp32 accumulate), tf32
// (fp32 data on tensor cores, CUBLAS_COMPUTE_32F_FAST_TF32), strict fp32,
// and fp8 e4m3 on chips that have it. cuBLASLt's first heuristic choice is
// not always its fastest, so the first few it suggests are each timed.
// Inputs are random normal; FLOPs = 2·m·n·k; each type first runs for a
// second or more so clocks have settled.
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "common.hpp"
#include "kernels.cuh"

namespace napkin::gpu {

namespace {

void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Failure(strf("%s failed: %s", what, cublasGetStatusName(s)));
}
#define NAPKIN_CUBLAS(call) check_blas((call), #call)

struct Type {
  const char* name;
  cudaDataType_t in, out;
  cublasComputeType_t compute;
  int in_bytes, out_bytes;
  int min_cc;  // compute capability × 10
  const char* label;
};

const Type kTypes[] = {
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 80, "bf16 inputs and output, fp32 accumulate"},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 70, "fp16 inputs and output, fp32 accumulate"},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80,
     "fp32 data multiplied as tf32 on tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)"},
    {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, 0, "strict fp32 (CUBLAS_COMPUTE_32F)"},
    {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 89,
     "fp8 e4m3 inputs, bf16 output, fp32 accumulate with cuBLASLt fast accumulation"},
};

double to_double(cudaDataType_t t, const unsigned char* p) {
  switch (t) {
    case CUDA_R_16BF: return __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(p));
    case CUDA_R_16F: return __half2float(*reinterpret_cast<const __half*>(p));
    case CUDA_R_8F_E4M3: return static_cast<float>(*reinterpret_cast<const __nv_fp8_e4m3*>(p));
    default: return *reinterpret_cast<const float*>(p);
  }
}

struct LtObjects {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  ~LtObjects() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
    if (lt) cublasLtDestroy(lt);
  }
};

// One (size, algorithm) pair, timed.
struct Config {
  int m = 0, n = 0, k = 0;
  int rank = 0;     // its place in cuBLASLt's heuristic order, from 1
  int algo_id = -1;  // CUBLASLT_ALGO_CONFIG_ID
  std::vector<double> seconds;
  double median_rate = 0;
};

constexpr int kAlgorithms = 4;  // of cuBLASLt's suggestions, the first this many are timed
constexpr int kSamples = 15;    // per configuration: 3 sizes × 4 algorithms must stay within seconds

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// Sampled entries of D (m×n) against the host, from the same (rounded)
// inputs: A is stored k×m column-major (its column i is row i of Aᵀ), B k×n.
void check_product(const Type& t, int m, int n, int kk, const unsigned char* a, const unsigned char* b,
                   const unsigned char* d, int rank) {
  std::vector<unsigned char> row(static_cast<std::size_t>(kk) * t.in_bytes), col(row.size()), out(t.out_bytes);
  for (int k = 0; k < 4; ++k) {
    const int i = (k * 1237 + 5) % m, j = (k * 2749 + 11) % n;
    NAPKIN_CUDA(cudaMemcpy(row.data(), a + static_cast<std::size_t>(i) * kk * t.in_bytes, row.size(),
                           cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(col.data(), b + static_cast<std::size_t>(j) * kk * t.in_bytes, col.size(),
                           cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(out.data(), d + (static_cast<std::size_t>(j) * m + i) * t.out_bytes, t.out_bytes,
                           cudaMemcpyDeviceToHost));
    double want = 0, scale = 0;
    for (int p = 0; p < kk; ++p) {
      const double x = to_double(t.in, row.data() + static_cast<std::size_t>(p) * t.in_bytes) *
                       to_double(t.in, col.data() + static_cast<std::size_t>(p) * t.in_bytes);
      want += x;
      scale += std::fabs(x);
    }
    const double got = to_double(t.out, out.data());
    if (!std::isfinite(got) || scale == 0 || !(std::fabs(got - want) <= 0.002 * scale + 0.02 * std::fabs(want)))
      throw Failure(strf("the %s product at %d×%d×%d (algorithm %d) is wrong at (%d, %d): %g instead of %g", t.name, m,
                         n, kk, rank, i, j, got, want));
  }
}

std::string size_text(int m, int n, int k) {
  return m == n && n == k ? strf("%d³", n) : strf("%d×%d×%d", m, n, k);
}

// D = op(A)·B with A stored k×m and transposed: the "TN" layout fp8 requires,
// used for every type so they are compared like for like. Times each of
// cuBLASLt's first kAlgorithms suggestions; one that fails to run is
// skipped, noted in `skipped`.
std::vector<Config> run_size(const Type& t, int m, int n, int kk, double warmup_s, std::string& skipped) {
  const std::size_t a_elems = static_cast<std::size_t>(kk) * m, b_elems = static_cast<std::size_t>(kk) * n,
                    d_elems = static_cast<std::size_t>(m) * n;
  DeviceBuffer<unsigned char> a(a_elems * t.in_bytes), b(b_elems * t.in_bytes), d(d_elems * t.out_bytes);
  kernels::fill_random(t.in, a.get(), a_elems, 11, false);
  kernels::fill_random(t.in, b.get(), b_elems, 23, false);
  NAPKIN_CUDA(cudaGetLastError());
  NAPKIN_CUDA(cudaDeviceSynchronize());

  LtObjects o;
  NAPKIN_CUBLAS(cublasLtCreate(&o.lt));
  NAPKIN_CUBLAS(cublasLtMatmulDescCreate(&o.op, t.compute, CUDA_R_32F));
  const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  NAPKIN_CUBLAS(cublasLtMatmulDescSetAttribute(o.op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
  NAPKIN_CUBLAS(cublasLtMatmulDescSetAttribute(o.op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
  if (t.in == CUDA_R_8F_E4M3) {
    const std::int8_t fast = 1;
    NAPKIN_CUBLAS(cublasLtMatmulDescSetAttribute(o.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
  }
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.a, t.in, kk, m, kk));
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.b, t.in, kk, n, kk));
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.c, t.out, m, n, m));

  const std::size_t workspace_bytes = std::size_t{64} << 20;
  DeviceBuffer<unsigned char> workspace(workspace_bytes);
  NAPKIN_CUBLAS(cublasLtMatmulPreferenceCreate(&o.pref));
  NAPKIN_CUBLAS(cublasLtMatmulPreferenceSetAttribute(o.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                     &workspace_bytes, sizeof workspace_bytes));
  cublasLtMatmulHeuristicResult_t algos[kAlgorithms]{};
  int found = 0;
  NAPKIN_CUBLAS(cublasLtMatmulAlgoGetHeuristic(o.lt, o.op, o.a, o.b, o.c, o.c, o.pref, kAlgorithms, algos, &found));
  if (found == 0) throw Failure(strf("cuBLASLt offers no %s algorithm on this GPU", t.name));

  const float alpha = 1.0f, beta = 0.0f;
  std::vector<Config> out;
  for (int k = 0; k < found; ++k) {
    if (algos[k].state != CUBLAS_STATUS_SUCCESS) continue;
    Config c;
    c.m = m;
    c.n = n;
    c.k = kk;
    c.rank = k + 1;
    cublasLtMatmulAlgoConfigGetAttribute(&algos[k].algo, CUBLASLT_ALGO_CONFIG_ID, &c.algo_id, sizeof c.algo_id, nullptr);
    // All ones is NaN in every output type: an algorithm that writes nothing fails the check.
    NAPKIN_CUDA(cudaMemset(d.get(), 0xff, d.bytes()));
    Timing timing;
    timing.warmup_s = out.empty() ? warmup_s : 0.1;  // clocks have settled after the first
    timing.samples = kSamples;
    try {
      c.seconds = time_launches(
          [&] {
            NAPKIN_CUBLAS(cublasLtMatmul(o.lt, o.op, &alpha, a.get(), o.a, b.get(), o.b, &beta, d.get(), o.c, d.get(),
                                         o.c, &algos[k].algo, workspace.get(), workspace_bytes, nullptr));
          },
          timing);
    } catch (const Failure& e) {
      // A suggestion the library then refuses is its business, not a wrong
      // result; a CUDA error that poisons the context fails the next call.
      cudaGetLastError();
      skipped += strf("%s%s algorithm %d: %s", skipped.empty() ? "" : "; ", size_text(m, n, kk).c_str(), c.rank, e.what());
      continue;
    }
    check_product(t, m, n, kk, a.get(), b.get(), d.get(), c.rank);
    c.median_rate = 2.0 * m * static_cast<double>(n) * kk / median(c.seconds);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

void run_matmul(const Args& args, napkin_gpu_result* out) {
  const std::string dtype = args.get("dtype", "bf16");
  const Type* t = nullptr;
  for (const Type& k : kTypes)
    if (dtype == k.name) t = &k;
  if (!t) throw Failure(strf("no matmul probe for dtype %s (bf16, fp16, tf32, fp32, fp8)", dtype.c_str()));
  int device = 0, major = 0, minor = 0;
  NAPKIN_CUDA(cudaGetDevice(&device));
  NAPKIN_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  NAPKIN_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major * 10 + minor < t->min_cc)
    throw Failure(strf("this GPU (compute capability %d.%d) has no %s tensor cores", major, minor, t->name));

  // A size named (any of m, n, k; the others are n) is the only one timed;
  // else the largest first, so the long warm-up happens where launches are longest.
  struct Size {
    int m, n, k;
  };
  std::vector<Size> wanted;
  const bool named = !args.get("n").empty() || !args.get("m").empty() || !args.get("k").empty();
  if (named) {
    const long n = args.count("n", 4096);
    wanted.push_back({static_cast<int>(args.count("m", n)), static_cast<int>(n), static_cast<int>(args.count("k", n))});
  } else {
    for (const int n : {16384, 8192, 4096}) wanted.push_back({n, n, n});
  }
  std::vector<Config> configs;
  std::string skipped, sizes;
  bool first = true;
  for (const Size& z : wanted) {
    const double need = (static_cast<double>(z.k) * (z.m + z.n)) * t->in_bytes +
                        static_cast<double>(z.m) * z.n * t->out_bytes + (64 << 20);
    if (need > 0.9 * static_cast<double>(free_memory())) {  // 16384³ where memory allows
      if (named)
        throw Failure(strf("a %s %s matmul needs %.3g GB, more than 90%% of the GPU's free memory", t->name,
                           size_text(z.m, z.n, z.k).c_str(), need / 1e9));
      continue;
    }
    auto got = run_size(*t, z.m, z.n, z.k, first ? 1.0 : 0.2, skipped);
    first = false;
    if (got.empty()) continue;
    const auto top = std::max_element(got.begin(), got.end(),
                                      [](const Config& x, const Config& y) { return x.median_rate < y.median_rate; });
    sizes += strf("%s%s %.1f", sizes.empty() ? "" : ", ", size_text(z.m, z.n, z.k).c_str(), top->median_rate / 1e12);
    for (auto& c : got) configs.push_back(std::move(c));
  }
  if (configs.empty()) throw Failure(strf("no %s matmul ran: %s", t->name, skipped.c_str()));

  std::vector<double> rates;
  for (const Config& c : configs) rates.push_back(c.median_rate);
  const Config& best = *std::max_element(
      configs.begin(), configs.end(), [](const Config& x, const Config& y) { return x.median_rate < y.median_rate; });
  const double flops = 2.0 * best.m * static_cast<double>(best.n) * best.k;
  // The samples handed back are the best configuration's, so the bound value
  // (their median) is what the best algorithm at the best size sustains.
  fill_rates(out, best.seconds, flops, "FLOP/s",
             strf("cuBLASLt %zu, %s; cuBLASLt's first %d suggestions timed at each size (best per size, TFLOP/s: %s); "
                  "bound: the best configuration, %s suggestion %d (algorithm id %d), median of its %d samples; "
                  "median over all %zu configurations %.1f TFLOP/s; random normal inputs, ≥ 1 s warm-up, FLOPs = 2mnk%s%s",
                  cublasLtGetVersion(), t->label, kAlgorithms, sizes.c_str(), size_text(best.m, best.n, best.k).c_str(),
                  best.rank, best.algo_id, static_cast<int>(best.seconds.size()), configs.size(), median(rates) / 1e12,
                  skipped.empty() ? "" : "; skipped: ", skipped.c_str()));
}

}  // namespace napkin::gpu
