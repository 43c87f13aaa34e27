// An independent reference for napkin's GPU probes. It shares no code with
// napkin: BabelStream-style STREAM kernels (one element per thread, blocks
// of 1024, as BabelStream's CUDA back end does), cudaMemcpy, cublasGemmEx
// for bf16 matmul and for the mat-vec, cuBLASLt only for fp8 (cublasGemmEx
// takes no fp8), and cudaMemcpy from a pinned buffer allocated on the GPU's
// own NUMA node. bench/gpu/check.sh compiles it with nvcc and prints napkin's
// figure over this one per probe.
//
// Output: one line per figure, "NAME MEDIAN BEST" in B/s or FLOP/s; a figure
// that could not be measured prints "NAME - - reason".
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 1024;  // BabelStream's TBSIZE
constexpr int kDotBlocks = 256;
constexpr int kTimes = 100;   // BabelStream's default number of timed iterations

void cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}
#define CUDA(x) cuda((x), #x)
#define BLAS(x) blas((x), #x)

__global__ void init_kernel(double* a, double* b, double* c, double ia, double ib, double ic) {
  const std::size_t i = static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  a[i] = ia;
  b[i] = ib;
  c[i] = ic;
}

__global__ void copy_kernel(const double* a, double* c) {
  const std::size_t i = static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  c[i] = a[i];
}

__global__ void triad_kernel(double* a, const double* b, const double* c, double scalar) {
  const std::size_t i = static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  a[i] = b[i] + scalar * c[i];
}

// BabelStream's dot: a fixed grid strides over the arrays, each block
// reduces in shared memory, the host adds the block sums.
__global__ void dot_kernel(const double* a, const double* b, double* block_sums, std::size_t n) {
  __shared__ double tb[kBlock];
  double s = 0;
  for (std::size_t i = static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(blockDim.x) * gridDim.x)
    s += a[i] * b[i];
  tb[threadIdx.x] = s;
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (threadIdx.x < offset) tb[threadIdx.x] += tb[threadIdx.x + offset];
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = tb[0];
}

// Values in [-1, 1) from a hash of the index, converted to the element type.
template <typename T>
__global__ void fill_random(T* p, std::size_t n, unsigned seed) {
  for (std::size_t i = static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(blockDim.x) * gridDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    p[i] = T(static_cast<float>(x & 0xffff) / 32768.0f - 1.0f);
  }
}

struct Figure {
  double median = 0, best = 0;
};

