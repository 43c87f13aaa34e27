// The stack's lowest address on Linux (and other POSIX systems with
// pthread_getattr_np): see platform/stack_low.hpp.
#include "stack_low.hpp"

#include <pthread.h>
#include <sys/resource.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <sys/auxv.h>

#include <cstring>
#endif

namespace napkin::platform {

namespace {

#if defined(__linux__) && defined(__GLIBC__)
// The main thread's lowest address without reading /proc/self/maps, which
// pthread_getattr_np does for the main thread: about 200 µs of an 8 ms run
// on a virtual machine. The kernel copies the program's file name first to
// the very top of the stack, ending one pointer below it, and the stack may
// grow to the soft limit, in whole pages, below that top: the same bound
// glibc finds in /proc/self/maps. 0 (ask glibc) for another thread, an
// unlimited stack, or one over 64 MiB: the kernel keeps other mappings at
// least 128 MiB below the stack's top, so a limit raised after start-up up
// to 64 MiB cannot reach them, where a larger one might.
std::uintptr_t main_stack_low(std::uintptr_t here) {
  rlimit lim{};
  if (getrlimit(RLIMIT_STACK, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return 0;
  const auto* file = reinterpret_cast<const char*>(getauxval(AT_EXECFN));
  if (!file) return 0;
  const std::uintptr_t page = getauxval(AT_PAGESZ);
  if (page == 0 || (page & (page - 1)) != 0) return 0;
  const auto end = reinterpret_cast<std::uintptr_t>(file) + std::strlen(file) + 1 + sizeof(void*);
  const std::uintptr_t top = (end + page - 1) & ~(page - 1);
  const std::uintptr_t limit = lim.rlim_cur & ~(page - 1);
  if (limit > (std::uintptr_t{64} << 20) || limit >= top) return 0;
  const std::uintptr_t low = top - limit;
  // Another thread's stack is mapped elsewhere, never within the main
  // stack's reach.
  return here > low && here < top ? low : 0;
}
#endif

}  // namespace

std::uintptr_t thread_stack_low() {
  std::uintptr_t found = 0;
#if defined(__linux__) && defined(__GLIBC__)
  found = main_stack_low(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
  if (found) return found;
#endif
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
}

}  // namespace napkin::platform
