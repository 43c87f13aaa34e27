// STREAM-style device memory bandwidth: copy (c = a), triad (a = b + s·c)
// and read (a sum of a). 16-byte loads and stores in a grid-stride loop over
// buffers of 1 GiB each, far beyond the L2; bytes counted the STREAM way,
// every array read or written once per pass.
#include "common.cuh"

namespace napkin::gpu {

namespace {

constexpr double kScalar = 3.0;
constexpr int kThreads = 256;

__host__ __device__ inline double pattern(std::size_t i) { return 1.0 + static_cast<double>(i % 1024); }

__global__ void fill_kernel(double2* p, std::size_t n, double constant) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = constant != 0 ? make_double2(constant, constant) : make_double2(pattern(2 * i), pattern(2 * i + 1));
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

__global__ void read_kernel(const double2* __restrict__ a, std::size_t n, double* sum) {
  double s = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const double2 x = a[i];
    s += x.x + x.y;
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, s);
}

// Each array 1 GiB, or less where the GPU has not that much free.
std::size_t array_bytes(int arrays) {
  std::size_t bytes = std::size_t{1} << 30;
  const std::size_t room = free_memory() * 8 / 10 / arrays;
  while (bytes > room && bytes > (std::size_t{64} << 20)) bytes /= 2;
  return bytes;
}

// Samples from the start, the middle and the end of a buffer.
std::vector<double2> sample(const double2* p, std::size_t n, std::vector<std::size_t>& at) {
  at.clear();
  const std::size_t chunk = std::min<std::size_t>(4096, n / 3);
  std::vector<double2> host(3 * chunk);
  for (int part = 0; part < 3; ++part) {
    const std::size_t first = part == 0 ? 0 : part == 1 ? n / 2 : n - chunk;
    NAPKIN_CUDA(cudaMemcpy(host.data() + part * chunk, p + first, chunk * sizeof(double2), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < chunk; ++i) at.push_back(first + i);
  }
  return host;
}

void expect(bool ok, const char* what) {
  if (!ok) throw Failure(strf("the %s kernel produced wrong data", what));
}

}  // namespace

void run_stream(const std::string& kind, napkin_gpu_result* out) {
  const bool is_copy = kind == "copy", is_triad = kind == "triad", is_read = !is_copy && !is_triad;
  const int arrays = is_copy ? 2 : is_triad ? 3 : 1;
  const std::size_t bytes = array_bytes(arrays);
  const std::size_t n = bytes / sizeof(double2);
  DeviceBuffer<double2> a(n), b(is_triad ? n : 1), c(is_read ? 1 : n);
  DeviceBuffer<double> sum(1);
  const int fill_blocks = fill_grid(fill_kernel, kThreads);
  fill_kernel<<<fill_blocks, kThreads>>>(a.get(), n, 0);
  if (is_triad) fill_kernel<<<fill_blocks, kThreads>>>(b.get(), n, 0);
  if (!is_read) fill_kernel<<<fill_blocks, kThreads>>>(c.get(), n, is_triad ? 0.5 : 0);
  NAPKIN_CUDA(cudaGetLastError());
  NAPKIN_CUDA(cudaDeviceSynchronize());

  std::function<void()> launch;
  int blocks = 0;
  if (is_copy) {
    blocks = fill_grid(copy_kernel, kThreads);
    launch = [&] { copy_kernel<<<blocks, kThreads>>>(a.get(), c.get(), n); };
  } else if (is_triad) {
    blocks = fill_grid(triad_kernel, kThreads);
    launch = [&] { triad_kernel<<<blocks, kThreads>>>(a.get(), b.get(), c.get(), kScalar, n); };
  } else {
    blocks = fill_grid(read_kernel, kThreads);
    launch = [&] { read_kernel<<<blocks, kThreads>>>(a.get(), n, sum.get()); };
  }
  const std::vector<double> seconds = time_launches(launch, Timing{});

  // The data must have moved: compare samples with what the kernel should have written.
  std::vector<std::size_t> at;
  if (is_copy) {
    auto src = sample(a.get(), n, at), dst = sample(c.get(), n, at);
    for (std::size_t i = 0; i < dst.size(); ++i)
      expect(dst[i].x == src[i].x && dst[i].y == src[i].y && dst[i].x != 0, "copy");
  } else if (is_triad) {
    auto got = sample(a.get(), n, at);
    for (std::size_t i = 0; i < got.size(); ++i)
      expect(got[i].x == pattern(2 * at[i]) + kScalar * 0.5 && got[i].y == pattern(2 * at[i] + 1) + kScalar * 0.5,
             "triad");
  } else {
    NAPKIN_CUDA(cudaMemset(sum.get(), 0, sizeof(double)));
    launch();
    double got = 0, want = 0;
    NAPKIN_CUDA(cudaMemcpy(&got, sum.get(), sizeof got, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < 2 * n; ++i) want += pattern(i);
    expect(got == want, "read");
  }

  const char* name = is_copy ? "copy (c = a)" : is_triad ? "triad (a = b + 3·c)" : "read (sum of a)";
  fill_rates(out, seconds, static_cast<double>(arrays) * bytes, "B/s",
             strf("STREAM %s, %d × %s of double2 (16-byte loads), grid-stride over %d blocks of %d, bytes = %s",
                  name, arrays, mib(bytes).c_str(), blocks, kThreads,
                  is_copy ? "read + write" : is_triad ? "2 reads + write" : "read"));
}

// cudaMemcpy device to device, timed and counted as the copy probe is.
void run_memcpy(napkin_gpu_result* out) {
  const std::size_t bytes = array_bytes(2);
  DeviceBuffer<char> a(bytes), c(bytes);
  NAPKIN_CUDA(cudaMemset(a.get(), 1, bytes));
  const std::vector<double> seconds = time_launches(
      [&] { NAPKIN_CUDA(cudaMemcpyAsync(c.get(), a.get(), bytes, cudaMemcpyDeviceToDevice)); }, Timing{});
  char probe = 0;
  NAPKIN_CUDA(cudaMemcpy(&probe, c.get() + bytes - 1, 1, cudaMemcpyDeviceToHost));
  if (probe != 1) throw Failure("cudaMemcpy left the destination unwritten");
  fill_rates(out, seconds, 2.0 * bytes, "B/s",
             strf("cudaMemcpy device to device, %s, bytes = read + write", mib(bytes).c_str()));
}

}  // namespace napkin::gpu
