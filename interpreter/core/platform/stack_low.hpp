#pragma once
// The lowest address the calling thread's stack may grow to, or 0 where the
// platform cannot say; stack_guard.cpp asks once per thread. One source file
// per platform, chosen by the build (interpreter/CMakeLists.txt):
// stack_low_posix.cpp (Linux: the kernel's and glibc's bounds) and
// stack_low_emscripten.cpp (WebAssembly: emscripten's stack in linear memory).
#include <cstdint>

namespace napkin::platform {

std::uintptr_t thread_stack_low();

}  // namespace napkin::platform
