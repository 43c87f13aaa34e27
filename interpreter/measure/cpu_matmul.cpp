#include "cpu_matmul.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "cpu_blas.hpp"
#include "bf16.hpp"
#include "cpu_info.hpp"
#include "thread_team.hpp"
#include "grammar/diagnostic.hpp"

// One copy of the kernel for AVX2 with FMA and one for any x86-64; the loader
// picks the first the CPU supports. Clang 14 knows neither spelling.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NAPKIN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define NAPKIN_CLONES
#endif

namespace napkin::measure {

namespace {

constexpr int MR = 6, NR = 16;   // the register tile: 12 vectors of 8 accumulators
constexpr int KC = 256, MC = 96, NC = 1024;  // panels sized for L1, L2 and L3

typedef float v8 __attribute__((vector_size(32)));

// A's rows [i0, i0+mc) × columns [p0, p0+kc) as MR-row panels, column by column.
void pack_a(const float* a, int lda, int i0, int mc, int p0, int kc, float* out) {
  for (int ir = 0; ir < mc; ir += MR)
    for (int p = 0; p < kc; ++p)
      for (int r = 0; r < MR; ++r) *out++ = ir + r < mc ? a[(i0 + ir + r) * lda + p0 + p] : 0.0f;
}

// B's rows [p0, p0+kc) × columns [j0, j0+nc) as NR-column panels, row by row.
void pack_b(const float* b, int ldb, int p0, int kc, int j0, int nc, float* out) {
  for (int jr = 0; jr < nc; jr += NR)
    for (int p = 0; p < kc; ++p)
      for (int c = 0; c < NR; ++c) *out++ = jr + c < nc ? b[(p0 + p) * ldb + j0 + jr + c] : 0.0f;
}

// C[rows [r0, r1)] (+)= A·B for square n×n row-major matrices.
NAPKIN_CLONES void gemm_rows(int n, const float* a, const float* b, float* c, int r0, int r1) {
  std::vector<float> ap(static_cast<std::size_t>(MC) * KC), bp(static_cast<std::size_t>(KC) * (NC + NR));
  for (int jc = 0; jc < n; jc += NC) {
    const int nc = std::min(NC, n - jc);
    for (int pc = 0; pc < n; pc += KC) {
      const int kc = std::min(KC, n - pc);
      pack_b(b, n, pc, kc, jc, nc, bp.data());
      for (int ic = r0; ic < r1; ic += MC) {
        const int mc = std::min(MC, r1 - ic);
        pack_a(a, n, ic, mc, pc, kc, ap.data());
        for (int jr = 0; jr < nc; jr += NR) {
          const float* bpan = bp.data() + static_cast<std::size_t>(jr / NR) * kc * NR;
          for (int ir = 0; ir < mc; ir += MR) {
            const float* apan = ap.data() + static_cast<std::size_t>(ir / MR) * kc * MR;
            v8 acc[MR][2] = {};
            for (int p = 0; p < kc; ++p) {
              v8 b0, b1;
              __builtin_memcpy(&b0, bpan + p * NR, sizeof b0);
              __builtin_memcpy(&b1, bpan + p * NR + 8, sizeof b1);
              for (int r = 0; r < MR; ++r) {
                const float x = apan[p * MR + r];
                acc[r][0] += x * b0;
                acc[r][1] += x * b1;
              }
            }
            const int rows = std::min(MR, mc - ir), cols = std::min(NR, nc - jr);
            for (int r = 0; r < rows; ++r) {
              float* out = c + static_cast<std::size_t>(ic + ir + r) * n + jc + jr;
              for (int q = 0; q < cols; ++q) {
                const float v = acc[r][q / 8][q % 8];
                out[q] = pc == 0 ? v : out[q] + v;
              }
            }
          }
        }
      }
    }
  }
}

constexpr double kMaxMatmulFlops = 1.2e12;  // 8192³ is 1.1 TFLOP

std::string instruction_set() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v3")) return "AVX2 and FMA (x86-64-v3)";
  return "SSE2 (x86-64)";
#else
  return "the compiler's generic vectors";
#endif
}

}  // namespace

