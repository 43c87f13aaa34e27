#pragma once
// bfloat16 as CBLAS's sbgemm takes it: the upper 16 bits of an fp32, rounded
// to nearest even. The CPU probes keep their fp32 copy of what they rounded,
// so their checks multiply exactly what the kernel was given.
#include <cstdint>
#include <cstring>
#include <vector>

namespace napkin::measure {

inline std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  u += 0x7fff + ((u >> 16) & 1);  // finite inputs only: the probes' values lie in [-1, 1)
  return static_cast<std::uint16_t>(u >> 16);
}

inline float from_bf16(std::uint16_t h) {
  const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline std::vector<std::uint16_t> to_bf16(const std::vector<float>& v) {
  std::vector<std::uint16_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_bf16(v[i]);
  return out;
}

inline std::vector<float> from_bf16(const std::vector<std::uint16_t>& v) {
  std::vector<float> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = from_bf16(v[i]);
  return out;
}

}  // namespace napkin::measure
