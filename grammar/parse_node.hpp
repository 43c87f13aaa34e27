#pragma once
// The parse tree's node, allocated from a free list. PEGTL makes a node for
// every selected rule it tries, and most tries fail (a name is first tried
// as a number, a string, a list ...), so a file of a few kilobytes costs
// tens of thousands of short-lived nodes; malloc and free were half the
// parse time.
#include <cstddef>
#include <memory>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <vector>

namespace napkin {

// Fixed-size blocks for one thread. The next file's parse reuses the blocks
// (the standard library is several files, and fresh pages cost a page fault
// each); only after a parse of a very large file are they given back.
class NodePool {
 public:
  void* take(std::size_t size) {
    ++live_;
    if (free_) {
      Free* f = free_;
      free_ = f->next;
      return f;
    }
    if (static_cast<std::size_t>(end_ - bump_) < size) grow(size);
    void* p = bump_;
    bump_ += size;
    return p;
  }

  void give(void* p) noexcept {
    auto* f = static_cast<Free*>(p);
    f->next = free_;
    free_ = f;
    if (--live_ == 0 && chunks_.size() > kKeptChunks) {
      chunks_.clear();
      free_ = nullptr;
      bump_ = end_ = nullptr;
    }
  }

  static NodePool& local() {
    static thread_local NodePool pool;
    return pool;
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  static constexpr std::size_t kKeptChunks = 16;

  void grow(std::size_t size) {
    const std::size_t bytes = size > kChunkBytes ? size : kChunkBytes;
    chunks_.push_back(std::unique_ptr<std::byte[]>(new std::byte[bytes]));  // not zeroed: pages are touched as used
    bump_ = chunks_.back().get();
    end_ = bump_ + bytes;
  }

  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  Free* free_ = nullptr;
  std::byte* bump_ = nullptr;
  std::byte* end_ = nullptr;
  std::size_t live_ = 0;
};

struct ParseNode : tao::pegtl::parse_tree::basic_node<ParseNode> {
  // User-provided, so `make_unique<ParseNode>()` does not zero the node
  // before the members' own initialisers run again.
  ParseNode() noexcept {}

  static void* operator new(std::size_t size) { return NodePool::local().take(size); }
  static void operator delete(void* p) noexcept { NodePool::local().give(p); }
};

}  // namespace napkin
