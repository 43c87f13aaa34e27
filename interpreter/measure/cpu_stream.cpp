#include "cpu_stream.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>

#include "cpu_info.hpp"
#include "thread_team.hpp"
#include "grammar/diagnostic.hpp"

namespace napkin::measure {

namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;
constexpr double kScalar = 3.0;
constexpr double kTriadB = 2.0, kTriadC = 0.5;

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Array = std::unique_ptr<double[], FreeDeleter>;

Array allocate(std::size_t n) {
  // Page-aligned and left untouched: each thread first-touches its own share.
  void* p = std::aligned_alloc(4096, (n * sizeof(double) + 4095) / 4096 * 4096);
  if (!p) fail(codes::probe_unavailable, fmt::format("cannot allocate {} MiB", n * sizeof(double) >> 20));
  return Array(static_cast<double*>(p));
}

std::size_t array_bytes(const Settings& s, int arrays) {
  if (s.cpu_array_bytes) return s.cpu_array_bytes;
  const CpuInfo& cpu = cpu_info();
  std::size_t bytes = std::max(4 * cpu.llc_bytes, kGiB);
  // Leave half of the free memory alone rather than push the machine into swap.
  if (cpu.available_bytes && bytes * arrays > cpu.available_bytes / 2)
    bytes = std::max<std::size_t>(cpu.available_bytes / 2 / arrays, 64 << 20);
  return bytes;
}

std::string size_text(std::size_t bytes) {
  if (bytes % kGiB == 0) return fmt::format("{} GiB", bytes / kGiB);
  return fmt::format("{} MiB", bytes >> 20);
}

}  // namespace

double stream_source(std::size_t i) { return 1.0 + static_cast<double>(i % 1024); }

std::string check_stream(StreamKernel kernel, const double* result, std::size_t n) {
  const bool triad = kernel == StreamKernel::Triad;
  const auto wrong = [&](std::size_t i) {
    const double want = triad ? kTriadB + kScalar * kTriadC : stream_source(i);
    return result[i] != want ? fmt::format("wrong result at element {}: {} instead of {}", i, result[i], want)
                             : std::string();
  };
  // A prime stride meets every thread's share and every offset within a
  // page; the last element catches a loop that stops one short.
  for (std::size_t i = 0; i < n; i += 4099)
    if (auto w = wrong(i); !w.empty()) return w;
  return n ? wrong(n - 1) : std::string();
}

Measurement cpu_stream(StreamKernel kernel, int threads, const Settings& s) {
  const bool triad = kernel == StreamKernel::Triad;
  const int arrays = triad ? 3 : 2;
  const std::size_t bytes = array_bytes(s, arrays);
  const std::size_t n = bytes / sizeof(double);
  Array a = allocate(n), c = allocate(n), b = triad ? allocate(n) : nullptr;
  double* pa = a.get();
  double* pb = b.get();
  double* pc = c.get();

  ThreadTeam team(threads);
  // The result array starts with values the kernel must overwrite: c is not
  // a copy of a, and a is not b + 3·c, so a pass that skips work fails the check.
  team.run([&](int t) {
    auto [lo, hi] = team.share(n, t);
    for (std::size_t i = lo; i < hi; ++i) {
      pa[i] = stream_source(i);
      if (pb) pb[i] = kTriadB;
      pc[i] = kTriadC;
    }
  });

  const auto pass = [&](int t) {
    auto [lo, hi] = team.share(n, t);
    if (triad)
      for (std::size_t i = lo; i < hi; ++i) pa[i] = pb[i] + kScalar * pc[i];
    else
      for (std::size_t i = lo; i < hi; ++i) pc[i] = pa[i];
  };
  const double moved = static_cast<double>(arrays) * static_cast<double>(n * sizeof(double));
  std::vector<double> rates;
  const int runs = std::max(s.cpu_runs, 2);
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    team.run(pass);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) rates.push_back(moved / std::max(sec, 1e-9));  // the first pass warms the pages and caches
  }

  if (std::string wrong = check_stream(kernel, triad ? pa : pc, n); !wrong.empty()) fail(codes::probe_unavailable, wrong);

  Measurement m;
  m.probe = triad ? "cpu.triad_bandwidth" : "cpu.copy_bandwidth";
  m.variant = fmt::format("threads={}", threads);
  m.unit = "B/s";
  m.device = cpu_info().device();
  summarize(m, rates);
  m.method = fmt::format("STREAM {} over {} × {} arrays of double, {} thread{}, first pass dropped",
                         triad ? "triad" : "copy", arrays, size_text(bytes), threads, threads == 1 ? "" : "s");
  m.measured_at = utc_now();
  return m;
}

}  // namespace napkin::measure