// Seconds of each of kTimes runs of `body`, each timed with its own events,
// BabelStream's way (it drops the first run as a warm-up).
Figure time_rate(const std::function<void()>& body, double work, int times = kTimes) {
  cudaEvent_t start, stop;
  CUDA(cudaEventCreate(&start));
  CUDA(cudaEventCreate(&stop));
  std::vector<double> rates;
  for (int k = 0; k <= times; ++k) {
    CUDA(cudaEventRecord(start));
    body();
    CUDA(cudaEventRecord(stop));
    CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (k > 0) rates.push_back(work / (ms / 1e3));
  }
  CUDA(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(rates.begin(), rates.end());
  return {rates[rates.size() / 2], rates.back()};
}

void print(const char* name, const Figure& f) { std::printf("%s %.6e %.6e\n", name, f.median, f.best); }

void stream_figures() {
  const std::size_t n = (std::size_t{1} << 30) / sizeof(double);  // 1 GiB per array, as napkin
  double *a, *b, *c, *sums;
  CUDA(cudaMalloc(&a, n * sizeof(double)));
  CUDA(cudaMalloc(&b, n * sizeof(double)));
  CUDA(cudaMalloc(&c, n * sizeof(double)));
  CUDA(cudaMalloc(&sums, kDotBlocks * sizeof(double)));
  const unsigned grid = static_cast<unsigned>(n / kBlock);
  init_kernel<<<grid, kBlock>>>(a, b, c, 0.1, 0.2, 0.0);
  CUDA(cudaDeviceSynchronize());
  const double bytes = static_cast<double>(n * sizeof(double));

  print("copy", time_rate([&] { copy_kernel<<<grid, kBlock>>>(a, c); }, 2 * bytes));
  double got = 0;
  CUDA(cudaMemcpy(&got, c + n - 1, sizeof got, cudaMemcpyDeviceToHost));
  if (got != 0.1) throw std::runtime_error("the reference copy kernel wrote wrong data");

  print("triad", time_rate([&] { triad_kernel<<<grid, kBlock>>>(a, b, c, 0.4); }, 3 * bytes));
  CUDA(cudaMemcpy(&got, a + n / 2, sizeof got, cudaMemcpyDeviceToHost));
  if (got != 0.2 + 0.4 * 0.1) throw std::runtime_error("the reference triad kernel wrote wrong data");

  print("dot", time_rate([&] { dot_kernel<<<kDotBlocks, kBlock>>>(a, b, sums, n); }, 2 * bytes));
  std::vector<double> partial(kDotBlocks);
  CUDA(cudaMemcpy(partial.data(), sums, kDotBlocks * sizeof(double), cudaMemcpyDeviceToHost));
  double dot = 0;
  for (double x : partial) dot += x;
  const double want = static_cast<double>(n) * (0.2 + 0.4 * 0.1) * 0.2;  // a after the triad, times b
  if (!(std::abs(dot - want) <= 1e-6 * want)) throw std::runtime_error("the reference dot kernel summed wrong");

  print("memcpy", time_rate([&] { CUDA(cudaMemcpyAsync(c, a, n * sizeof(double), cudaMemcpyDeviceToDevice)); },
                            2 * bytes));
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(sums);
}

// y = W·x through cublasGemmEx with n = 1: W row-major rows × cols is
// column-major cols × rows, so y = opT(W)·x. Bytes = W + x + y.
void matvec_figure(cublasHandle_t h) {
  const int rows = 28672, cols = 8192;
  const std::size_t elems = static_cast<std::size_t>(rows) * cols;
  __nv_bfloat16 *w, *x, *y;
  CUDA(cudaMalloc(&w, elems * 2));
  CUDA(cudaMalloc(&x, cols * 2));
  CUDA(cudaMalloc(&y, rows * 2));
  fill_random<__nv_bfloat16><<<4096, 256>>>(w, elems, 1);
  fill_random<__nv_bfloat16><<<64, 256>>>(x, cols, 2);
  CUDA(cudaDeviceSynchronize());
  const float alpha = 1, beta = 0;
  print("matvec", time_rate(
                      [&] {
                        BLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, 1, cols, &alpha, w, CUDA_R_16BF, cols, x,
                                          CUDA_R_16BF, cols, &beta, y, CUDA_R_16BF, rows, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT));
                      },
                      static_cast<double>(elems) * 2 + cols * 2.0 + rows * 2.0));
  cudaFree(w);
  cudaFree(x);
  cudaFree(y);
}

