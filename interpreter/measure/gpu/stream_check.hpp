#pragma once
// What the STREAM buffers hold and how their results are checked, in plain
// C++ with no CUDA header, so the checks run (and are tested) on the host of
// any machine; the kernels share the fill pattern through kernels.cuh.
#include <cstddef>
#include <cstdio>
#include <string>

#if defined(__CUDACC__)
#define NAPKIN_HOST_DEVICE __host__ __device__
#else
#define NAPKIN_HOST_DEVICE
#endif

namespace napkin::gpu::verify {

// a (and b for triad) at element i, counted in doubles.
NAPKIN_HOST_DEVICE inline double stream_pattern(std::size_t i) { return 1.0 + static_cast<double>(i % 1024); }

// Copy's destination before the first launch: never a value of the pattern,
// so a kernel that copies nothing is caught.
constexpr double kCopyDestination = -1.0;
// Triad's c, and so its a after a pass: b + 3·c.
constexpr double kTriadScalar = 3.0, kTriadC = 0.5;

inline std::string wrong(const char* kernel, std::size_t at, double got, double want) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "the %s kernel wrote wrong data: element %zu is %.17g instead of %.17g", kernel, at,
                got, want);
  return buf;
}

// got[k] was read back from element at[k] of the array the kernel wrote;
// "" when every one is what the kernel must have written.
inline std::string copy(const double* got, const std::size_t* at, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k)
    if (got[k] != stream_pattern(at[k])) return wrong("copy", at[k], got[k], stream_pattern(at[k]));
  return count ? "" : "the copy check read nothing back";
}

inline std::string triad(const double* got, const std::size_t* at, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) {
    const double want = stream_pattern(at[k]) + kTriadScalar * kTriadC;
    if (got[k] != want) return wrong("triad", at[k], got[k], want);
  }
  return count ? "" : "the triad check read nothing back";
}

// The sum of the pattern over `elements` doubles: whole numbers far below
// 2^53, so any order of addition gives it exactly.
inline double read_sum(std::size_t elements) {
  const std::size_t whole = elements / 1024, rest = elements % 1024;
  return static_cast<double>(whole) * (1024.0 * 1025.0 / 2) + static_cast<double>(rest) * (rest + 1) / 2.0;
}

inline std::string read(double got, std::size_t elements) {
  const double want = read_sum(elements);
  if (got == want) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "the read kernel summed %.17g instead of %.17g", got, want);
  return buf;
}

}  // namespace napkin::gpu::verify
