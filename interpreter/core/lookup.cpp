// `get(record, "name", default)` and `count(list, x)`: reading data whose
// shape varies from file to file, as a JSON document's does (import_json).
// A config that leaves a key out, or sets it to null, means "the default";
// a formula that reads such a key says which default it takes.
#include <fmt/format.h>

#include "builtins.hpp"
#include "compare.hpp"
#include "interpreter.hpp"

namespace napkin {

const std::string* null_note() {
  static const std::string* const note = intern_note("null");
  return note;
}

namespace {

// The field `name` of `r` has no value of its own: an input nobody set, or a
// null that import_json read (an error when read directly).
bool unset(const Record* r, std::size_t i) {
  if (i < r->state.size()) {
    const FieldState& st = r->state[i];
    if (st.status == FieldState::Status::Failed && st.value.note == null_note()) return true;
    if (st.status != FieldState::Status::Unevaluated) return false;
  }
  const Slot& slot = r->slots()[i];
  return slot.decl && !slot.decl->value;
}

bool same(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::Kind::String: return a.str() == b.str();
    case Value::Kind::Bool: return a.b == b.b;
    case Value::Kind::Quantity: return a.q.dim == b.q.dim && same_magnitude(a.q.v, b.q.v);
    case Value::Kind::Record: return a.rec == b.rec;
    default: return false;
  }
}

}  // namespace

void register_lookup(Interpreter& in) {
  add_builtin(in, "get", 3, 3, "get(record, name, default)", [](Interpreter& i, const CallArgs& a) -> Value {
    if (a.values[0].kind != Value::Kind::Record) i.type_error(a.values[0], a.nodes[0], "a record");
    if (a.values[1].kind != Value::Kind::String) i.type_error(a.values[1], a.nodes[1], "a field name in quotes");
    Record* r = a.values[0].rec;
    const std::size_t at = r->table->find(a.values[1].str());
    if (at == SlotTable::npos || unset(r, at)) return a.values[2];
    return i.field(r, at, a.nodes[1]->span);
  });
  // Whether the record names the field at all, null or not: a config class
  // may give a key it leaves out one default and a null another.
  add_builtin(in, "has", 2, 2, "has(record, name)", [](Interpreter& i, const CallArgs& a) -> Value {
    if (a.values[0].kind != Value::Kind::Record) i.type_error(a.values[0], a.nodes[0], "a record");
    if (a.values[1].kind != Value::Kind::String) i.type_error(a.values[1], a.nodes[1], "a field name in quotes");
    return Value::boolean(a.values[0].rec->table->find(a.values[1].str()) != SlotTable::npos);
  });
  add_builtin(in, "count", 2, 2, "count(list, x)", [](Interpreter& i, const CallArgs& a) -> Value {
    if (a.values[0].kind != Value::Kind::List) i.type_error(a.values[0], a.nodes[0], "a list");
    double n = 0;
    for (const Value& v : a.values[0].items())
      if (same(v, a.values[1])) ++n;
    return Value::quantity(n);
  });
}

}  // namespace napkin
