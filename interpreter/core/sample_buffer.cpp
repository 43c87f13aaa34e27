#include "sample_buffer.hpp"

#include <array>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define NAPKIN_KEEP_SAMPLE_BUFFERS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAPKIN_KEEP_SAMPLE_BUFFERS 0
#endif
#endif
#ifndef NAPKIN_KEEP_SAMPLE_BUFFERS
#define NAPKIN_KEEP_SAMPLE_BUFFERS 1
#endif

namespace napkin::sample_memory {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t whole_pages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

#if NAPKIN_KEEP_SAMPLE_BUFFERS
// A few large buffers freed last, kept for the next of the same size: a
// formula over ranges makes and drops a temporary at every operation, and
// a new buffer is fresh pages the kernel must fault in and clear (most of
// the time of a file of million-sample ranges). At most 4 buffers of at
// most 16 MiB each are kept, 64 MiB in all. The sanitizer build frees each
// at once, so that a use after free is still seen.
struct Kept {
  std::mutex lock;
  std::array<void*, 4> buffer{};
  std::array<std::size_t, 4> bytes{};
};
constexpr std::size_t kKeepAtMost = std::size_t{16} << 20;

Kept& kept() {
  static Kept* k = new Kept;  // never destroyed: buffers may be freed during exit
  return *k;
}
#endif

}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes < kHugePage) return ::operator new(bytes);
  const std::size_t rounded = whole_pages(bytes);
#if NAPKIN_KEEP_SAMPLE_BUFFERS
  {
    Kept& k = kept();
    std::lock_guard<std::mutex> hold(k.lock);
    for (std::size_t i = 0; i < k.buffer.size(); ++i)
      if (k.buffer[i] && k.bytes[i] == rounded) {
        void* p = k.buffer[i];
        k.buffer[i] = nullptr;
        return p;
      }
  }
#endif
  void* p = nullptr;
  try {
    p = ::operator new(rounded, std::align_val_t{kHugePage});
  } catch (const std::bad_alloc&) {
#if NAPKIN_KEEP_SAMPLE_BUFFERS
    // Memory is short (a `ulimit -v`): the buffers kept for reuse go first.
    {
      Kept& k = kept();
      std::lock_guard<std::mutex> hold(k.lock);
      for (std::size_t i = 0; i < k.buffer.size(); ++i)
        if (k.buffer[i]) {
          ::operator delete(k.buffer[i], k.bytes[i], std::align_val_t{kHugePage});
          k.buffer[i] = nullptr;
        }
    }
    p = ::operator new(rounded, std::align_val_t{kHugePage});
#else
    throw;
#endif
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: refused (no THP in this kernel), the buffer is the same, in
  // small pages.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

void release(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugePage) {
    ::operator delete(p, bytes);
    return;
  }
  const std::size_t rounded = whole_pages(bytes);
#if NAPKIN_KEEP_SAMPLE_BUFFERS
  if (rounded <= kKeepAtMost) {
    Kept& k = kept();
    std::lock_guard<std::mutex> hold(k.lock);
    for (std::size_t i = 0; i < k.buffer.size(); ++i)
      if (!k.buffer[i]) {
        k.buffer[i] = p;
        k.bytes[i] = rounded;
        return;
      }
  }
#endif
  ::operator delete(p, rounded, std::align_val_t{kHugePage});
}

}  // namespace napkin::sample_memory
