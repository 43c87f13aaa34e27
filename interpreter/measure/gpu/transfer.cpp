// The host side of a GPU: host-to-device copies (pinned and pageable memory
// reported separately, since a pageable copy stages through a pinned
// buffer), and what a kernel launch costs.
#include <cstdlib>
#include <memory>

#include "common.hpp"
#include "kernels.cuh"

namespace napkin::gpu {

namespace {
struct PinnedFree {
  void operator()(char* p) const { cudaFreeHost(p); }
};
struct Free {
  void operator()(char* p) const { std::free(p); }
};
}  // namespace

void run_host_to_device(const std::string& memory, napkin_gpu_result* out) {
  const bool pinned = memory != "pageable";
  const std::size_t bytes = std::size_t{256} << 20;
  std::unique_ptr<char, PinnedFree> pinned_buf;
  std::unique_ptr<char, Free> pageable_buf;
  char* host = nullptr;
  if (pinned) {
    NAPKIN_CUDA(cudaMallocHost(&host, bytes));
    pinned_buf.reset(host);
  } else {
    host = static_cast<char*>(std::malloc(bytes));
    if (!host) throw Failure("cannot allocate 256 MiB of host memory");
    pageable_buf.reset(host);
  }
  std::memset(host, 7, bytes);
  DeviceBuffer<char> dev(bytes);
  const std::vector<double> seconds = time_launches(
      [&] {
        if (pinned)
          NAPKIN_CUDA(cudaMemcpyAsync(dev.get(), host, bytes, cudaMemcpyHostToDevice));
        else
          NAPKIN_CUDA(cudaMemcpy(dev.get(), host, bytes, cudaMemcpyHostToDevice));
      },
      Timing{});
  char middle = 0;
  NAPKIN_CUDA(cudaMemcpy(&middle, dev.get() + bytes / 2, 1, cudaMemcpyDeviceToHost));
  if (middle != 7) throw Failure("the host-to-device copy did not arrive");
  fill_rates(out, seconds, static_cast<double>(bytes), "B/s",
             strf("cudaMemcpy host to device from %s memory, 256 MiB per copy", pinned ? "pinned" : "pageable"));
}

// Back-to-back launches of an empty kernel, timed on the GPU: the time each
// launch adds to a stream, the floor under a step made of many small kernels.
void run_launch_latency(napkin_gpu_result* out) {
  Timing t;
  t.warmups = 5;
  const std::vector<double> seconds = time_launches([] { kernels::empty(); }, t);
  out->n = 0;
  for (double s : seconds)
    if (out->n < NAPKIN_GPU_MAX_SAMPLES) out->samples[out->n++] = s;
  set_text(out->unit, sizeof out->unit, "s");
  set_text(out->method, sizeof out->method,
           "an empty kernel (1 block of 32 threads) launched back to back in batches of ≥ 5 ms, timed with CUDA events");
  out->ok = 1;
}

}  // namespace napkin::gpu
