#pragma once
// Runtime values. Records, lists and functions live in the interpreter's
// arena and are referred to by pointer; a value is cheap to copy.
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

struct Value {
  enum class Kind { Quantity, Bool, String, Record, List, Function };
  Kind kind = Kind::Quantity;
  Quantity q;
  bool b = false;
  std::shared_ptr<const std::string> s;
  Record* rec = nullptr;
  std::shared_ptr<const std::vector<Value>> list;
  const Function* fn = nullptr;
  const DisplayUnit* display = nullptr;  // interned
  // How a measured value came to be: "measured: ..." or "fallback: ..."
  // (interned).
  const std::string* note = nullptr;
  // A range (samples.hpp): the quantity's samples, one dimension `q.dim`.
  // `q.v` is then the formula evaluated at every range's median, what code
  // that knows nothing of ranges sees; what is shown is the samples' median.
  std::shared_ptr<const Samples> samples;

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
  static Value string(std::string s) {
    Value x;
    x.kind = Kind::String;
    x.s = std::make_shared<const std::string>(std::move(s));
    return x;
  }
  static Value record(Record* r) {
    Value x;
    x.kind = Kind::Record;
    x.rec = r;
    return x;
  }
  static Value make_list(std::vector<Value> items) {
    Value x;
    x.kind = Kind::List;
    x.list = std::make_shared<const std::vector<Value>>(std::move(items));
    return x;
  }
  static Value function(const Function* f) {
    Value x;
    x.kind = Kind::Function;
    x.fn = f;
    return x;
  }
};

const char* kind_name(Value::Kind k);
std::string describe_kind(const Value& v);  // "a number", "a record", ...: for messages

}  // namespace napkin
