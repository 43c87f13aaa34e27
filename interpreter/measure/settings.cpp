#include "settings.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdlib>

#include "cpu_info.hpp"

namespace napkin::measure {

Settings Settings::from_environment() {
  Settings s;
  if (const char* v = std::getenv("NAPKIN_CPU_ARRAY_MIB"); v && std::atoll(v) > 0)
    s.cpu_array_bytes = static_cast<std::size_t>(std::atoll(v)) << 20;
  if (const char* v = std::getenv("NAPKIN_CPU_MATMUL_N"); v && std::atoi(v) > 0) s.cpu_matmul_n = std::atoi(v);
  if (const char* v = std::getenv("NAPKIN_CPU_BLAS")) s.cpu_blas = v;
  if (const char* v = std::getenv("NAPKIN_MEASURE_MEMORY_MIB"); v && std::atoll(v) > 0)
    s.memory_bytes = static_cast<std::size_t>(std::atoll(v)) << 20;
  return s;
}

}  // namespace napkin::measure

namespace napkin::measure {

MemoryBudget memory_budget(const Settings& s) {
  if (s.memory_bytes) return {s.memory_bytes, "NAPKIN_MEASURE_MEMORY_MIB"};
  const std::size_t available = cpu_info().available_bytes;
  MemoryBudget b{available / 2, fmt::format("half of the {:.1f} GB available", available / 1e9)};
  if (available == 0) b = {std::size_t{1} << 30, "1 GiB, the available memory being unknown"};
  rlimit r{};
  // Half the address space: napkin and its libraries need the rest.
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur / 2 < b.bytes)
    b = {static_cast<std::size_t>(r.rlim_cur / 2), fmt::format("half of the {:.1f} GB address-space limit", r.rlim_cur / 1e9)};
  return b;
}

}  // namespace napkin::measure
