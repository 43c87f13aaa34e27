// Scopes and records: the environments formulas run in, and records made
// by declarations, `extends`, `with` and sweeps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_set>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

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
  e->fn = nullptr;
  e->sees = static_cast<std::size_t>(-1);
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
  if (m->builtins_first) {
    for (Module* dep : m->imports)
      if (dep->is_std && (found = find_binding(dep, name))) break;
    if (!found && !builtin(name))
      for (Module* dep : m->imports)
        if (!dep->is_std && (found = find_binding(dep, name))) break;
  } else {
    for (Module* dep : m->imports)
      if ((found = find_binding(dep, name))) break;
  }
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
  if (base) check_new_fields(base, s.fields);
  Record* r = base ? derive(base, s.fields, m->env, s.name_span) : derive(nullptr, s.fields, m->env, s.name_span);
  r->kind = s.record_kind;
  r->name = s.name;
  r->span = s.name_span;
  return r;
}

// A field that `extends` adds without a type, named like an input of the
// base that the block leaves at its default, is taken for a misspelling of
// it: `kv_head = 8` beside an untouched `kv_heads` would otherwise add a
// field nothing reads and keep the default. A type declares a new field on
// purpose (`kv_head: count = 8`).
void Interpreter::check_new_fields(Record* base, const std::vector<ast::FieldDecl>& fields) {
  // The base's inputs the block leaves alone, listed once for all its new
  // fields: listing them per new field, scanning the block for each input,
  // cost fields² × inputs, and a generated block of 100,000 fields never ended.
  std::size_t candidates = 0;
  for (const auto& f : fields)
    if (f.name.size() >= 4 && f.type.kind == ast::TypeKind::None && !base->find(f.name)) ++candidates;
  if (candidates == 0) return;
  std::unordered_set<std::string_view> given;
  for (const auto& g : fields) given.insert(g.name);
  std::vector<std::string> inputs;
  for (const Slot& slot : base->slots()) {
    const ast::Expr* value = slot.decl ? slot.decl->value.get() : nullptr;
    const bool literal = value && (value->kind == ast::ExprKind::Number || value->kind == ast::ExprKind::String ||
                                   value->kind == ast::ExprKind::Bool);
    if (!slot.type_decl && value && !literal) continue;  // a formula, not an input
    if (!given.count(slot.name)) inputs.push_back(slot.name);
  }
  // Every new field is compared with every input: past a million pairs (a
  // generated file, not a hand-written one) no guess is made.
  if (candidates * inputs.size() > 1'000'000) return;
  // Every slip of the block is reported at once, so that mending one does
  // not reveal the next.
  std::vector<std::pair<const ast::FieldDecl*, std::string>> slips;
  for (const auto& f : fields) {
    // Names of three letters or fewer (`x`, `y`, `bw`) are all one edit apart.
    if (f.name.size() < 4 || base->find(f.name) || f.type.kind != ast::TypeKind::None) continue;
    // A slip of the keyboard: one edit (two in a name of ten letters or more),
    // not a different word that shares a suffix (`copy_bandwidth`, `link_bandwidth`).
    const std::size_t slack = f.name.size() >= 10 ? 4 : 2;  // edit_distance counts an edit as 2
    std::vector<std::string> close;
    for (const auto& c : closest(f.name, inputs))
      if (edit_distance(f.name, c) <= slack) close.push_back(c);
    if (!close.empty()) slips.emplace_back(&f, close[0]);
  }
  if (slips.empty()) return;
  Diagnostic d;
  d.code = codes::likely_typo;
  if (slips.size() == 1) {
    const auto& [f, name] = slips[0];
    const Slot* input = base->find(name);
    d.message = fmt::format("{} has no field `{}`; did you mean its input `{}`?", base->name, f->name, name);
    d.labels.push_back({f->name_span, "a new field, which nothing in " + base->name + " reads", true});
    const ast::FieldDecl* declared = input->type_decl ? input->type_decl : input->decl;
    if (declared) d.labels.push_back({declared->name_span, fmt::format("`{}` is declared here, and keeps its default", name), false});
    d.help = fmt::format("write `{} = …` to set the input; to add a new field of that name, give it a type: `{}: TYPE = …`",
                         name, f->name);
    throw Error(std::move(d));
  }
  std::string written, meant, sets;
  for (std::size_t i = 0; i < slips.size(); ++i) {
    const char* sep = i == 0 ? "" : i + 1 == slips.size() ? " and " : ", ";
    written += sep + ("`" + slips[i].first->name + "`");
    meant += sep + ("`" + slips[i].second + "`");
    sets += sep + ("`" + slips[i].second + " = …`");
    d.labels.push_back({slips[i].first->name_span, fmt::format("did you mean `{}`?", slips[i].second), i == 0});
  }
  d.message = fmt::format("{} has no fields {}; did you mean its inputs {}?", base->name, written, meant);
  d.help = fmt::format("write {} to set the inputs; to add a new field of one of these names, give it a type: "
                       "`NAME: TYPE = …`",
                       sets);
  throw Error(std::move(d));
}

