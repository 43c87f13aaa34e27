// The tables behind a value's display unit and note. Both hold few entries
// (one per unit written after `->`, one per measurement's provenance), so
// they are kept for the process's life and never searched by content again
// once a value holds the pointer.
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_set>

#include "value.hpp"

namespace napkin {

namespace {

struct DisplayKey {
  std::string_view text;
  double scale;
};

struct DisplayHash {
  using is_transparent = void;
  std::size_t operator()(const DisplayKey& k) const {
    const double scale = k.scale == 0 ? 0.0 : k.scale;  // -0 and +0 are equal, so hash alike
    std::uint64_t bits = 0;
    std::memcpy(&bits, &scale, sizeof bits);
    return std::hash<std::string_view>{}(k.text) ^ (bits * 0x9E3779B97F4A7C15ULL);
  }
  std::size_t operator()(const DisplayUnit& d) const { return (*this)(DisplayKey{d.text, d.scale}); }
};

struct DisplayEq {
  using is_transparent = void;
  static DisplayKey key(const DisplayUnit& d) { return {d.text, d.scale}; }
  static DisplayKey key(const DisplayKey& k) { return k; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    const DisplayKey x = key(a), y = key(b);
    return x.text == y.text && x.scale == y.scale;
  }
};

struct NoteHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct Tables {
  std::mutex lock;
  // Elements of an unordered_set keep their addresses when it grows.
  std::unordered_set<DisplayUnit, DisplayHash, DisplayEq> displays;
  std::unordered_set<std::string, NoteHash, std::equal_to<>> notes;
};

Tables& tables() {
  static Tables* t = new Tables;  // never destroyed: values may outlive static destruction
  return *t;
}

}  // namespace

const DisplayUnit* intern_display(std::string_view text, double scale) {
  Tables& t = tables();
  std::lock_guard<std::mutex> hold(t.lock);
  const DisplayKey key{text, scale};
  if (auto it = t.displays.find(key); it != t.displays.end()) return &*it;
  return &*t.displays.insert(DisplayUnit{std::string(text), scale}).first;
}

const std::string* intern_note(std::string_view note) {
  Tables& t = tables();
  std::lock_guard<std::mutex> hold(t.lock);
  if (auto it = t.notes.find(note); it != t.notes.end()) return &*it;
  return &*t.notes.emplace(note).first;
}

}  // namespace napkin
static_assert(sizeof(napkin::Value) <= 96, "a value is at most 96 bytes: see value.hpp");
