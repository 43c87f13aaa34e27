#include <memory>
#include <vector>

#include "guarded.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define NAPKIN_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAPKIN_ASAN_BUILD 1
#endif
#endif

namespace napkin::cli {

void leave_for_exit(std::vector<std::unique_ptr<Interpreter>> ins) {
#ifndef NAPKIN_ASAN_BUILD
  static std::vector<Interpreter*> kept;  // still reachable at exit: not a leak to a checker
  for (Interpreter* in : kept) delete in;  // a second command in one process: the first's are done with
  kept.clear();
  for (auto& in : ins) kept.push_back(in.release());
#else
  ins.clear();
#endif
}

void leave_for_exit(std::unique_ptr<Interpreter> in) {
  std::vector<std::unique_ptr<Interpreter>> one;
  one.push_back(std::move(in));
  leave_for_exit(std::move(one));
}

}  // namespace napkin::cli
