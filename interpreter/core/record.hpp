#pragma once
// Records: ordered fields, each a formula evaluated on first use and
// remembered. A field's formula is evaluated with `self` bound to the record
// being asked, which is what makes `extends` and `with` late-bound.
#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "grammar/ast.hpp"
#include "value.hpp"

namespace napkin {

struct Env;
struct Binding;
struct CallTrace;

// What a field's formula saw while it was evaluated: the value of every name
// it referred to, and which record field that name resolved to; for a call,
// the value it returned and what happened inside it.
struct TraceEntry {
  const ast::Expr* node = nullptr;
  Value value;
  Record* rec = nullptr;  // set when the name resolved to a record field
  std::size_t field = 0;
  Binding* binding = nullptr;  // set when it resolved to a top-level let
  std::shared_ptr<const CallTrace> call;  // set for a call node
};

struct Trace {
  std::vector<TraceEntry> entries;
};

// One call of a function while a derivation was being recorded: a user
// function's body with its parameters bound (and what the body saw), or a
// builtin's arguments. Derivations open calls with it as they open fields.
struct CallTrace {
  std::string name;                 // "kv_cache_bytes"
  const ast::Stmt* decl = nullptr;  // the `fn` statement; null for a builtin
  std::vector<std::pair<std::string, Value>> args;  // parameter (or position) and value, in order
  Trace trace;                      // what the body saw
};

struct Slot {
  std::string name;
  const ast::FieldDecl* decl = nullptr;       // the declaration that gives the value (may have none)
  const ast::FieldDecl* type_decl = nullptr;  // where its type was declared, if any
  Env* env = nullptr;                         // the scope the declaration was written in
};

struct FieldState {
  enum class Status : std::uint8_t { Unevaluated, InProgress, Done, Failed };
  Status status = Status::Unevaluated;
  Value value;
  std::exception_ptr error;
  Trace trace;
};

// A record's fields, shared between records until one of them changes a
// field: a sweep's thousands of points share their base's table and only
// own their memo.
struct SlotTable {
  std::vector<Slot> slots;
  std::unordered_map<std::string, std::size_t> index;
};

inline const std::shared_ptr<const SlotTable>& empty_table() {
  static const std::shared_ptr<const SlotTable> empty = std::make_shared<const SlotTable>();
  return empty;
}

struct Record {
  std::string kind;  // model, hardware, scenario, record
  std::string name;  // "drill", "decode_int8", "decode.model"
  Span span;         // where it was declared
  Record* base = nullptr;
  std::size_t serial = 0;  // how many records the interpreter made before this one
  // A new record starts with the one empty table (held here and by
  // empty_table(), so never changed in place): a sweep makes a record per
  // point and gives each its base's table at once.
  std::shared_ptr<const SlotTable> table = empty_table();
  std::vector<FieldState> state;

  const std::vector<Slot>& slots() const { return table->slots; }
  const std::unordered_map<std::string, std::size_t>& index() const { return table->index; }

  const Slot* find(const std::string& n) const {
    auto it = table->index.find(n);
    return it == table->index.end() ? nullptr : &table->slots[it->second];
  }

  // Copy-on-write: the first change gives this record its own table, and
  // later changes edit it in place (a block of n fields costs n, not n²).
  std::size_t add_or_override(const ast::FieldDecl& f, Env* env) {
    std::shared_ptr<SlotTable> t;
    if (table.use_count() == 1)
      t = std::const_pointer_cast<SlotTable>(table);  // never made const: see `table` above
    else
      t = std::make_shared<SlotTable>(*table);
    std::size_t i;
    auto it = t->index.find(f.name);
    if (it == t->index.end()) {
      i = t->slots.size();
      t->index.emplace(f.name, i);
      t->slots.push_back(Slot{f.name, &f, f.type.kind != ast::TypeKind::None ? &f : nullptr, env});
      state.emplace_back();
    } else {
      i = it->second;
      Slot& s = t->slots[i];
      s.decl = &f;
      s.env = env;
      if (f.type.kind != ast::TypeKind::None) s.type_decl = &f;
    }
    table = std::move(t);
    return i;
  }
};

}  // namespace napkin
