// Where expression nodes live. A file of a few kilobytes makes thousands of
// nodes and a run frees them all; malloc and free were a third of the
// parse. Nodes come from chunks that are never given back, each thread
// keeping its own free list, so taking and giving a node is a pointer swap.
// A sanitizer build uses the ordinary heap, where it can see each node.
#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "ast.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define NAPKIN_POOLED_NODES 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAPKIN_POOLED_NODES 0
#endif
#endif
#ifndef NAPKIN_POOLED_NODES
#define NAPKIN_POOLED_NODES 1
#endif

namespace napkin::ast {
namespace {

#if NAPKIN_POOLED_NODES
struct FreeNode {
  FreeNode* next;
};

// Every chunk, for the life of the process: a node may be freed on another
// thread, or after the thread that made it has ended.
struct Chunks {
  std::mutex lock;
  std::vector<std::unique_ptr<std::byte[]>> list;
};
Chunks& chunks() {
  static Chunks* c = new Chunks;
  return *c;
}

constexpr std::size_t kNodesPerChunk = 512;

thread_local FreeNode* free_nodes = nullptr;
thread_local std::byte* fresh = nullptr;
thread_local std::byte* fresh_end = nullptr;

void refill() {
  // Not zeroed (no make_unique): a page is touched when a node is first made on it.
  std::unique_ptr<std::byte[]> chunk(new std::byte[kNodesPerChunk * sizeof(Expr)]);
  fresh = chunk.get();
  fresh_end = fresh + kNodesPerChunk * sizeof(Expr);
  Chunks& c = chunks();
  const std::lock_guard<std::mutex> hold(c.lock);
  c.list.push_back(std::move(chunk));
}
#endif

}  // namespace

void* Expr::operator new(std::size_t size) {
#if NAPKIN_POOLED_NODES
  if (size == sizeof(Expr)) {
    if (FreeNode* n = free_nodes) {
      free_nodes = n->next;
      return n;
    }
    if (fresh == fresh_end) refill();
    void* p = fresh;
    fresh += sizeof(Expr);
    return p;
  }
#endif
  return ::operator new(size);
}

void Expr::operator delete(void* p, std::size_t size) noexcept {
#if NAPKIN_POOLED_NODES
  if (size == sizeof(Expr)) {
    auto* n = static_cast<FreeNode*>(p);
    n->next = free_nodes;
    free_nodes = n;
    return;
  }
#endif
  ::operator delete(p);
}

}  // namespace napkin::ast
