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
  Record* super = nullptr;                    // the record its block extends or `with`s: `super` in its formula
  // The fields its formula may name: the first `sees` slots, those of the
  // record its block made (its own block's and its base's). A field that a
  // later `extends` adds is not one of them, so it cannot take the place of
  // a name the formula's author meant for something else.
  std::size_t sees = static_cast<std::size_t>(-1);
  // Declared `NAME: fn`: a name in call position finds only such fields.
  bool callable() const { return type_decl && type_decl->type.kind == ast::TypeKind::Fn; }
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
// own their memo. A table is a layer over its base's table holding only the
// slots its block adds or overrides, so a chain of n records that each add
// a field holds about n log n slots, not n²/2 (it held n²/2, and a 3,000-deep
// chain took 4.6 GB). A layer takes in the layers under it while they are
// at most twice its size, so a record has at most log2(fields) layers, and
// finding a slot walks at most that many. A table with no parent is flat:
// a slot is an index into `own`.
struct SlotTable {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::shared_ptr<const SlotTable> parent;  // the slots below `first`
  std::size_t first = 0;                    // parent ? parent->size() : 0
  std::vector<Slot> own;                    // slots first, first + 1, ...
  std::unordered_map<std::size_t, Slot> overrides;     // slots below `first` this layer replaces
  std::unordered_map<std::string, std::size_t> names;  // the name of every slot in `own` and `overrides`

  std::size_t size() const { return first + own.size(); }
  std::size_t weight() const { return own.size() + overrides.size(); }
  const Slot& at(std::size_t i) const {
    const SlotTable* t = this;
    for (; i < t->first; t = t->parent.get())
      if (!t->overrides.empty())
        if (auto it = t->overrides.find(i); it != t->overrides.end()) return it->second;
    return t->own[i - t->first];
  }
  std::size_t find(const std::string& n) const {
    for (const SlotTable* t = this; t; t = t->parent.get())
      if (auto it = t->names.find(n); it != t->names.end()) return it->second;
    return npos;
  }
  // Every name, for callers that want a map: `names` itself for a flat
  // table, else built on first use and kept.
  const std::unordered_map<std::string, std::size_t>& index() const {
    if (!parent) return names;
    if (!flat_index_) {
      auto m = std::make_unique<std::unordered_map<std::string, std::size_t>>();
      m->reserve(size());
      for (const SlotTable* t = this; t; t = t->parent.get())
        for (const auto& [n, i] : t->names) m->emplace(n, i);  // the upper layer's entry stays
      flat_index_ = std::move(m);
    }
    return *flat_index_;
  }
  // Takes in the parent layer: its slots with this layer's on top.
  void absorb_parent() {
    const SlotTable& p = *parent;
    std::vector<Slot> merged = p.own;
    merged.reserve(p.own.size() + own.size());
    for (auto it = overrides.begin(); it != overrides.end();) {
      if (it->first >= p.first) {
        merged[it->first - p.first] = std::move(it->second);
        it = overrides.erase(it);
      } else {
        ++it;
      }
    }
    for (const auto& [i, slot] : p.overrides) overrides.emplace(i, slot);  // this layer's stay
    for (auto& slot : own) merged.push_back(std::move(slot));
    own = std::move(merged);
    for (const auto& [n, i] : p.names) names.emplace(n, i);
    first = p.first;
    std::shared_ptr<const SlotTable> grand = p.parent;
    parent = std::move(grand);
    flat_index_.reset();
  }
  mutable std::unique_ptr<std::unordered_map<std::string, std::size_t>> flat_index_;
};

// May a formula whose block saw the first `sees` slots name slot `i` of
// `t` (in call position, `callee`, only a field declared `: fn`)? The tree
// walker and the sweep compiler resolve names by this one rule.
inline bool field_in_scope(const SlotTable& t, std::size_t i, std::size_t sees, bool callee) {
  return i < sees && (!callee || t.at(i).callable());
}

