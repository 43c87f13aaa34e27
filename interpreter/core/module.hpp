#pragma once
// A loaded file: its source and tree, what it imports, and its top-level
// names (lets, records, functions), each evaluated on first use. Scopes
// (Env) chain a formula's locals to its record and its module.
#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/source.hpp"
#include "function.hpp"
#include "record.hpp"
#include "value.hpp"

namespace napkin {

struct Env {
  Env* parent = nullptr;
  Record* self = nullptr;
  Module* module = nullptr;
  std::vector<std::pair<std::string, Value>> locals;
  // The `fn` whose parameters `locals` are, for an error that names one.
  const ast::Stmt* fn = nullptr;
  // A record's slot refers to this scope (`with` inside a formula), so it
  // outlives the evaluation that made it; any other scope is reused.
  bool captured = false;
  // In a field's scope: the fields of `self` its formula may name (Slot::sees).
  std::size_t sees = static_cast<std::size_t>(-1);
};

// The innermost scope from `from` outwards whose locals (a function's
// parameters) include `name`, or nullptr: what a `with { }` field of that
// name would hide (E0310).
inline const Env* scope_with_local(const Env* from, const std::string& name) {
  for (const Env* e = from; e; e = e->parent)
    for (const auto& local : e->locals)
      if (local.first == name) return e;
  return nullptr;
}

// A top-level name: a let, a record, a function.
struct Binding {
  std::string name;
  const ast::Stmt* stmt = nullptr;
  Module* module = nullptr;
  FieldState state;
  Function fn;  // for `fn` statements
};

struct Module {
  std::unique_ptr<SourceFile> file;
  ast::Module ast;
  std::vector<Module*> imports;
  std::unordered_map<std::string, Binding*> own;
  std::vector<Binding*> order;
  std::unordered_map<std::string, Binding*> lookup_cache;
  Env* env = nullptr;
  bool is_std = false;
  // A grader's scope (the checks of `napkin grade`, a restricted checker's
  // file): a name that the standard library or a builtin has is theirs, never
  // one a file it imports defines, so a submission cannot redefine `abs`.
  bool builtins_first = false;
};

}  // namespace napkin
