#pragma once
// fp32 matmul throughput on the CPU: cblas_sgemm from OpenBLAS, opened only
// when the probe runs, or napkin's own blocked kernel (packed panels, a 6×16
// register tile) where no BLAS is installed. CPU figures depend on the
// implementation more than on the chip, so the provenance names the library
// (and its version) or the kernel and the instruction set it ran with.
#include <string>

#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

// C (m×n) = A (m×k) · B (k×n).
struct MatmulShape {
  int m = 0, n = 0, k = 0;
};

// Throws napkin::Error when the product is wrong, or with the reason it
// cannot run (too big for the memory budget or for seconds, bf16 without a
// BLAS that has it). `dtype`: fp32, or bf16 through cblas_sbgemm.
Measurement cpu_matmul(const MatmulShape& shape, const std::string& dtype, int threads, const Settings& s);
// Square, at Settings::cpu_matmul_n (2048 when 0), fp32.
Measurement cpu_matmul(int threads, const Settings& s);

// Sampled entries of C = A·B (row-major) against a double-precision sum:
// "" when they agree, else what is wrong. NaN never agrees.
std::string check_product(int m, int n, int k, const float* a, const float* b, const float* c);
std::string check_product(int n, const float* a, const float* b, const float* c);

}  // namespace napkin::measure
