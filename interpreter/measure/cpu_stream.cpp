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

double stream_source_sum(std::size_t n) {
  const std::size_t whole = n / 1024, rest = n % 1024;
  return static_cast<double>(whole) * (1024.0 * 1025.0 / 2) + static_cast<double>(rest) * (rest + 1) / 2.0;
}

std::string check_read(double sum, std::size_t n) {
  const double want = stream_source_sum(n);
  return sum == want ? std::string() : fmt::format("wrong sum over {} elements: {} instead of {}", n, sum, want);
}

Measurement cpu_stream(StreamKernel kernel, int threads, const Settings& s) {
  const bool triad = kernel == StreamKernel::Triad, read = kernel == StreamKernel::Read;
  const int arrays = triad ? 3 : read ? 1 : 2;
  const std::size_t bytes = array_bytes(s, arrays);
  const std::size_t n = bytes / sizeof(double);
  Array a = allocate(n), c = read ? nullptr : allocate(n), b = triad ? allocate(n) : nullptr;
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
      if (pc) pc[i] = kTriadC;
    }
  });

  // Each thread's sum in its own cache line.
  struct alignas(64) Partial {
    double sum = 0;
  };
  std::vector<Partial> partial(static_cast<std::size_t>(threads));
  const auto pass = [&](int t) {
    auto [lo, hi] = team.share(n, t);
    if (read) {
      // Vectors of 4 doubles, 4 of them: without -ffast-math a compiler keeps
      // a scalar sum in order, one add at a time, far below the memory's pace.
      typedef double v4 __attribute__((vector_size(32)));
      v4 acc[4] = {};
      std::size_t i = lo;
      for (; i + 16 <= hi; i += 16)
        for (int j = 0; j < 4; ++j) {
          v4 x;
          __builtin_memcpy(&x, pa + i + 4 * j, sizeof x);
          acc[j] += x;
        }
      double sum = 0;
      for (; i < hi; ++i) sum += pa[i];
      for (const v4& v : acc) sum += (v[0] + v[1]) + (v[2] + v[3]);
      partial[t].sum = sum;
    } else if (triad)
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

  double sum = 0;
  for (const Partial& p : partial) sum += p.sum;
  if (std::string wrong = read ? check_read(sum, n) : check_stream(kernel, triad ? pa : pc, n); !wrong.empty())
    fail(codes::probe_unavailable, wrong);

  Measurement m;
  m.probe = triad ? "cpu.triad_bandwidth" : read ? "cpu.read_bandwidth" : "cpu.copy_bandwidth";
  m.variant = fmt::format("threads={}", threads);
  m.unit = "B/s";
  m.device = cpu_info().device();
  summarize(m, rates);
  m.method = read ? fmt::format("a sum over {} of double, 16 running sums a thread, {} thread{}, first pass dropped",
                                size_text(bytes), threads, threads == 1 ? "" : "s")
                  : fmt::format("STREAM {} over {} × {} arrays of double, {} thread{}, first pass dropped",
                                triad ? "triad" : "copy", arrays, size_text(bytes), threads, threads == 1 ? "" : "s");
  m.measured_at = utc_now();
  return m;
}

}  // namespace napkin::measure
