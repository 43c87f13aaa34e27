#pragma once
// A tuned BLAS for the CPU matmul probe, opened with dlopen only when that
// probe runs (as the GPU module is), so napkin neither links nor loads it
// at start-up. OpenBLAS from Debian (libopenblas0-pthread) is the one
// looked for; without it the probe falls back to napkin's own kernel.
#include <string>

namespace napkin::measure {

// CBLAS's enumerations, as the library's ABI passes them.
enum : int { kCblasRowMajor = 101, kCblasNoTrans = 111, kCblasTrans = 112 };

struct CpuBlas {
  bool found = false;
  std::string name;    // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Cooperlake MAX_THREADS=64"
  std::string file;    // what was opened: "libopenblas.so.0"
  std::string reason;  // why none was found

  using Sgemm = void (*)(int order, int transa, int transb, int m, int n, int k, float alpha, const float* a, int lda,
                         const float* b, int ldb, float beta, float* c, int ldc);
  Sgemm sgemm = nullptr;
  // bf16 inputs (as their 16 bits), fp32 output: OpenBLAS built with
  // BUILD_BFLOAT16 has it; Debian's 0.3.21 does not. Null when absent.
  using Sbgemm = void (*)(int order, int transa, int transb, int m, int n, int k, float alpha, const unsigned short* a,
                          int lda, const unsigned short* b, int ldb, float beta, float* c, int ldc);
  Sbgemm sbgemm = nullptr;
  void (*set_threads)(int) = nullptr;  // null when the library has no such call
  int (*get_threads)() = nullptr;
};

// `choice` is Settings::cpu_blas: "" looks for OpenBLAS, "none" loads no
// library, anything else is a path. Opened once per choice per process.
const CpuBlas& cpu_blas(const std::string& choice);

}  // namespace napkin::measure
