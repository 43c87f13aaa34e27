#include "settings.hpp"

#include <cstdlib>

namespace napkin::measure {

Settings Settings::from_environment() {
  Settings s;
  if (const char* v = std::getenv("NAPKIN_CPU_ARRAY_MIB"); v && std::atoll(v) > 0)
    s.cpu_array_bytes = static_cast<std::size_t>(std::atoll(v)) << 20;
  if (const char* v = std::getenv("NAPKIN_CPU_MATMUL_N"); v && std::atoi(v) > 0) s.cpu_matmul_n = std::atoi(v);
  if (const char* v = std::getenv("NAPKIN_CPU_BLAS")) s.cpu_blas = v;
  return s;
}

}  // namespace napkin::measure
