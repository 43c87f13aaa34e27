// The probes' own machinery: every correctness check can fail (each is fed
// a poisoned buffer or a deliberately wrong product), the thread team
// survives a thread that cannot start, the `threads` argument is capped, and
// the CPU matmul probe reaches what its BLAS reaches when timed directly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "interpreter/measure/cpu_blas.hpp"
#include "interpreter/measure/cpu_info.hpp"
#include "interpreter/measure/cpu_matmul.hpp"
#include "interpreter/measure/cpu_stream.hpp"
#include "interpreter/measure/gpu/stream_check.hpp"
#include "interpreter/measure/probes.hpp"
#include "interpreter/measure/thread_team.hpp"

using namespace napkin::measure;
namespace verify = napkin::gpu::verify;

namespace {

// A naive product, right by construction, of random entries in [-1, 1).
struct Product {
  int n;
  std::vector<float> a, b, c;
  explicit Product(int size) : n(size), a(size * size), b(size * size), c(size * size) {
    unsigned seed = 7;
    auto next = [&] {
      seed = seed * 1664525u + 1013904223u;
      return static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
    };
    for (auto& x : a) x = next();
    for (auto& x : b) x = next();
    multiply(-1);
  }
  // C = A·B, leaving out the term p = skip (a kernel that drops one step of k).
  void multiply(int skip) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int p = 0; p < n; ++p)
          if (p != skip) s += static_cast<double>(a[i * n + p]) * b[p * n + j];
        c[i * n + j] = static_cast<float>(s);
      }
  }
  std::string check() const { return check_product(n, a.data(), b.data(), c.data()); }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TEST_CASE("the CPU matmul check fails on a wrong product", "[measure][probe]") {
  Product p(67);  // not a multiple of any tile
  REQUIRE(p.check().empty());

  SECTION("C never written (NaN, as the probe starts it)") {
    std::fill(p.c.begin(), p.c.end(), std::numeric_limits<float>::quiet_NaN());
    CHECK(p.check().find("wrong product") != std::string::npos);
  }
  SECTION("C left at zero") {
    std::fill(p.c.begin(), p.c.end(), 0.0f);
    CHECK_FALSE(p.check().empty());
  }
  SECTION("a kernel that drops one step of the k loop") {
    p.multiply(p.n / 2);
    CHECK_FALSE(p.check().empty());
  }
  SECTION("A·Bᵀ instead of A·B") {
    for (int i = 0; i < p.n; ++i)
      for (int j = 0; j < p.n; ++j) {
        double s = 0;
        for (int k = 0; k < p.n; ++k) s += static_cast<double>(p.a[i * p.n + k]) * p.b[j * p.n + k];
        p.c[i * p.n + j] = static_cast<float>(s);
      }
    CHECK_FALSE(p.check().empty());
  }
}

TEST_CASE("the CPU STREAM checks fail on data the kernel did not write", "[measure][probe]") {
  const std::size_t n = 100'003;
  std::vector<double> copied(n), triad(n, 2.0 + 3.0 * 0.5);
  for (std::size_t i = 0; i < n; ++i) copied[i] = stream_source(i);
  REQUIRE(check_stream(StreamKernel::Copy, copied.data(), n).empty());
  REQUIRE(check_stream(StreamKernel::Triad, triad.data(), n).empty());

  SECTION("copy's destination as it was filled, before any pass") {
    std::vector<double> untouched(n, 0.5);
    CHECK(check_stream(StreamKernel::Copy, untouched.data(), n).find("wrong result at element 0") == 0);
  }
  SECTION("a copy loop that stops one element short") {
    copied[n - 1] = 0.5;
    CHECK(check_stream(StreamKernel::Copy, copied.data(), n).find("element 100002") != std::string::npos);
  }
  SECTION("one element poisoned in the middle of a thread's share") {
    copied[4099 * 12] = -0.0;
    CHECK_FALSE(check_stream(StreamKernel::Copy, copied.data(), n).empty());
  }
  SECTION("triad's a as it was filled (the copy pattern), before any pass") {
    CHECK_FALSE(check_stream(StreamKernel::Triad, copied.data(), n).empty());
  }
  SECTION("triad computed as b + c") {
    std::fill(triad.begin(), triad.end(), 2.5);
    CHECK_FALSE(check_stream(StreamKernel::Triad, triad.data(), n).empty());
  }
}

TEST_CASE("the GPU STREAM checks fail on data the kernel did not write", "[measure][probe]") {
  // What stream.cpp reads back: samples of the written array and their indices.
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < 3000; ++i) at.push_back(i * 977 + 5);
  std::vector<double> copied, triad;
  for (std::size_t i : at) {
    copied.push_back(verify::stream_pattern(i));
    triad.push_back(verify::stream_pattern(i) + verify::kTriadScalar * verify::kTriadC);
  }
  REQUIRE(verify::copy(copied.data(), at.data(), at.size()).empty());
  REQUIRE(verify::triad(triad.data(), at.data(), at.size()).empty());

  SECTION("copy: a kernel that copies nothing leaves the destination's own pattern") {
    std::vector<double> untouched(at.size(), verify::kCopyDestination);
    CHECK(verify::copy(untouched.data(), at.data(), at.size()).find("the copy kernel wrote wrong data") == 0);
  }
  SECTION("copy: one element poisoned") {
    copied[1234] += 1;
    CHECK_FALSE(verify::copy(copied.data(), at.data(), at.size()).empty());
  }
  SECTION("copy: nothing read back is not a pass") {
    CHECK_FALSE(verify::copy(copied.data(), at.data(), 0).empty());
  }
  SECTION("triad: a as it was filled") {
    CHECK_FALSE(verify::triad(copied.data(), at.data(), at.size()).empty());
  }
  SECTION("triad: NaN") {
    triad.back() = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(verify::triad(triad.data(), at.data(), at.size()).empty());
  }
  SECTION("read: the exact sum passes, one element more or less does not") {
    const std::size_t elements = (std::size_t{1} << 27) + 77;
    double sum = 0;
    for (std::size_t i = 0; i < elements; ++i) sum += verify::stream_pattern(i);
    CHECK(verify::read(sum, elements).empty());
    CHECK_FALSE(verify::read(sum - verify::stream_pattern(elements - 1), elements).empty());
    CHECK_FALSE(verify::read(0, elements).empty());  // a launch whose blocks never added
  }
}

