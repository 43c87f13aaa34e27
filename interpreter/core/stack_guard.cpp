#include "stack_guard.hpp"

#include <limits>

#include "platform/stack_low.hpp"

namespace napkin {

namespace {

// The lowest address of this thread's stack (stacks grow down on every
// platform napkin builds for), found once per thread.
std::uintptr_t stack_low() {
  thread_local const std::uintptr_t low = platform::thread_stack_low();
  return low;
}

}  // namespace

std::uintptr_t stack_bottom() { return stack_low(); }

std::size_t stack_left() {
  const std::uintptr_t low = stack_low();
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (low == 0 || here < low) return std::numeric_limits<std::size_t>::max();
  return here - low;
}

}  // namespace napkin
