// Dense matmul throughput through cuBLASLt at 4096³ and 8192³, per input
// type: bf16 and fp16 (fp32 accumulate), tf32 (fp32 data on tensor cores,
// CUBLAS_COMPUTE_32F_FAST_TF32), strict fp32, and fp8 e4m3 on chips that
// have it. Inputs are random normal; FLOPs = 2·m·n·k; each type first runs
// for a second or more so clocks and the kernel choice have settled.
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

struct SizeResult {
  int n = 0;
  std::vector<double> seconds;
  double median_rate = 0;
};

// D = op(A)·B with A stored k×m and transposed: the "TN" layout fp8 requires,
// used for every type so they are compared like for like.
SizeResult run_size(const Type& t, int n, double warmup_s) {
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  DeviceBuffer<unsigned char> a(elems * t.in_bytes), b(elems * t.in_bytes), d(elems * t.out_bytes);
  kernels::fill_random(t.in, a.get(), elems, 11, false);
  kernels::fill_random(t.in, b.get(), elems, 23, false);
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
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.a, t.in, n, n, n));
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.b, t.in, n, n, n));
  NAPKIN_CUBLAS(cublasLtMatrixLayoutCreate(&o.c, t.out, n, n, n));

  const std::size_t workspace_bytes = std::size_t{64} << 20;
  DeviceBuffer<unsigned char> workspace(workspace_bytes);
  NAPKIN_CUBLAS(cublasLtMatmulPreferenceCreate(&o.pref));
  NAPKIN_CUBLAS(cublasLtMatmulPreferenceSetAttribute(o.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                     &workspace_bytes, sizeof workspace_bytes));
  cublasLtMatmulHeuristicResult_t algo{};
  int found = 0;
  NAPKIN_CUBLAS(cublasLtMatmulAlgoGetHeuristic(o.lt, o.op, o.a, o.b, o.c, o.c, o.pref, 1, &algo, &found));
  if (found == 0) throw Failure(strf("cuBLASLt offers no %s algorithm on this GPU", t.name));

  const float alpha = 1.0f, beta = 0.0f;
  Timing timing;
  timing.warmup_s = warmup_s;
  SizeResult r;
  r.n = n;
  r.seconds = time_launches(
      [&] {
        NAPKIN_CUBLAS(cublasLtMatmul(o.lt, o.op, &alpha, a.get(), o.a, b.get(), o.b, &beta, d.get(), o.c, d.get(),
                                     o.c, &algo.algo, workspace.get(), workspace_bytes, nullptr));
      },
      timing);

  // Entries against the host, from the same (rounded) inputs.
  std::vector<unsigned char> row(static_cast<std::size_t>(n) * t.in_bytes), col(row.size()), out(t.out_bytes);
  for (int k = 0; k < 4; ++k) {
    const int i = (k * 1237 + 5) % n, j = (k * 2749 + 11) % n;
    NAPKIN_CUDA(cudaMemcpy(row.data(), a.get() + static_cast<std::size_t>(i) * n * t.in_bytes, row.size(),
                           cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(col.data(), b.get() + static_cast<std::size_t>(j) * n * t.in_bytes, col.size(),
                           cudaMemcpyDeviceToHost));
    NAPKIN_CUDA(cudaMemcpy(out.data(), d.get() + (static_cast<std::size_t>(j) * n + i) * t.out_bytes, t.out_bytes,
                           cudaMemcpyDeviceToHost));
    double want = 0, scale = 0;
    for (int p = 0; p < n; ++p) {
      const double x = to_double(t.in, row.data() + static_cast<std::size_t>(p) * t.in_bytes) *
                       to_double(t.in, col.data() + static_cast<std::size_t>(p) * t.in_bytes);
      want += x;
      scale += std::fabs(x);
    }
    const double got = to_double(t.out, out.data());
    if (!std::isfinite(got) || scale == 0 || std::fabs(got - want) > 0.002 * scale + 0.02 * std::fabs(want))
      throw Failure(strf("the %s product is wrong at (%d, %d): %g instead of %g", t.name, i, j, got, want));
  }

  std::vector<double> sorted = r.seconds;
  std::sort(sorted.begin(), sorted.end());
  r.median_rate = 2.0 * n * static_cast<double>(n) * n / sorted[sorted.size() / 2];
  return r;
}

}  // namespace

void run_matmul(const std::string& dtype, napkin_gpu_result* out) {
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

  const SizeResult big = run_size(*t, 8192, 1.0);
  const SizeResult small = run_size(*t, 4096, 0.2);
  const bool big_wins = big.median_rate >= small.median_rate;
  const SizeResult& best = big_wins ? big : small;
  const SizeResult& other = big_wins ? small : big;
  const double flops = 2.0 * best.n * static_cast<double>(best.n) * best.n;
  fill_rates(out, best.seconds, flops, "FLOP/s",
             strf("cuBLASLt %zu, %s, %d³ (%d³: %.1f TFLOP/s), random normal inputs, ≥ 1 s warm-up, FLOPs = 2mnk",
                  cublasLtGetVersion(), t->label, best.n, other.n, other.median_rate / 1e12));
}

}  // namespace napkin::gpu
