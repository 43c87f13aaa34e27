// Scopes and records: the environments formulas run in, and records made
// by declarations, `extends`, `with` and sweeps.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

namespace fs = std::filesystem;

// Every field evaluation and function call needs a scope; reusing them keeps
// a sweep's memory flat instead of growing by a scope per field per point.
Env* Interpreter::new_env(Env* parent, Record* self, Module* module) {
  Env* e;
  if (free_envs_.empty()) {
    e = &envs_.emplace_back();
  } else {
    e = free_envs_.back();
    free_envs_.pop_back();
    e->locals.clear();
    e->captured = false;
  }
  e->parent = parent;
  e->self = self;
  e->module = module;
  return e;
}

void Interpreter::release_env(Env* e) {
  if (!e->captured) free_envs_.push_back(e);
}

Record* Interpreter::new_record() {
  Record* r = &records_.emplace_back();
  r->serial = records_.size() - 1;
  return r;
}

Binding* Interpreter::find_binding(Module* m, const std::string& name) {
  if (auto it = m->own.find(name); it != m->own.end()) return it->second;
  if (auto it = m->lookup_cache.find(name); it != m->lookup_cache.end()) return it->second;
  Binding* found = nullptr;
  for (Module* dep : m->imports)
    if ((found = find_binding(dep, name))) break;
  m->lookup_cache.emplace(name, found);
  return found;
}

Record* Interpreter::make_record(const ast::Stmt& s, Module* m) {
  Record* base = nullptr;
  if (s.base) {
    Value b = eval(*s.base, m->env);
    if (b.kind != Value::Kind::Record)
      fail(codes::not_a_record, s.base->span,
           fmt::format("`{}` is {}, not a record: only a record can be extended", print_expr(*s.base), describe_kind(b)));
    base = b.rec;
  }
  Record* r = base ? derive(base, s.fields, m->env) : derive(nullptr, s.fields, m->env);
  r->kind = s.record_kind;
  r->name = s.name;
  r->span = s.name_span;
  return r;
}

Record* Interpreter::with_values(Record* base, const std::vector<std::pair<std::size_t, Value>>& values) {
  Record* r = derive(base, {}, nullptr);
  r->name = base->name;
  r->kind = base->kind;
  r->span = base->span;
  for (const auto& [i, v] : values) {
    check_type(r->slots()[i], v, r);
    r->state[i].value = v;
    r->state[i].status = FieldState::Status::Done;
  }
  return r;
}

Module* Interpreter::module_of(const SourceFile* file) const {
  for (const auto& mod : modules_)
    if (mod->file.get() == file) return mod.get();
  return nullptr;
}

Record* Interpreter::derive(Record* base, const std::vector<ast::FieldDecl>& fields, Env* env) {
  Record* r = new_record();
  if (base) {
    r->kind = base->kind;
    r->base = base;
    r->table = base->table;
    r->state.resize(base->slots().size());
  }
  if (env && !fields.empty()) env->captured = true;
  for (const auto& f : fields) r->add_or_override(f, env);
  return r;
}

}  // namespace napkin
