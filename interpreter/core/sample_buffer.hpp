#pragma once
// Where a range's samples live. Two costs dominate a file of million-sample
// ranges, and neither is arithmetic: zero-filling a buffer that is about to
// be overwritten, and the first touch of each 4 KiB page (on a virtual
// machine a fault costs microseconds; 40,000,000 samples are 80,000 of
// them). So a buffer's elements are left uninitialised until written, and a
// buffer of 2 MiB or more is aligned to 2 MiB and offered to the kernel for
// transparent huge pages, which fault 512 small pages in at once where the
// kernel allows it (`madvise` mode) and change nothing where it does not;
// the last few such buffers freed are kept for the next of their size.
#include <cstddef>
#include <new>
#include <vector>

namespace napkin {

namespace sample_memory {
void* allocate(std::size_t bytes);
void release(void* p, std::size_t bytes) noexcept;
}  // namespace sample_memory

template <class T>
struct SampleAllocator {
  using value_type = T;
  SampleAllocator() = default;
  template <class U>
  SampleAllocator(const SampleAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) { return static_cast<T*>(sample_memory::allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { sample_memory::release(p, n * sizeof(T)); }
  // `SampleVector(n)` leaves its doubles unwritten: every caller fills them.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(static_cast<Args&&>(args)...);
  }
  friend bool operator==(const SampleAllocator&, const SampleAllocator&) { return true; }
};

// Its elements are not initialised: `SampleVector(n)` and `resize(n)` give
// doubles that must be written before they are read.
using SampleVector = std::vector<double, SampleAllocator<double>>;

}  // namespace napkin
