#pragma once
// Runtime values. Records, lists and functions live in the interpreter's
// arena and are referred to by pointer; a value is cheap to copy.
#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dimension.hpp"

namespace napkin {

struct Record;
struct Function;
struct Samples;

// How a quantity should be shown when the user asked (`x -> GiB`).
struct DisplayUnit {
  std::string text;
  double scale = 1;
};

// Display units and notes are interned: one copy of each, kept for the
// process's life, so a value holds a plain pointer (nothing to count when
// it is copied) and two are the same exactly when their pointers are.
const DisplayUnit* intern_display(std::string_view text, double scale);
const std::string* intern_note(std::string_view note);

struct Quantity {
  double v = 0;
  Dim dim;
};

struct Value;

// A string's text or a list's items: what a copy of such a value shares.
struct ValueData;

// 96 bytes. A plain number's copy touches no reference count: its display
// unit and note are interned pointers, and the two counted parts (a
// string's or list's data, a range's samples) are empty.
struct Value {
  enum class Kind : std::uint8_t { Quantity, Bool, String, Record, List, Function };
  Kind kind = Kind::Quantity;
  bool b = false;
  Quantity q;
  Record* rec = nullptr;
  const Function* fn = nullptr;
  const DisplayUnit* display = nullptr;  // interned
  // How a measured value came to be: "measured: ..." or "fallback: ..."
  // (interned).
  const std::string* note = nullptr;
  std::shared_ptr<const ValueData> data;  // kind String or List
  // A range (samples.hpp): the quantity's samples, one dimension `q.dim`.
  // `q.v` is then the formula evaluated at every range's median, what code
  // that knows nothing of ranges sees; what is shown is the samples' median.
  std::shared_ptr<const Samples> samples;

  // The text of a String, the items of a List; `kind` must be that kind.
  const std::string& str() const;
  const std::vector<Value>& items() const;

  static Value quantity(double v, Dim d = {}) {
    Value x;
    x.q = {v, d};
    return x;
  }
  static Value boolean(bool b) {
    Value x;
    x.kind = Kind::Bool;
    x.b = b;
    return x;
  }
  static Value string(std::string s);
  static Value record(Record* r) {
    Value x;
    x.kind = Kind::Record;
    x.rec = r;
    return x;
  }
  static Value make_list(std::vector<Value> items);
  static Value function(const Function* f) {
    Value x;
    x.kind = Kind::Function;
    x.fn = f;
    return x;
  }
};

struct ValueData {
  std::string text;
  std::vector<Value> items;
};

inline const std::string& Value::str() const {
  assert(kind == Kind::String && data);
  return data->text;
}
inline const std::vector<Value>& Value::items() const {
  assert(kind == Kind::List && data);
  return data->items;
}

inline Value Value::string(std::string s) {
  Value x;
  x.kind = Kind::String;
  x.data = std::make_shared<const ValueData>(ValueData{std::move(s), {}});
  return x;
}

inline Value Value::make_list(std::vector<Value> items) {
  Value x;
  x.kind = Kind::List;
  x.data = std::make_shared<const ValueData>(ValueData{{}, std::move(items)});
  return x;
}

const char* kind_name(Value::Kind k);
std::string describe_kind(const Value& v);  // "a number", "a record", ...: for messages

}  // namespace napkin
