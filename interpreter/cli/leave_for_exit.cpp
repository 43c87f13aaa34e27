#include <memory>

#include "guarded.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define NAPKIN_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAPKIN_ASAN_BUILD 1
#endif
#endif

namespace napkin::cli {

void leave_for_exit(std::unique_ptr<Interpreter> in) {
#ifndef NAPKIN_ASAN_BUILD
  static Interpreter* kept = nullptr;  // still reachable at exit: not a leak to a checker
  delete kept;                         // a second command in one process: the first's is done with
  kept = in.release();
#else
  in.reset();
#endif
}

}  // namespace napkin::cli
