// STREAM kernels: grid-stride loops over double2, so every load and store
// is 16 bytes wide. Sums of the pattern are whole numbers far below 2^53,
// so the read kernel's result is exact in any order of addition.
#include "kernels.cuh"

namespace napkin::gpu::kernels {

namespace {

__global__ void fill_kernel(double2* p, std::size_t n, double constant) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = constant != 0 ? make_double2(constant, constant) : make_double2(stream_pattern(2 * i), stream_pattern(2 * i + 1));
}

__global__ void copy_kernel(const double2* __restrict__ a, double2* __restrict__ c, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    c[i] = a[i];
}

__global__ void triad_kernel(double2* __restrict__ a, const double2* __restrict__ b, const double2* __restrict__ c,
                             double s, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const double2 x = b[i], y = c[i];
    a[i] = make_double2(x.x + s * y.x, x.y + s * y.y);
  }
}

constexpr int kReadUnroll = 4;
constexpr int kMaxWarps = 32;  // blocks of up to 1024 threads

// Four independent 16-byte loads in flight per thread (one is not enough to
// cover HBM latency at this occupancy), then one sum per block, so a launch
// ends with a few hundred atomic adds instead of one per warp.
__global__ void read_kernel(const double2* __restrict__ a, std::size_t n, double* sum) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  double s[kReadUnroll] = {};
  for (; i + (kReadUnroll - 1) * stride < n; i += kReadUnroll * stride) {
    double2 x[kReadUnroll];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) x[u] = a[i + u * stride];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) s[u] += x[u].x + x[u].y;
  }
  for (; i < n; i += stride) s[0] += a[i].x + a[i].y;
  double t = 0;
#pragma unroll
  for (int u = 0; u < kReadUnroll; ++u) t += s[u];
  for (int o = 16; o > 0; o /= 2) t += __shfl_down_sync(0xffffffffu, t, o);

  __shared__ double warp_sums[kMaxWarps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = (blockDim.x + 31) / 32;
  if (lane == 0) warp_sums[warp] = t;
  __syncthreads();
  if (warp == 0) {
    t = lane < warps ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o /= 2) t += __shfl_down_sync(0xffffffffu, t, o);
    if (lane == 0) atomicAdd(sum, t);
  }
}

__global__ void empty_kernel() {}

template <typename Kernel>
int grid_for(Kernel kernel, int threads) {
  int device = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0) != cudaSuccess)
    return 0;
  return sms * (per_sm > 0 ? per_sm : 1);
}

}  // namespace

int stream_grid(Stream k, int threads) {
  switch (k) {
    case Stream::Copy: return grid_for(copy_kernel, threads);
    case Stream::Triad: return grid_for(triad_kernel, threads);
    case Stream::Read: return grid_for(read_kernel, threads);
  }
  return 0;
}

void fill_stream(double2* p, std::size_t n, double constant) {
  const int blocks = grid_for(fill_kernel, 256);
  fill_kernel<<<blocks > 0 ? blocks : 1024, 256>>>(p, n, constant);
}

void stream(Stream k, int blocks, int threads, double2* a, const double2* b, double2* c, double s, std::size_t n,
            double* sum) {
  switch (k) {
    case Stream::Copy: copy_kernel<<<blocks, threads>>>(a, c, n); break;
    case Stream::Triad: triad_kernel<<<blocks, threads>>>(a, b, c, s, n); break;
    case Stream::Read: read_kernel<<<blocks, threads>>>(a, n, sum); break;
  }
}

void empty() { empty_kernel<<<1, 32>>>(); }

}  // namespace napkin::gpu::kernels
