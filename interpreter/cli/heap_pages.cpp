// Why: a run of a typical file touches about 1.2 MB of fresh heap, and the
// first touch of each 4 KiB page is a fault the kernel must serve. On the
// virtual machines napkin is run and tested on, a fault costs 10–15 µs: 300
// of them were 4 ms of a 10 ms run, more than parsing, evaluating and
// printing together (bench/README.md, "Round four"). One 2 MiB transparent
// huge page takes the place of those 300 faults.
//
// How: glibc's heap grows by moving the program break, and a huge page is
// only given to a 2 MiB-aligned range that has no small page in it yet, so
// that range must be advised before anything is written there. The break is
// first moved, by napkin, to one page short of the next 2 MiB boundary (the
// gap is address space only, never touched). glibc, growing its heap next,
// finds the break moved and starts its new top there, writing its
// bookkeeping into that last small page; the aligned 2 MiB after it is
// advised MADV_HUGEPAGE before any allocation reaches it. Everything else
// is glibc's ordinary heap: past the first 2 MiB it grows in small pages.
#include "heap_pages.hpp"

#include <cstdint>
#include <cstdlib>  // and with it <features.h>, which says whether this is glibc
#include <string_view>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NAPKIN_OWN_HEAP_LAYOUT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NAPKIN_OWN_HEAP_LAYOUT 0
#endif
#endif
#if !defined(NAPKIN_OWN_HEAP_LAYOUT) && defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
#define NAPKIN_OWN_HEAP_LAYOUT 1
#endif

namespace napkin::cli {

#if NAPKIN_OWN_HEAP_LAYOUT

namespace {

constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
constexpr std::uintptr_t kPage = 4096;

// What the allocator is left with, whether or not the huge page was set up.
// Setting M_TOP_PAD turns off glibc's moving mmap threshold, so the state
// that threshold reaches on a 64-bit system is set outright: blocks under
// 32 MiB come from the heap, and its top is given back past 64 MiB free
// (mallopt(3); the top pad is glibc's default). The environment's
// MALLOC_*_ settings are overridden: this is the one layout napkin is
// measured and tested with.
constexpr int kTopPad = 128 << 10;
constexpr int kMmapThreshold = 32 << 20;
constexpr int kTrimThreshold = 64 << 20;

void settle() {
  mallopt(M_TOP_PAD, kTopPad);
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}

bool small_pages_asked() {
  const char* env = std::getenv("NAPKIN_SMALL_PAGES");
  return env && *env && std::string_view(env) != "0";
}

void place_heap() {
  // glibc's top shrunk to under a page, so that the next allocation of a
  // few kilobytes must grow the heap.
  mallopt(M_TOP_PAD, 0);
  malloc_trim(0);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // At least a page away, so that glibc sees the break moved.
  const std::uintptr_t boundary = (end + 2 * kPage + kHuge - 1) & ~(kHuge - 1);
  if (sbrk(static_cast<intptr_t>(boundary - kPage - end)) == reinterpret_cast<void*>(-1)) return;
  // The growth: 2 MiB and two pages past the page before the boundary. Small
  // blocks are taken until one comes from the new top (the first few may
  // come from what is left of the old top, or from blocks freed earlier).
  mallopt(M_TOP_PAD, static_cast<int>(kHuge + 2 * kPage));
  void* taken[64];
  int n = 0;
  bool grown = false;
  while (n < 64 && !grown) {
    void* p = std::malloc(2000);
    if (!p) break;
    taken[n++] = p;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    grown = at >= boundary - kPage && at < boundary;
  }
  // Advised only where glibc did as described, and the heap reaches past
  // the huge page (under valgrind, say, its growth does not start there).
  if (grown && reinterpret_cast<std::uintptr_t>(sbrk(0)) >= boundary + kHuge)
    (void)madvise(reinterpret_cast<void*>(boundary), kHuge, MADV_HUGEPAGE);
  while (n > 0) std::free(taken[--n]);
}

}  // namespace

void heap_on_huge_page() {
  if (!small_pages_asked()) place_heap();
  settle();
}

#else

void heap_on_huge_page() {}

#endif

}  // namespace napkin::cli