Record* Interpreter::with_values(Record* base, const std::vector<std::pair<std::size_t, Value>>& values) {
  Record* r = derive(base, {}, nullptr, base->span);
  r->name = base->name;
  r->kind = base->kind;
  r->span = base->span;
  r->state.resize(r->slots().size());
  for (const auto& [i, v] : values) {
    check_type(r, i, v);
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

Record* Interpreter::derive(Record* base, const std::vector<ast::FieldDecl>& fields, Env* env, Span where) {
  // Every record holds a slot per field, and a report shows each one, so the
  // fields of all records together are limited, before a record is made: a
  // 3,000-deep chain that adds a field per level holds 4.5 million.
  const std::size_t width = (base ? base->slots().size() : 0) + fields.size();  // at most: some override
  if (fields_held_ + width > kMaxFieldsHeld) {
    if (!where.valid() && !fields.empty()) where = fields.front().name_span;
    fail(codes::size_limit, where,
         fmt::format("this record would hold {} fields and the records made before it hold {}: together they may "
                     "hold at most {}",
                     width, fields_held_, kMaxFieldsHeld),
         "every record holds each field it inherits: a long chain of records that extend one another, or many "
         "copies of a wide record, soon reach the limit; make fewer records, or give them fewer fields");
  }
  Record* r = new_record();
  if (base) {
    r->kind = base->kind;
    r->base = base;
    r->table = base->table;
  }
  if (env && !fields.empty()) env->captured = true;
  // The block's formulas see the fields of the record it makes: the base's
  // and the block's own, not those a later `extends` adds (Slot::sees). A
  // block names each field once (the parser refuses a second).
  std::size_t sees = base ? base->slots().size() : 0;
  for (const auto& f : fields)
    if (!base || !base->find(f.name)) ++sees;
  for (const auto& f : fields) r->add_or_override(f, env, base, sees);
  r->settle_layers();
  fields_held_ += r->slots().size();
  return r;
}

bool reaches_no_point(const Value& v, std::size_t first_new) {
  switch (v.kind) {
    case Value::Kind::Record: return v.rec == nullptr || v.rec->serial < first_new;
    case Value::Kind::List:
      for (const Value& item : v.items())
        if (!reaches_no_point(item, first_new)) return false;
      return true;
    default: return true;
  }
}

bool retirable(const Record& point, std::size_t first_new) {
  for (const FieldState& st : point.state)
    if (st.status == FieldState::Status::Done && !reaches_no_point(st.value, first_new)) return false;
  return true;
}

void Interpreter::retire(Record& r) {
  fields_held_ -= std::min(fields_held_, r.slots().size());
  std::vector<FieldState>().swap(r.state);
  r.retired = true;
}

}  // namespace napkin
