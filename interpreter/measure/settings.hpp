#pragma once
// How big and how long the probes run. The defaults follow the published
// methods (STREAM's array rule, cuBLAS at 4096³ and 8192³); smaller figures
// make a quick, less faithful run, and the provenance says which was used.
#include <cstddef>

namespace napkin::measure {

struct Settings {
  std::size_t cpu_array_bytes = 0;  // per STREAM array; 0: max(4 × last-level cache, 1 GiB)
  int cpu_matmul_n = 0;             // the square matmul's size; 0: 2048
  int cpu_runs = 11;                // STREAM runs, the first dropped as a warm-up

  // NAPKIN_CPU_ARRAY_MIB and NAPKIN_CPU_MATMUL_N override the defaults.
  static Settings from_environment();
};

}  // namespace napkin::measure
