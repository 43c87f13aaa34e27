// The decode step's small kernels around cuBLAS's products: the embedding
// lookup, RMSnorm, the residual add, SiLU (gated or not), the KV-cache append,
// the softmax over each head's scores and the greedy argmax. Values are
// bf16, fp16 or fp32 as the step's dtype says; arithmetic is fp32.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.cuh"

namespace napkin::gpu::kernels {

namespace {

template <typename T>
__device__ inline float ld(const T* p, std::size_t i) { return static_cast<float>(p[i]); }
template <typename T>
__device__ inline void st(T* p, std::size_t i, float v) { p[i] = T(v); }

constexpr int kThreads = 256;

int blocks_for(std::size_t n) { return static_cast<int>((n + kThreads - 1) / kThreads > 65535 ? 65535 : (n + kThreads - 1) / kThreads); }

#define NAPKIN_GRID_LOOP(i, n) \
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < (n); i += static_cast<std::size_t>(gridDim.x) * blockDim.x)

template <typename T>
__global__ void embed_kernel(const T* table, const int* tokens, T* x, int batch, int d) {
  NAPKIN_GRID_LOOP(i, static_cast<std::size_t>(batch) * d) {
    const std::size_t b = i / d, j = i % d;
    x[i] = table[static_cast<std::size_t>(tokens[b]) * d + j];
  }
}

// One block per row: the mean square reduced in shared memory.
template <typename T>
__global__ void rmsnorm_kernel(const T* x, T* out, int d) {
  __shared__ float part[kThreads];
  const std::size_t row = blockIdx.x;
  float s = 0;
  for (int j = threadIdx.x; j < d; j += blockDim.x) {
    const float v = ld(x, row * d + j);
    s += v * v;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  const float scale = rsqrtf(part[0] / d + 1e-6f);
  for (int j = threadIdx.x; j < d; j += blockDim.x) st(out, row * d + j, ld(x, row * d + j) * scale);
}

template <typename T>
__global__ void add_kernel(T* x, const T* y, std::size_t n) {
  NAPKIN_GRID_LOOP(i, n) st(x, i, ld(x, i) + ld(y, i));
}

template <typename T>
__global__ void silu_kernel(const T* gate, const T* up, T* out, std::size_t n) {
  NAPKIN_GRID_LOOP(i, n) {
    const float z = ld(gate ? gate : up, i);
    const float s = z / (1.0f + __expf(-z));
    st(out, i, gate ? s * ld(up, i) : s);
  }
}

// k (batch × kv_heads × width) into the cache [batch][kv_heads][context][width] at place context − 1.
template <typename T>
__global__ void append_kernel(const T* k, T* cache, int batch, int kv_heads, int context, int width) {
  NAPKIN_GRID_LOOP(i, static_cast<std::size_t>(batch) * kv_heads * width) {
    const std::size_t bg = i / width, j = i % width;
    cache[(bg * context + context - 1) * width + j] = k[i];
  }
}

// One block per row of `len` scores.
template <typename T>
__global__ void softmax_kernel(T* s, int len) {
  __shared__ float part[kThreads];
  T* row = s + static_cast<std::size_t>(blockIdx.x) * len;
  float top = -INFINITY;
  for (int j = threadIdx.x; j < len; j += blockDim.x) top = fmaxf(top, ld(row, j));
  part[threadIdx.x] = top;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + w]);
    __syncthreads();
  }
  top = part[0];
  __syncthreads();
  float sum = 0;
  for (int j = threadIdx.x; j < len; j += blockDim.x) sum += __expf(ld(row, j) - top);
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  sum = part[0];
  for (int j = threadIdx.x; j < len; j += blockDim.x) st(row, j, __expf(ld(row, j) - top) / sum);
}