std::string check_product(int m, int n, int k, const float* a, const float* b, const float* c) {
  for (int s = 0; s < 16; ++s) {
    const int i = (s * 7919) % m, j = (s * 104729 + 13) % n;
    double want = 0, scale = 0;
    for (int p = 0; p < k; ++p) {
      const double x = static_cast<double>(a[static_cast<std::size_t>(i) * k + p]) * b[static_cast<std::size_t>(p) * n + j];
      want += x;
      scale += std::fabs(x);
    }
    const double got = c[static_cast<std::size_t>(i) * n + j];
    // Written so that NaN, what C holds before the run, fails too.
    if (!(std::fabs(got - want) <= 1e-4 * scale + 1e-6))
      return fmt::format("wrong product at ({}, {}): {} instead of {}", i, j, got, want);
  }
  return "";
}

std::string check_product(int n, const float* a, const float* b, const float* c) {
  return check_product(n, n, n, a, b, c);
}

Measurement cpu_matmul(int threads, const Settings& s) {
  const int n = s.cpu_matmul_n > 0 ? s.cpu_matmul_n : 2048;
  return cpu_matmul({n, n, n}, "fp32", threads, s);
}

namespace {

std::string shape_text(const MatmulShape& sh) {
  return sh.m == sh.n && sh.n == sh.k ? fmt::format("{}³", sh.n) : fmt::format("{}×{} by {}×{}", sh.m, sh.k, sh.k, sh.n);
}

// A product too large for a probe's seconds or for the memory napkin may
// use, or one the BLAS at hand cannot run, is refused before anything is
// allocated.
void check_runnable(const MatmulShape& sh, bool bf16, const CpuBlas& blas, const Settings& s) {
  const double flops = 2.0 * sh.m * static_cast<double>(sh.n) * sh.k;
  const std::string size = shape_text(sh);
  if (flops > kMaxMatmulFlops)
    fail(codes::probe_unavailable,
         fmt::format("a {} matmul is {:.3g} TFLOP a run, past the {:.3g} TFLOP that keeps a probe within seconds", size,
                     flops / 1e12, kMaxMatmulFlops / 1e12));
  const double ak = static_cast<double>(sh.m) * sh.k, bk = static_cast<double>(sh.k) * sh.n,
               cn = static_cast<double>(sh.m) * sh.n;
  const double need = (ak + bk) * (bf16 ? 2.0 : 4.0) + (bf16 ? ak + bk + cn : cn) * 4.0;
  const MemoryBudget budget = memory_budget(s);
  if (need > static_cast<double>(budget.bytes))
    fail(codes::probe_unavailable, fmt::format("a {} matmul needs {:.3g} GB, more than the {:.3g} GB napkin may use here ({})",
                                               size, need / 1e9, budget.bytes / 1e9, budget.rule));
  if (bf16 && !blas.sbgemm)
    fail(codes::probe_unavailable,
         blas.found ? fmt::format("{} has no cblas_sbgemm (OpenBLAS has it when built with BUILD_BFLOAT16)", blas.name)
                    : fmt::format("a bf16 matmul needs a BLAS with cblas_sbgemm: {}", blas.reason));
  if (!blas.found && !(sh.m == sh.n && sh.n == sh.k))
    fail(codes::probe_unavailable, fmt::format("a {} matmul needs a BLAS (napkin's own kernel is square): {}", size, blas.reason));
}

// A and B filled from a fixed sequence, C as NaN, so a run that leaves any
// checked entry unwritten fails the check.
struct Operands {
  std::vector<float> a, b, c;
  std::vector<std::uint16_t> a16, b16;  // bf16 copies, when the product is bf16
};

Operands operands(const MatmulShape& sh, bool bf16) {
  Operands o;
  o.a.resize(static_cast<std::size_t>(sh.m) * sh.k);
  o.b.resize(static_cast<std::size_t>(sh.k) * sh.n);
  o.c.assign(static_cast<std::size_t>(sh.m) * sh.n, std::numeric_limits<float>::quiet_NaN());
  std::uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;  // uniform in [-1, 1)
  };
  for (auto& x : o.a) x = next();
  for (auto& x : o.b) x = next();
  if (bf16) {
    o.a16 = to_bf16(o.a);
    o.b16 = to_bf16(o.b);
    o.a = from_bf16(o.a16);  // the check multiplies what the kernel was given
    o.b = from_bf16(o.b16);
  }
  return o;
}

