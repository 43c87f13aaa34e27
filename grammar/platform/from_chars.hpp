#pragma once
// std::from_chars for a double, or the same contract over strtod where the
// standard library has no floating-point from_chars (libc++ 13, emscripten
// 3.1.6's, for the WebAssembly build). The fallback accepts and rejects what
// from_chars does, so both builds read the same text the same way: no
// leading space or '+', no hexadecimal ("0x1p3" reads as 0, stopping at
// 'x'), the C locale's '.', and out of range only for a value that overflows
// or underflows to zero (the value is then left as it was). It is compiled
// everywhere, so that a native test holds it to from_chars.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

namespace napkin {

inline std::from_chars_result from_chars_strtod(const char* first, const char* last, double& value) {
  const char* p = first;
  if (p != last && *p == '-') ++p;
  if (p == last || *p == ' ' || *p == '+' || (*p >= '\t' && *p <= '\r')) return {first, std::errc::invalid_argument};
  std::string text(first, last);
  if (last - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) text.resize(static_cast<std::size_t>(p - first) + 1);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  const char* stop = first + (end - text.c_str());
  if (errno == ERANGE && (std::isinf(v) || v == 0)) return {stop, std::errc::result_out_of_range};
  value = v;
  return {stop, std::errc{}};
}

inline std::from_chars_result from_chars_double(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars)
  return std::from_chars(first, last, value);
#else
  return from_chars_strtod(first, last, value);
#endif
}

}  // namespace napkin
