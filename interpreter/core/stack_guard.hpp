#pragma once
// How much stack the calling thread has left. Evaluation recursion has a
// fixed depth limit, but a frame's size depends on the build (a sanitizer's
// frames are several times larger) and a thread's stack on where it runs;
// checking what is left turns the rest into an error instead of a crash.
#include <cstddef>
#include <cstdint>

namespace napkin {

// Bytes between the current frame and the end of this thread's stack, or a
// very large number where the platform cannot say.
std::size_t stack_left();
// The lowest address this thread's stack may grow to, as stack_left counts
// it (0 where the platform cannot say).
std::uintptr_t stack_bottom();

// What evaluation keeps free for the work below its last check: builtins,
// formatting a diagnostic, unwinding.
inline constexpr std::size_t kStackReserve = 1u << 20;

}  // namespace napkin
