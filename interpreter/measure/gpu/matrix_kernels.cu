// Matrix kernels: random fills in every type the matmul probe uses, and the
// bf16 mat-vec that stands for a decode step's weight read.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "kernels.cuh"

namespace napkin::gpu::kernels {

namespace {

__device__ inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Normal(0, 1) by Box–Muller, or uniform in [-1, 1), from a hash of the index.
__device__ inline float random_at(std::size_t i, unsigned seed, bool uniform) {
  const std::uint64_t h = mix(i * 0x9E3779B97F4A7C15ull + seed);
  const float u2 = static_cast<float>(h & 0xffffff) / 16777216.0f;
  if (uniform) return 2.0f * u2 - 1.0f;
  const float u1 = (static_cast<float>(h >> 40) + 1.0f) / 16777217.0f;  // (0, 1]
  return sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2);
}

template <typename T>
__global__ void fill_kernel(T* p, std::size_t n, unsigned seed, bool uniform) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = T(random_at(i, seed, uniform));
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

// One warp per row; W streams past the caches (__ldcs) so x stays in L1.
__global__ void matvec_kernel(const uint4* __restrict__ w, const uint4* __restrict__ x, __nv_bfloat16* __restrict__ y,
                              int rows, int cols8) {
  const int row = static_cast<int>((blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32);
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint4* r = w + static_cast<std::size_t>(row) * cols8;
  float acc = 0;
  int j = lane;
  for (; j + 96 < cols8; j += 128) {  // four independent 16-byte loads in flight per lane
    const uint4 w0 = __ldcs(r + j), w1 = __ldcs(r + j + 32), w2 = __ldcs(r + j + 64), w3 = __ldcs(r + j + 96);
    acc += dot8(w0, __ldg(x + j)) + dot8(w1, __ldg(x + j + 32)) + dot8(w2, __ldg(x + j + 64)) +
           dot8(w3, __ldg(x + j + 96));
  }
  for (; j < cols8; j += 32) acc += dot8(__ldcs(r + j), __ldg(x + j));
  for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = __float2bfloat16(acc);
}

template <typename T>
void fill_as(void* p, std::size_t n, unsigned seed, bool uniform) {
  fill_kernel<T><<<4096, 256>>>(static_cast<T*>(p), n, seed, uniform);
}

}  // namespace

void fill_random(cudaDataType_t t, void* p, std::size_t n, unsigned seed, bool uniform) {
  switch (t) {
    case CUDA_R_16BF: fill_as<__nv_bfloat16>(p, n, seed, uniform); break;
    case CUDA_R_16F: fill_as<__half>(p, n, seed, uniform); break;
    case CUDA_R_8F_E4M3: fill_as<__nv_fp8_e4m3>(p, n, seed, uniform); break;
    default: fill_as<float>(p, n, seed, uniform); break;
  }
}

void matvec_bf16(const void* w, const void* x, void* y, int rows, int cols, int threads) {
  const int blocks = static_cast<int>((static_cast<long long>(rows) * 32 + threads - 1) / threads);
  matvec_kernel<<<blocks, threads>>>(static_cast<const uint4*>(w), static_cast<const uint4*>(x),
                                     static_cast<__nv_bfloat16*>(y), rows, cols / 8);
}

}  // namespace napkin::gpu::kernels
