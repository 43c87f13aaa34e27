#pragma once
// fp32 matmul throughput on the CPU with napkin's own blocked kernel (packed
// panels, a 6×16 register tile). CPU figures depend on the implementation
// more than on the chip, so the provenance names it and the instruction set
// it ran with; a tuned BLAS would do better.
#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

// Throws std::runtime_error when the product is wrong.
Measurement cpu_matmul(int threads, const Settings& s);

}  // namespace napkin::measure
