#pragma once
// The start of the `napkin` process's heap on one transparent huge page.

namespace napkin::cli {

// Called first thing in main, before the heap is used in earnest. Not Linux
// with glibc, or a sanitizer's allocator: it does nothing. A kernel that
// offers no transparent huge pages ignores the advice, and the heap is as
// it would have been but for 2 MiB of address space never touched.
// NAPKIN_SMALL_PAGES=1 in the environment turns it off.
void heap_on_huge_page();

}  // namespace napkin::cli
