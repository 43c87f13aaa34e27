#include "stack_guard.hpp"

#include <pthread.h>

#include <cstdint>
#include <limits>

namespace napkin {

namespace {

// The lowest address of this thread's stack (stacks grow down on every
// platform napkin builds for), found once per thread.
std::uintptr_t stack_low() {
  thread_local std::uintptr_t low = [] {
    std::uintptr_t found = 0;
#if defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) found = reinterpret_cast<std::uintptr_t>(addr);
      pthread_attr_destroy(&attr);
    }
#endif
    return found;
  }();
  return low;
}

}  // namespace

std::size_t stack_left() {
  const std::uintptr_t low = stack_low();
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (low == 0 || here < low) return std::numeric_limits<std::size_t>::max();
  return here - low;
}

}  // namespace napkin
