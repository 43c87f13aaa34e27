// The host side of a GPU: host-to-device copies (pinned and pageable memory
// reported separately, since a pageable copy stages through a pinned
// buffer), and what a kernel launch costs, both its latency and the
// interval between back-to-back launches.
#include <sched.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
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

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// The CPUs the kernel lists as local to the GPU, "0-47,96-143" in sysfs.
bool parse_cpulist(const std::string& list, cpu_set_t& set) {
  CPU_ZERO(&set);
  std::size_t i = 0;
  bool any = false;
  while (i < list.size()) {
    char* end = nullptr;
    const long lo = std::strtol(list.c_str() + i, &end, 10);
    if (end == list.c_str() + i) return false;
    i = static_cast<std::size_t>(end - list.c_str());
    long hi = lo;
    if (i < list.size() && list[i] == '-') {
      hi = std::strtol(list.c_str() + i + 1, &end, 10);
      i = static_cast<std::size_t>(end - list.c_str());
    }
    for (long c = lo; c <= hi && c < CPU_SETSIZE; ++c) {
      CPU_SET(static_cast<int>(c), &set);
      any = true;
    }
    if (i < list.size() && list[i] == ',') ++i;
    else if (i < list.size()) return false;
  }
  return any;
}

// Runs the calling thread on the GPU's own NUMA node while it lives, so the
// pages it allocates and first touches (pinned buffers included) are local
// to the GPU, as nvbandwidth arranges; says which node that was.
class NearTheGpu {
 public:
  NearTheGpu() {
    int device = 0;
    char bus[32] = {};
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) {
      cudaGetLastError();
      where_ = "the GPU's NUMA node unknown";
      return;
    }
    std::string id = bus;
    for (char& ch : id) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::string dir = "/sys/bus/pci/devices/" + id;
    const std::string node = read_line(dir + "/numa_node");
    cpu_set_t local;
    if (!parse_cpulist(read_line(dir + "/local_cpulist"), local) || sched_getaffinity(0, sizeof saved_, &saved_) != 0) {
      where_ = "the GPU's NUMA node unknown (" + id + ")";
      return;
    }
    cpu_set_t both;
    CPU_AND(&both, &local, &saved_);
    if (CPU_COUNT(&both) == 0 || sched_setaffinity(0, sizeof both, &both) != 0) {
      where_ = "not on the GPU's NUMA node (none of its CPUs is allowed here)";
      return;
    }
    bound_ = true;
    where_ = node.empty() || node == "-1" ? "on the CPUs local to the GPU" : "on NUMA node " + node + ", the GPU's";
  }
  ~NearTheGpu() {
    if (bound_) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  NearTheGpu(const NearTheGpu&) = delete;
  NearTheGpu& operator=(const NearTheGpu&) = delete;
  const std::string& where() const { return where_; }

 private:
  cpu_set_t saved_{};
  bool bound_ = false;
  std::string where_;
};

}  // namespace

void run_host_to_device(const std::string& memory, napkin_gpu_result* out) {
  const bool pinned = memory != "pageable";
  const std::size_t bytes = std::size_t{256} << 20;
  const NearTheGpu near;
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
             strf("cudaMemcpy host to device from %s memory %s, 256 MiB per copy", pinned ? "pinned" : "pageable",
                  near.where().c_str()));
}

// Launch latency: one empty kernel launched and waited for, again and
// again, timed on the host; each sample is the mean round trip over a batch
// of at least 5 ms. This is what a step that waits on each kernel pays.
void run_launch_latency(napkin_gpu_result* out) {
  auto round_trip = [] {
    kernels::empty();
    NAPKIN_CUDA(cudaGetLastError());
    NAPKIN_CUDA(cudaStreamSynchronize(nullptr));
  };
  for (int i = 0; i < 1000; ++i) round_trip();
  using clock = std::chrono::steady_clock;
  out->n = 0;
  for (int s = 0; s < 25 && out->n < NAPKIN_GPU_MAX_SAMPLES; ++s) {
    const auto t0 = clock::now();
    int trips = 0;
    double spent = 0;
    do {
      round_trip();
      ++trips;
      spent = std::chrono::duration<double>(clock::now() - t0).count();
    } while (spent < 5e-3);
    out->samples[out->n++] = spent / trips;
  }
  set_text(out->unit, sizeof out->unit, "s");
  set_text(out->method, sizeof out->method,
           "an empty kernel (1 block of 32 threads) launched and waited for with cudaStreamSynchronize, one at a "
           "time; host clock, mean round trip over batches of ≥ 5 ms, after 1,000 warm-up round trips");
  out->ok = 1;
}

// Launch interval: empty kernels launched back to back without waiting, in
// batches of ≥ 5 ms timed with CUDA events: the time each launch adds to a
// busy stream, the inverse of launches per second, and the floor under a
// step made of many small kernels.
void run_launch_interval(napkin_gpu_result* out) {
  Timing t;
  t.warmups = 5;
  const std::vector<double> seconds = time_launches([] { kernels::empty(); }, t);
  out->n = 0;
  for (double s : seconds)
    if (out->n < NAPKIN_GPU_MAX_SAMPLES) out->samples[out->n++] = s;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const double mid = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  set_text(out->unit, sizeof out->unit, "s");
  set_text(out->method, sizeof out->method,
           strf("an empty kernel (1 block of 32 threads) launched back to back in batches of ≥ 5 ms, timed with "
                "CUDA events; the interval per launch, %.3g launches/s at the median",
                mid > 0 ? 1 / mid : 0));
  out->ok = 1;
}

}  // namespace napkin::gpu