// A table's slots in order, as if they were one vector.
class SlotView {
 public:
  explicit SlotView(const SlotTable& t) : t_(&t) {}
  std::size_t size() const { return t_->size(); }
  bool empty() const { return t_->size() == 0; }
  const Slot& operator[](std::size_t i) const { return t_->at(i); }
  struct iterator {
    const SlotTable* t;
    std::size_t i;
    const Slot& operator*() const { return t->at(i); }
    const Slot* operator->() const { return &t->at(i); }
    iterator& operator++() {
      ++i;
      return *this;
    }
    bool operator==(const iterator& o) const { return i == o.i; }
    bool operator!=(const iterator& o) const { return i != o.i; }
  };
  iterator begin() const { return {t_, 0}; }
  iterator end() const { return {t_, t_->size()}; }

 private:
  const SlotTable* t_;
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
  // One per slot once a field of this record is evaluated (Interpreter::
  // states); empty before, so a record nobody asks costs no memo.
  std::vector<FieldState> state;
  // Its memo was given back (Interpreter::retire): asking it for a field is
  // a mistake of napkin's, not a memo to make again from its base's formulas.
  bool retired = false;
  // A domain its fields state was broken when its memo was made: every field
  // asked after that is this error, so no figure of it is ever shown.
  std::exception_ptr domain_error;
  std::size_t domain_slot = static_cast<std::size_t>(-1);  // the field stating the domain it broke

  SlotView slots() const { return SlotView(*table); }
  const std::unordered_map<std::string, std::size_t>& index() const { return table->index(); }

  const Slot* find(const std::string& n) const {
    const std::size_t i = table->find(n);
    return i == SlotTable::npos ? nullptr : &table->at(i);
  }

  // Copy-on-write: the first change gives this record its own layer over the
  // table it shared, and later changes edit that layer in place (a block of
  // n fields costs n, not n²).
  std::size_t add_or_override(const ast::FieldDecl& f, Env* env, Record* super = nullptr,
                              std::size_t sees = static_cast<std::size_t>(-1)) {
    std::shared_ptr<SlotTable> t;
    if (table.use_count() == 1) {
      t = std::const_pointer_cast<SlotTable>(table);  // never made const: see `table` above
    } else {
      t = std::make_shared<SlotTable>();
      if (table->size()) {
        t->parent = table;
        t->first = table->size();
      }
    }
    t->flat_index_.reset();
    std::size_t i = t->find(f.name);
    if (i == SlotTable::npos) {
      i = t->size();
      t->names.emplace(f.name, i);
      t->own.push_back(Slot{f.name, &f, f.type.kind != ast::TypeKind::None ? &f : nullptr, env, super, sees});
    } else {
      Slot s = t->at(i);
      s.decl = &f;
      s.env = env;
      s.super = super;
      s.sees = sees;
      if (f.type.kind != ast::TypeKind::None) s.type_decl = &f;
      if (i >= t->first) {
        t->own[i - t->first] = std::move(s);
      } else {
        t->overrides.insert_or_assign(i, std::move(s));
        t->names.emplace(f.name, i);
      }
    }
    table = std::move(t);
    return i;
  }

  // After a block's fields are added: this record's layer takes in the
  // layers under it while they are at most twice its size.
  void settle_layers() {
    if (table.use_count() != 1 || !table->parent) return;
    auto t = std::const_pointer_cast<SlotTable>(table);
    while (t->parent && t->parent->weight() <= 2 * t->weight()) t->absorb_parent();
  }
};

// A point's record (a sweep's, or one a solve tried) can give back the
// memory of its fields (Interpreter::retire) once what it shares has been
// taken, if nothing can reach it any more. Only a record made while the
// point was evaluated can: its fields may look names up in the point's
// scope. A value reaches no point when it is a quantity, a boolean, a
// string, a function, a record made before the point (serial below
// `first_new`), or a list of such values.
bool reaches_no_point(const Value& v, std::size_t first_new);
bool retirable(const Record& point, std::size_t first_new);

}  // namespace napkin
