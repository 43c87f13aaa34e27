#pragma once
// The start of the `napkin` process's heap on one transparent huge page.

namespace napkin::cli {

// Called first thing in main, before the heap is used in earnest. It also
// fixes glibc's allocator settings (heap_pages.cpp says which), huge page or
// not. Not Linux with glibc, or a sanitizer's allocator: it does nothing. A
// kernel that offers no transparent huge pages ignores the advice; the heap
// then costs 2 MiB more address space (never touched) and nothing else.
// NAPKIN_SMALL_PAGES=1 leaves the huge page out, to measure what it buys.
void heap_on_huge_page();

}  // namespace napkin::cli