// One product, through the BLAS where there is one, else napkin's kernel
// on a team of threads; `method` says which.
struct Pass {
  std::optional<ThreadTeam> team;
  std::function<void()> run;
  std::string method;
};

void blas_pass(Pass& p, const MatmulShape& sh, bool bf16, const CpuBlas& blas, int threads, Operands& o) {
  const int m = sh.m, n = sh.n, k = sh.k;
  if (blas.set_threads) blas.set_threads(threads);
  const int used = blas.get_threads ? blas.get_threads() : threads;
  if (bf16)
    p.run = [&blas, &o, m, n, k] {
      blas.sbgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, m, n, k, 1.0f, o.a16.data(), k, o.b16.data(), n, 0.0f,
                  o.c.data(), n);
    };
  else
    p.run = [&blas, &o, m, n, k] {
      blas.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, m, n, k, 1.0f, o.a.data(), k, o.b.data(), n, 0.0f, o.c.data(),
                 n);
    };
  p.method = fmt::format("{} from {} ({}), {} row-major, {} thread{}{}, FLOPs = 2mnk",
                         bf16 ? "cblas_sbgemm (bf16 in, fp32 out)" : "cblas_sgemm", blas.name, blas.file, shape_text(sh), used,
                         used == 1 ? "" : "s", used == threads ? "" : fmt::format(" (the library's most; {} asked)", threads));
}

void own_pass(Pass& p, const MatmulShape& sh, const CpuBlas& blas, int threads, Operands& o) {
  const int n = sh.n;
  p.team.emplace(threads);
  // Whole register tiles per thread, so no two threads write one cache line of C.
  const std::size_t tiles = (static_cast<std::size_t>(n) + MR - 1) / MR;
  ThreadTeam* team = &*p.team;
  p.run = [team, &o, n, tiles] {
    team->run([&](int t) {
      auto [lo, hi] = team->share(tiles, t);
      const int r0 = static_cast<int>(lo) * MR, r1 = std::min(n, static_cast<int>(hi) * MR);
      if (r0 < r1) gemm_rows(n, o.a.data(), o.b.data(), o.c.data(), r0, r1);
    });
  };
  p.method = fmt::format("napkin's blocked fp32 kernel (6×16 tile, {}), {}, {} thread{}, FLOPs = 2mnk; {}", instruction_set(),
                         shape_text(sh), threads, threads == 1 ? "" : "s", blas.reason);
}

// The first run starts threads and warms caches, and says how many runs
// make a sample long enough for the clock: a 64³ product takes microseconds.
std::vector<double> time_passes(const std::function<void()>& pass, double flops, int samples, int& reps) {
  const auto t0 = std::chrono::steady_clock::now();
  pass();
  const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  reps = static_cast<int>(std::clamp(std::ceil(2e-3 / std::max(first, 1e-9)), 1.0, 100000.0));
  std::vector<double> rates;
  for (int r = 0; r < samples; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) pass();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
    rates.push_back(flops / std::max(sec, 1e-9));
  }
  return rates;
}

}  // namespace

Measurement cpu_matmul(const MatmulShape& shape, const std::string& dtype, int threads, const Settings& s) {
  const bool bf16 = dtype == "bf16";
  const CpuBlas& blas = cpu_blas(s.cpu_blas);
  check_runnable(shape, bf16, blas, s);
  Operands o = operands(shape, bf16);
  Pass p;
  if (blas.found) blas_pass(p, shape, bf16, blas, threads, o);
  else own_pass(p, shape, blas, threads, o);

  const double flops = 2.0 * shape.m * static_cast<double>(shape.n) * shape.k;
  int reps = 1;
  const std::vector<double> rates = time_passes(p.run, flops, std::max(3, s.cpu_runs / 2), reps);
  if (reps > 1) p.method += fmt::format("; {} products a sample", reps);
  if (std::string wrong = check_product(shape.m, shape.n, shape.k, o.a.data(), o.b.data(), o.c.data()); !wrong.empty())
    fail(codes::probe_unavailable, wrong);

  Measurement out;
  out.probe = "cpu.matmul_throughput";
  out.variant = fmt::format("dtype={},threads={}", dtype, threads);
  out.unit = "FLOP/s";
  out.device = cpu_info().device();
  summarize(out, rates);
  out.method = p.method;
  out.measured_at = utc_now();
  return out;
}

}  // namespace napkin::measure
