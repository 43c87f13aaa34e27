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

// Throws napkin::Error when the product is wrong.
Measurement cpu_matmul(int threads, const Settings& s);

// Sampled entries of C = A·B (n×n, row-major) against a double-precision
// sum: "" when they agree, else what is wrong. NaN never agrees.
std::string check_product(int n, const float* a, const float* b, const float* c);

}  // namespace napkin::measure