// bf16 in and out, fp32 accumulate, "TN" as napkin times it; the better of
// 8192³ and 16384³ (where memory allows).
void bf16_figure(cublasHandle_t h) {
  Figure best;
  for (const int n : {8192, 16384}) {
    const std::size_t elems = static_cast<std::size_t>(n) * n;
    std::size_t free = 0, total = 0;
    CUDA(cudaMemGetInfo(&free, &total));
    if (elems * 6 > free * 9 / 10) continue;
    __nv_bfloat16 *a, *b, *d;
    CUDA(cudaMalloc(&a, elems * 2));
    CUDA(cudaMalloc(&b, elems * 2));
    CUDA(cudaMalloc(&d, elems * 2));
    fill_random<__nv_bfloat16><<<4096, 256>>>(a, elems, 3);
    fill_random<__nv_bfloat16><<<4096, 256>>>(b, elems, 4);
    CUDA(cudaDeviceSynchronize());
    const float alpha = 1, beta = 0;
    auto gemm = [&] {
      BLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b, CUDA_R_16BF, n, &beta, d,
                        CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
    for (int k = 0; k < 20; ++k) gemm();  // clocks up before timing
    const Figure f = time_rate(gemm, 2.0 * n * static_cast<double>(n) * n, 30);
    if (f.median > best.median) best = f;
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
  print("matmul_bf16", best);
}

// fp8 e4m3 in, bf16 out, fp32 accumulate with fast accumulation, "TN",
// cuBLASLt's first heuristic choice: the plainest fp8 call there is.
void fp8_figure() {
  int device = 0, major = 0, minor = 0;
  CUDA(cudaGetDevice(&device));
  CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major * 10 + minor < 89) {
    std::printf("matmul_fp8 - - no fp8 tensor cores\n");
    return;
  }
  cublasLtHandle_t lt;
  BLAS(cublasLtCreate(&lt));
  Figure best;
  for (const int n : {8192, 16384}) {
    const std::size_t elems = static_cast<std::size_t>(n) * n;
    std::size_t free = 0, total = 0;
    CUDA(cudaMemGetInfo(&free, &total));
    if (elems * 4 > free * 9 / 10) continue;
    __nv_fp8_e4m3 *a, *b;
    __nv_bfloat16* d;
    void* ws;
    const std::size_t ws_bytes = std::size_t{32} << 20;
    CUDA(cudaMalloc(&a, elems));
    CUDA(cudaMalloc(&b, elems));
    CUDA(cudaMalloc(&d, elems * 2));
    CUDA(cudaMalloc(&ws, ws_bytes));
    fill_random<__nv_fp8_e4m3><<<4096, 256>>>(a, elems, 5);
    fill_random<__nv_fp8_e4m3><<<4096, 256>>>(b, elems, 6);
    CUDA(cudaDeviceSynchronize());
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatmulPreference_t pref;
    BLAS(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, nop = CUBLAS_OP_N;
    const std::int8_t fast = 1;
    BLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
    BLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &nop, sizeof nop));
    BLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    BLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, n, n, n));
    BLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, n, n, n));
    BLAS(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, n, n, n));
    BLAS(cublasLtMatmulPreferenceCreate(&pref));
    BLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                              sizeof ws_bytes));
    cublasLtMatmulHeuristicResult_t heuristic{};
    int found = 0;
    BLAS(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &heuristic, &found));
    if (found == 0) throw std::runtime_error("cuBLASLt offers no fp8 algorithm");
    const float alpha = 1, beta = 0;
    auto gemm = [&] {
      BLAS(cublasLtMatmul(lt, op, &alpha, a, la, b, lb, &beta, d, ld, d, ld, &heuristic.algo, ws, ws_bytes, nullptr));
    };
    for (int k = 0; k < 20; ++k) gemm();
    const Figure f = time_rate(gemm, 2.0 * n * static_cast<double>(n) * n, 30);
    if (f.median > best.median) best = f;
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatmulDescDestroy(op);
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
    cudaFree(ws);
  }
  cublasLtDestroy(lt);
  print("matmul_fp8", best);
}

// The thread moves to the CPUs sysfs lists as local to the GPU before the
// pinned buffer is allocated, so the buffer's pages land on the GPU's node.
std::string bind_near_gpu() {
  char bus[32] = {};
  CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  std::string id = bus;
  for (char& ch : id) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::ifstream in("/sys/bus/pci/devices/" + id + "/local_cpulist");
  std::string list;
  std::getline(in, list);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (std::size_t i = 0; i < list.size();) {
    const std::size_t comma = list.find(',', i);
    const std::string part = list.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    const std::size_t dash = part.find('-');
    const int lo = std::atoi(part.c_str()), hi = dash == std::string::npos ? lo : std::atoi(part.c_str() + dash + 1);
    for (int c = lo; c <= hi && c < CPU_SETSIZE; ++c) CPU_SET(c, &set);
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  if (CPU_COUNT(&set) == 0 || sched_setaffinity(0, sizeof set, &set) != 0) return "not bound";
  std::ifstream node("/sys/bus/pci/devices/" + id + "/numa_node");
  std::string n;
  std::getline(node, n);
  return "node " + n;
}

void host_to_device_figure() {
  const std::string where = bind_near_gpu();
  const std::size_t bytes = std::size_t{256} << 20;
  char* host;
  char* dev;
  CUDA(cudaMallocHost(&host, bytes));
  std::memset(host, 7, bytes);
  CUDA(cudaMalloc(&dev, bytes));
  print("host_to_device_pinned",
        time_rate([&] { CUDA(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice)); }, static_cast<double>(bytes)));
  std::fprintf(stderr, "pinned buffer: %s\n", where.c_str());
  cudaFreeHost(host);
  cudaFree(dev);
}

}  // namespace

int main() {
  try {
    cudaDeviceProp p{};
    CUDA(cudaGetDeviceProperties(&p, 0));
    std::fprintf(stderr, "reference on %s\n", p.name);
    stream_figures();
    cublasHandle_t h;
    BLAS(cublasCreate(&h));
    matvec_figure(h);
    bf16_figure(h);
    cublasDestroy(h);
    fp8_figure();
    host_to_device_figure();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference: %s\n", e.what());
    return 1;
  }
  return 0;
}
