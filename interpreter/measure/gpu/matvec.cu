// A decode step's weight read: y = W·x in bf16 with W 28672×8192 (470 MB,
// one MLP matrix of a 70B-class model), fp32 accumulation, one warp per row.
// Launches rotate over several copies of W so none of it is still in the
// L2 from the previous launch. Bytes = W + x + y.
#include <cuda_bf16.h>

#include "common.cuh"

namespace napkin::gpu {

namespace {

constexpr int kRows = 28672, kCols = 8192;
constexpr int kThreads = 256;  // 8 warps, 8 rows per block
constexpr int kVec = 8;        // bf16 per 16-byte load

__device__ __host__ inline float value_at(std::size_t i, unsigned seed) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + seed;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return static_cast<float>(x & 0xffff) / 32768.0f - 1.0f;  // in [-1, 1)
}

__global__ void fill_kernel(__nv_bfloat16* p, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16(value_at(i, seed));
}

__device__ inline float dot8(uint4 w, uint4 x) {
  const __nv_bfloat162* wp = reinterpret_cast<const __nv_bfloat162*>(&w);
  const __nv_bfloat162* xp = reinterpret_cast<const __nv_bfloat162*>(&x);
  float s = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float2 a = __bfloat1622float2(wp[k]), b = __bfloat1622float2(xp[k]);
    s += a.x * b.x + a.y * b.y;
  }
  return s;
}

__global__ void matvec_kernel(const uint4* __restrict__ w, const uint4* __restrict__ x, __nv_bfloat16* __restrict__ y,
                              int rows, int cols8) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint4* r = w + static_cast<std::size_t>(row) * cols8;
  float acc = 0;
  int j = lane;
  // Four independent 16-byte loads in flight per lane.
  for (; j + 96 < cols8; j += 128) {
    const uint4 w0 = __ldcs(r + j), w1 = __ldcs(r + j + 32), w2 = __ldcs(r + j + 64), w3 = __ldcs(r + j + 96);
    acc += dot8(w0, __ldg(x + j)) + dot8(w1, __ldg(x + j + 32)) + dot8(w2, __ldg(x + j + 64)) +
           dot8(w3, __ldg(x + j + 96));
  }
  for (; j < cols8; j += 32) acc += dot8(__ldcs(r + j), __ldg(x + j));
  for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = __float2bfloat16(acc);
}

}  // namespace

void run_matvec(napkin_gpu_result* out) {
  const std::size_t w_elems = static_cast<std::size_t>(kRows) * kCols;
  const std::size_t w_bytes = w_elems * sizeof(__nv_bfloat16);
  const int copies = static_cast<int>(std::clamp<std::size_t>(free_memory() * 7 / 10 / w_bytes, 1, 4));
  if (free_memory() < w_bytes + (std::size_t{64} << 20)) throw Failure("not enough free GPU memory for a 470 MB matrix");
  DeviceBuffer<__nv_bfloat16> w(w_elems * copies), x(kCols), y(kRows);
  fill_kernel<<<fill_grid(fill_kernel, kThreads), kThreads>>>(w.get(), w.size(), 1);
  fill_kernel<<<fill_grid(fill_kernel, kThreads), kThreads>>>(x.get(), x.size(), 2);
  NAPKIN_CUDA(cudaGetLastError());
  NAPKIN_CUDA(cudaDeviceSynchronize());

  const int blocks = (kRows * 32 + kThreads - 1) / kThreads;
  int next = 0;
  const std::vector<double> seconds = time_launches(
      [&] {
        const uint4* wk = reinterpret_cast<const uint4*>(w.get() + static_cast<std::size_t>(next) * w_elems);
        next = (next + 1) % copies;
        matvec_kernel<<<blocks, kThreads>>>(wk, reinterpret_cast<const uint4*>(x.get()), y.get(), kRows, kCols / kVec);
      },
      Timing{});

  // Check rows of the last product against the host, in fp32 from the same bf16 inputs.
  const int last = (next + copies - 1) % copies;
  std::vector<__nv_bfloat16> yh(kRows), xh(kCols), wrow(kCols);
  NAPKIN_CUDA(cudaMemcpy(yh.data(), y.get(), kRows * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  NAPKIN_CUDA(cudaMemcpy(xh.data(), x.get(), kCols * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 8; ++k) {
    const int row = (k * 3581 + 7) % kRows;
    NAPKIN_CUDA(cudaMemcpy(wrow.data(), w.get() + static_cast<std::size_t>(last) * w_elems + static_cast<std::size_t>(row) * kCols,
                           kCols * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    double want = 0, scale = 0;
    for (int c = 0; c < kCols; ++c) {
      const double p = static_cast<double>(__bfloat162float(wrow[c])) * __bfloat162float(xh[c]);
      want += p;
      scale += std::fabs(p);
    }
    const double got = __bfloat162float(yh[row]);
    if (std::fabs(got - want) > 0.01 * std::fabs(want) + 1e-3 * scale)
      throw Failure(strf("the mat-vec kernel is wrong at row %d: %g instead of %g", row, got, want));
  }

  const double moved = static_cast<double>(w_bytes) + kCols * 2.0 + kRows * 2.0;
  fill_rates(out, seconds, moved, "B/s",
             strf("bf16 mat-vec %d×%d (%.0f MB) rotated over %d copies, one warp per row, 16-byte streaming loads, fp32 "
                  "accumulate, bytes = W + x + y",
                  kRows, kCols, w_bytes / 1e6, copies));
}

}  // namespace napkin::gpu