TEST_CASE("a thread team that cannot start a thread joins the ones it started", "[measure][probe]") {
  std::atomic<int> started{0};
  const ThreadTeam::Start fail_at_fifth = [&](std::function<void()> body) {
    if (started == 4) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    ++started;
    return std::thread(std::move(body));
  };
  try {
    ThreadTeam team(16, fail_at_fifth);
    FAIL("the team started all 16 threads");
  } catch (const napkin::Error& e) {
    CHECK(e.diagnostic().code == napkin::Code::probe_unavailable);
    CHECK(e.diagnostic().message.find("cannot start thread 6 of 16") == 0);
  }
  CHECK(started == 4);  // and the process is still here: no std::terminate

  CHECK_THROWS_WITH(ThreadTeam(ThreadTeam::kMaxSize + 1), Catch::Contains("more than the 4096 napkin allows"));

  ThreadTeam team(5);
  std::vector<int> seen(5, 0);
  team.run([&](int i) { seen[i] += 1; });
  team.run([&](int i) { seen[i] += 1; });
  CHECK(seen == std::vector<int>(5, 2));
}

TEST_CASE("the threads argument is capped", "[measure][probe]") {
  Request r{find_probe("cpu.copy_bandwidth"), {}};
  REQUIRE(r.probe);
  const int most = 4 * cpu_info().threads;
  CHECK(settle(r, {{"threads", std::to_string(most)}}).empty());
  CHECK(settle(r, {{"threads", std::to_string(most + 1)}}).find("must be at most") != std::string::npos);
  CHECK(settle(r, {{"threads", "100000"}}).find("must be at most") != std::string::npos);
  CHECK_FALSE(settle(r, {{"threads", "99999999999"}}).empty());
}

TEST_CASE("the CPU matmul probe names its library, or says why it fell back", "[measure][probe]") {
  Settings s;
  s.cpu_matmul_n = 96;
  s.cpu_blas = "none";
  const Measurement own = cpu_matmul(1, s);
  CHECK(own.method.find("napkin's blocked fp32 kernel") == 0);
  CHECK(own.method.find("NAPKIN_CPU_BLAS=none") != std::string::npos);

  s.cpu_blas = "/nonexistent/libopenblas.so.0";
  CHECK(cpu_matmul(1, s).method.find("could not be loaded") != std::string::npos);

  s.cpu_blas = "";
  const CpuBlas& blas = cpu_blas("");
  // The build installs libopenblas0-pthread (.ci/install-deps.sh): a test
  // that passed without it would say nothing about the library path.
  if (!blas.found) FAIL("no OpenBLAS here (" << blas.reason << "): install libopenblas0-pthread");
  const Measurement lib = cpu_matmul(1, s);
  CHECK(lib.method.find("cblas_sgemm from OpenBLAS") == 0);
  CHECK(lib.value > 1e8);
}

// The probe within 20% of the library's own figure.
TEST_CASE("the CPU matmul probe reaches what OpenBLAS reaches timed directly", "[measure][probe]") {
  const CpuBlas& blas = cpu_blas("");
  if (!blas.found) FAIL("no OpenBLAS here (" << blas.reason << "): install libopenblas0-pthread");
  const int n = 2048, threads = cpu_info().threads;
  std::vector<float> a(static_cast<std::size_t>(n) * n, 0.5f), b(a.size(), 0.25f), c(a.size());
  const auto direct = [&] {
    if (blas.set_threads) blas.set_threads(threads);
    std::vector<double> rates;
    for (int r = 0; r < 6; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      blas.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                 c.data(), n);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0) rates.push_back(2.0 * n * n * static_cast<double>(n) / s);
    }
    REQUIRE(c[12345] == 0.5f * 0.25f * n);
    return median(rates);
  };
  Settings s;
  s.cpu_matmul_n = n;
  // Other work on a shared machine comes and goes: the library is timed
  // before and after the probe, and a disagreement gets two more tries.
  bool close = false;
  for (int attempt = 0; attempt < 3 && !close; ++attempt) {
    const double before = direct();
    const Measurement probe = cpu_matmul(threads, s);
    const double library = (before + direct()) / 2;
    close = probe.value > 0.8 * library && probe.value < 1.25 * library;
    WARN("2048³ sgemm, " << threads << " threads: probe " << probe.value / 1e9 << " GFLOP/s, OpenBLAS directly "
                         << library / 1e9 << " GFLOP/s");
  }
  CHECK(close);
}
