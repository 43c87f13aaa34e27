// STREAM-style device memory bandwidth: copy (c = a), triad (a = b + s·c)
// and read (a sum of a), over buffers of 1 GiB each so the L2 (50 MiB on an
// H100/H200) cannot flatter them; bytes counted the STREAM way, every array
// read or written once per pass, in decimal units.
#include "common.hpp"
#include "kernels.cuh"

namespace napkin::gpu {

namespace {

using kernels::Stream;
constexpr double kScalar = verify::kTriadScalar;
constexpr int kThreads = 256;

// Each array 1 GiB, or less where the GPU has not that much free.
std::size_t array_bytes(int arrays) {
  std::size_t bytes = std::size_t{1} << 30;
  const std::size_t room = free_memory() * 8 / 10 / arrays;
  while (bytes > room && bytes > (std::size_t{64} << 20)) bytes /= 2;
  return bytes;
}

// Elements from the start, the middle and the end of a buffer, as doubles,
// with the index of each (in doubles).
std::vector<double> sample(const double2* p, std::size_t n, std::vector<std::size_t>& at) {
  at.clear();
  const std::size_t chunk = std::min<std::size_t>(4096, n / 3);
  std::vector<double2> host(3 * chunk);
  for (std::size_t part = 0; part < 3; ++part) {
    const std::size_t first = part == 0 ? 0 : part == 1 ? n / 2 : n - chunk;
    NAPKIN_CUDA(cudaMemcpy(host.data() + part * chunk, p + first, chunk * sizeof(double2), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < chunk; ++i) {
      at.push_back(2 * (first + i));
      at.push_back(2 * (first + i) + 1);
    }
  }
  std::vector<double> out;
  for (const double2& v : host) {
    out.push_back(v.x);
    out.push_back(v.y);
  }
  return out;
}

void expect(const std::string& wrong) {
  if (!wrong.empty()) throw Failure(wrong);
}

}  // namespace

void run_stream(const std::string& kind, napkin_gpu_result* out) {
  const Stream k = kind == "copy" ? Stream::Copy : kind == "triad" ? Stream::Triad : Stream::Read;
  const int arrays = k == Stream::Copy ? 2 : k == Stream::Triad ? 3 : 1;
  const std::size_t bytes = array_bytes(arrays);
  const std::size_t n = bytes / sizeof(double2);
  DeviceBuffer<double2> a(n), b(k == Stream::Triad ? n : 1), c(k == Stream::Read ? 1 : n);
  DeviceBuffer<double> sum(1);
  kernels::fill_stream(a.get(), n, 0);
  if (k == Stream::Triad) kernels::fill_stream(b.get(), n, 0);
  // Copy's c starts unlike a, so a kernel that copies nothing fails the check.
  if (k != Stream::Read) kernels::fill_stream(c.get(), n, k == Stream::Triad ? verify::kTriadC : verify::kCopyDestination);
  NAPKIN_CUDA(cudaGetLastError());
  NAPKIN_CUDA(cudaDeviceSynchronize());

  const int blocks = kernels::stream_grid(k, kThreads);
  if (blocks <= 0) throw Failure("cannot size the grid for this GPU");
  auto launch = [&] { kernels::stream(k, blocks, kThreads, a.get(), b.get(), c.get(), kScalar, n, sum.get()); };
  const std::vector<double> seconds = time_launches(launch, Timing{});

  // The data must have moved: compare samples with what the kernel should have written.
  std::vector<std::size_t> at;
  if (k == Stream::Copy) {
    const auto got = sample(c.get(), n, at);
    expect(verify::copy(got.data(), at.data(), got.size()));
  } else if (k == Stream::Triad) {
    const auto got = sample(a.get(), n, at);
    expect(verify::triad(got.data(), at.data(), got.size()));
  } else {
    NAPKIN_CUDA(cudaMemset(sum.get(), 0, sizeof(double)));
    launch();
    NAPKIN_CUDA(cudaGetLastError());
    double got = 0;
    NAPKIN_CUDA(cudaMemcpy(&got, sum.get(), sizeof got, cudaMemcpyDeviceToHost));
    expect(verify::read(got, 2 * n));
  }

  const char* name = k == Stream::Copy ? "copy (c = a)" : k == Stream::Triad ? "triad (a = b + 3·c)" : "read (sum of a)";
  fill_rates(out, seconds, static_cast<double>(arrays) * bytes, "B/s",
             strf("STREAM %s over %d × %s, 16-byte loads%s, grid-stride over %d blocks of %d, bytes = %s", name,
                  arrays, mib(bytes).c_str(), k == Stream::Read ? " (4 in flight per thread, one atomic add per block)" : "",
                  blocks, kThreads,
                  k == Stream::Copy ? "read + write" : k == Stream::Triad ? "2 reads + write" : "read"));
}

// cudaMemcpy device to device, sized, timed and counted as the copy probe is.
void run_memcpy(napkin_gpu_result* out) {
  const std::size_t bytes = array_bytes(2);
  DeviceBuffer<char> a(bytes), c(bytes);
  NAPKIN_CUDA(cudaMemset(a.get(), 1, bytes));
  NAPKIN_CUDA(cudaMemset(c.get(), 0, bytes));  // unlike a, so a copy that did nothing is caught
  const std::vector<double> seconds = time_launches(
      [&] { NAPKIN_CUDA(cudaMemcpyAsync(c.get(), a.get(), bytes, cudaMemcpyDeviceToDevice)); }, Timing{});
  for (const std::size_t at : {std::size_t{0}, bytes / 2, bytes - 1}) {
    char got = 0;
    NAPKIN_CUDA(cudaMemcpy(&got, c.get() + at, 1, cudaMemcpyDeviceToHost));
    if (got != 1) throw Failure(strf("cudaMemcpy left byte %zu of the destination unwritten", at));
  }
  fill_rates(out, seconds, 2.0 * bytes, "B/s",
             strf("cudaMemcpy device to device, %s, bytes = read + write", mib(bytes).c_str()));
}

}  // namespace napkin::gpu
