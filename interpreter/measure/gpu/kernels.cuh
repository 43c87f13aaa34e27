#pragma once
// The device code, behind plain host functions, so only the two kernel
// files pass through nvcc and everything else builds as ordinary C++.
#include <cuda_runtime.h>
#include <library_types.h>

#include <cstddef>

#include "stream_check.hpp"

namespace napkin::gpu::kernels {

enum class Stream { Copy, Triad, Read };

using verify::stream_pattern;

// Blocks of `threads` that keep every SM busy with this kernel.
int stream_grid(Stream k, int threads);
// p[i] = constant, or stream_pattern(i) when constant is 0.
void fill_stream(double2* p, std::size_t n, double constant);
// Copy: c = a. Triad: a = b + s·c. Read: *sum += Σ a, one atomic add per block.
void stream(Stream k, int blocks, int threads, double2* a, const double2* b, double2* c, double s, std::size_t n,
            double* sum);
void empty();

// Random values of type t (bf16, fp16, fp32, fp8 e4m3): normal(0, 1), or
// uniform in [-1, 1) when `uniform`.
void fill_random(cudaDataType_t t, void* p, std::size_t n, unsigned seed, bool uniform);
// y = W·x for a row-major bf16 W of rows × cols (cols a multiple of 8), one warp per row.
void matvec_bf16(const void* w, const void* x, void* y, int rows, int cols, int threads);

// The decode step's kernels (decode_kernels.cu), on values of type t (bf16,
// fp16 or fp32), each row-major: x[batch][d].
void embed(cudaDataType_t t, const void* table, const int* tokens, void* x, int batch, int d);
void rmsnorm(cudaDataType_t t, const void* x, void* out, int rows, int d);
void add(cudaDataType_t t, void* x, const void* y, std::size_t n);
// out = silu(gate) · up, or silu(up) when gate is null.
void silu(cudaDataType_t t, const void* gate, const void* up, void* out, std::size_t n);
void append(cudaDataType_t t, const void* k, void* cache, int batch, int kv_heads, int context, int width);
void softmax(cudaDataType_t t, void* s, int rows, int len);
void argmax(cudaDataType_t t, const void* logits, int rows, int vocab, int* tokens);

}  // namespace napkin::gpu::kernels