// One block per row of logits: the index of the largest.
template <typename T>
__global__ void argmax_kernel(const T* logits, int vocab, int* tokens) {
  __shared__ float best[kThreads];
  __shared__ int at[kThreads];
  const T* row = logits + static_cast<std::size_t>(blockIdx.x) * vocab;
  float b = -INFINITY;
  int a = 0;
  for (int j = threadIdx.x; j < vocab; j += blockDim.x)
    if (ld(row, j) > b) b = ld(row, j), a = j;
  best[threadIdx.x] = b;
  at[threadIdx.x] = a;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w && best[threadIdx.x + w] > best[threadIdx.x]) {
      best[threadIdx.x] = best[threadIdx.x + w];
      at[threadIdx.x] = at[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) tokens[blockIdx.x] = at[0];
}

template <typename T>
struct Ops {
  static void embed(const void* table, const int* tokens, void* x, int batch, int d) {
    embed_kernel<T><<<blocks_for(static_cast<std::size_t>(batch) * d), kThreads>>>(static_cast<const T*>(table), tokens,
                                                                                  static_cast<T*>(x), batch, d);
  }
  static void rmsnorm(const void* x, void* out, int rows, int d) {
    rmsnorm_kernel<T><<<rows, kThreads>>>(static_cast<const T*>(x), static_cast<T*>(out), d);
  }
  static void add(void* x, const void* y, std::size_t n) {
    add_kernel<T><<<blocks_for(n), kThreads>>>(static_cast<T*>(x), static_cast<const T*>(y), n);
  }
  static void silu(const void* gate, const void* up, void* out, std::size_t n) {
    silu_kernel<T><<<blocks_for(n), kThreads>>>(static_cast<const T*>(gate), static_cast<const T*>(up), static_cast<T*>(out), n);
  }
  static void append(const void* k, void* cache, int batch, int kv_heads, int context, int width) {
    append_kernel<T><<<blocks_for(static_cast<std::size_t>(batch) * kv_heads * width), kThreads>>>(
        static_cast<const T*>(k), static_cast<T*>(cache), batch, kv_heads, context, width);
  }
  static void softmax(void* s, int rows, int len) { softmax_kernel<T><<<rows, kThreads>>>(static_cast<T*>(s), len); }
  static void argmax(const void* logits, int rows, int vocab, int* tokens) {
    argmax_kernel<T><<<rows, kThreads>>>(static_cast<const T*>(logits), vocab, tokens);
  }
};

#define NAPKIN_BY_TYPE(t, call)                        \
  switch (t) {                                         \
    case CUDA_R_16BF: Ops<__nv_bfloat16>::call; break; \
    case CUDA_R_16F: Ops<__half>::call; break;         \
    default: Ops<float>::call; break;                  \
  }

}  // namespace

void embed(cudaDataType_t t, const void* table, const int* tokens, void* x, int batch, int d) {
  NAPKIN_BY_TYPE(t, embed(table, tokens, x, batch, d));
}
void rmsnorm(cudaDataType_t t, const void* x, void* out, int rows, int d) { NAPKIN_BY_TYPE(t, rmsnorm(x, out, rows, d)); }
void add(cudaDataType_t t, void* x, const void* y, std::size_t n) { NAPKIN_BY_TYPE(t, add(x, y, n)); }
void silu(cudaDataType_t t, const void* gate, const void* up, void* out, std::size_t n) {
  NAPKIN_BY_TYPE(t, silu(gate, up, out, n));
}
void append(cudaDataType_t t, const void* k, void* cache, int batch, int kv_heads, int context, int width) {
  NAPKIN_BY_TYPE(t, append(k, cache, batch, kv_heads, context, width));
}
void softmax(cudaDataType_t t, void* s, int rows, int len) { NAPKIN_BY_TYPE(t, softmax(s, rows, len)); }
void argmax(cudaDataType_t t, const void* logits, int rows, int vocab, int* tokens) {
  NAPKIN_BY_TYPE(t, argmax(logits, rows, vocab, tokens));
}

}  // namespace napkin::gpu::kernels
