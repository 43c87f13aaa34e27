#pragma once
// How big and how long the probes run. The defaults follow the published
// methods (STREAM's array rule, cuBLAS at 4096³ and 8192³); smaller figures
// make a quick, less faithful run, and the provenance says which was used.
#include <cstddef>
#include <string>

namespace napkin::measure {

struct Settings {
  std::size_t cpu_array_bytes = 0;  // per STREAM array; 0: max(4 × last-level cache, 1 GiB)
  int cpu_matmul_n = 0;             // the square matmul's size; 0: 2048
  int cpu_runs = 11;                // STREAM runs, the first dropped as a warm-up
  std::string cpu_blas;             // the CPU matmul's library: "" OpenBLAS, "none" napkin's kernel, or a path
  std::size_t memory_bytes = 0;     // what a probe's buffers may take; 0: memory_budget()'s rule

  // NAPKIN_CPU_ARRAY_MIB, NAPKIN_CPU_MATMUL_N, NAPKIN_CPU_BLAS and
  // NAPKIN_MEASURE_MEMORY_MIB override the defaults.
  static Settings from_environment();
};

}  // namespace napkin::measure

namespace napkin::measure {

// The bytes a probe's buffers may take, and why that many: the setting,
// else half of MemAvailable, less if the address-space limit is lower. A
// probe that needs more says so instead of swapping or being killed.
struct MemoryBudget {
  std::size_t bytes = 0;
  std::string rule;  // "half of the 23.1 GB available"
};
MemoryBudget memory_budget(const Settings& s);

}  // namespace napkin::measure
