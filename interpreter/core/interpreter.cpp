#include "interpreter.hpp"

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
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxCallDepth = 512;
constexpr std::size_t kMaxEvalDepth = 2000;

std::string describe_kind(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Quantity: return "a number";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::String: return "a string";
    case Value::Kind::Record: return "a record";
    case Value::Kind::List: return "a list";
    case Value::Kind::Function: return "a function";
  }
  return "a value";
}
}  // namespace

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Quantity: return "quantity";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::String: return "string";
    case Value::Kind::Record: return "record";
    case Value::Kind::List: return "list";
    case Value::Kind::Function: return "function";
  }
  return "value";
}

Interpreter::Interpreter(Options opts) : opts_(std::move(opts)) {
  register_builtins(*this);
  for (const Function& f : opts_.builtins) register_builtin(f);
}
Interpreter::~Interpreter() = default;

void Interpreter::register_builtin(Function f) {
  const std::string name = f.name;
  builtins_.emplace(name, std::move(f));
}

const Function* Interpreter::builtin(const std::string& name) const {
  auto it = builtins_.find(name);
  return it == builtins_.end() ? nullptr : &it->second;
}

// ---- loading ---------------------------------------------------------------

Module* Interpreter::load_file(const std::string& path) {
  std::string text;
  if (const int err = read_source(path, text)) {
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot read {}: {}", path, std::error_code(err, std::generic_category()).message());
    throw Error(std::move(d));
  }
  const fs::path p(path);
  return load_source(p.lexically_normal().generic_string(), std::move(text), p.parent_path().generic_string());
}

Module* Interpreter::load_source(std::string name, std::string text, std::string dir) {
  auto file = std::make_unique<SourceFile>();
  file->name = std::move(name);
  file->text = std::move(text);
  file->dir = std::move(dir);
  return load_parsed(std::move(file));
}

std::vector<std::string> Interpreter::std_modules() {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kStdlibCount; ++i) out.emplace_back(kStdlib[i].name);
  return out;
}

Module* Interpreter::load_std(const std::string& name) {
  const std::string display = "std/" + name;
  if (auto it = loaded_.find(display); it != loaded_.end()) return it->second;
  auto file = std::make_unique<SourceFile>();
  file->name = display;
  bool found = false;
  if (!opts_.stdlib_dir.empty()) {
    std::ifstream in(fs::path(opts_.stdlib_dir) / (name + ".napkin"), std::ios::binary);
    if (in) {
      std::ostringstream ss;
      ss << in.rdbuf();
      file->text = ss.str();
      found = true;
    }
  }
  for (std::size_t i = 0; !found && i < kStdlibCount; ++i)
    if (name == kStdlib[i].name) {
      file->text.assign(kStdlib[i].text, kStdlib[i].size);
      found = true;
    }
  if (!found) return nullptr;
  Module* m = load_parsed(std::move(file));
  m->is_std = true;
  return m;
}

std::unique_ptr<SourceFile> Interpreter::read_import(Module* from, const ast::Stmt& imp) {
  fs::path p = fs::path(from->file->dir) / imp.name;
  auto file = std::make_unique<SourceFile>();
  file->name = p.lexically_normal().generic_string();
  file->dir = p.lexically_normal().parent_path().generic_string();
  if (const int err = read_source(p.string(), file->text); err && err != ENOENT) {
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot read the file \"{}\": {}", imp.name, std::error_code(err, std::generic_category()).message());
    d.labels.push_back({imp.name_span, "imported here", true});
    throw Error(std::move(d));
  } else if (err) {
    Diagnostic d;
    d.code = codes::import_not_found;
    d.message = fmt::format("cannot find the file \"{}\" (looked for {})", imp.name, file->name);
    d.labels.push_back({imp.name_span, "imported here", true});
    d.help = "paths are relative to the importing file; the standard library is imported as \"std/NAME\"";
    throw Error(std::move(d));
  }
  return file;
}

Module* Interpreter::load_parsed(std::unique_ptr<SourceFile> file) {
  const std::string key = file->name;
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second;
  auto mod = std::make_unique<Module>();
  Module* m = mod.get();
  m->file = std::move(file);
  modules_.push_back(std::move(mod));  // owned before parsing: an error's spans point into its file
  m->ast = parse_module(*m->file);
  m->env = new_env(nullptr, nullptr, m);

  loading_.push_back(key);
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Import) continue;
    Module* dep = nullptr;
    std::string dep_key;
    std::unique_ptr<SourceFile> dep_file;
    if (st.name.rfind("std/", 0) == 0) {
      dep_key = st.name;
    } else {
      dep_file = read_import(m, st);
      dep_key = dep_file->name;
    }
    if (std::find(loading_.begin(), loading_.end(), dep_key) != loading_.end()) {
      std::string chain;
      for (auto it = std::find(loading_.begin(), loading_.end(), dep_key); it != loading_.end(); ++it)
        chain += *it + " -> ";
      Diagnostic d;
      d.code = codes::import_cycle;
      d.message = "import cycle: " + chain + dep_key;
      d.labels.push_back({st.name_span, "this import closes the cycle", true});
      d.help = "move what both files need into a third file that both import";
      throw Error(std::move(d));
    }
    if (dep_file) {
      dep = load_parsed(std::move(dep_file));
    } else {
      dep = load_std(st.name.substr(4));
      if (!dep) {
        std::vector<std::string> names = std_modules();
        const auto close = closest(st.name.substr(4), names);
        Diagnostic d;
        d.code = codes::import_not_found;
        d.message = fmt::format("there is no standard module \"{}\"", st.name);
        d.labels.push_back({st.name_span, "imported here", true});
        std::string all;
        for (const auto& n : names) all += (all.empty() ? "std/" : ", std/") + n;
        d.help = close.empty() ? "the standard modules are " + all : fmt::format("did you mean \"std/{}\"?", close[0]);
        throw Error(std::move(d));
      }
    }
    if (std::find(m->imports.begin(), m->imports.end(), dep) == m->imports.end()) m->imports.push_back(dep);
  }
  loading_.pop_back();

  register_bindings(m);
  declare_units(m);
  for (const auto& st : m->ast.statements) {
    if (st.value) check_units(*st.value);
    if (st.base) check_units(*st.base);
    if (st.expected) check_units(*st.expected);
    if (st.tolerance) check_units(*st.tolerance);
    for (const auto& p : st.params)
      if (p.default_value) check_units(*p.default_value);
    check_units(st.fields);
  }
  loaded_[key] = m;
  return m;
}

void Interpreter::register_bindings(Module* m) {
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Let && st.kind != ast::StmtKind::Fn && st.kind != ast::StmtKind::Record) continue;
    if (auto it = m->own.find(st.name); it != m->own.end()) {
      Diagnostic d;
      d.code = codes::duplicate;
      d.message = fmt::format("`{}` is defined twice in this file", st.name);
      d.labels.push_back({st.name_span, "defined again here", true});
      d.labels.push_back({it->second->stmt->name_span, "first defined here", false});
      d.help = "give one of them another name";
      throw Error(std::move(d));
    }
    Binding& b = bindings_.emplace_back();
    b.name = st.name;
    b.stmt = &st;
    b.module = m;
    if (st.kind == ast::StmtKind::Fn) {
      b.fn.name = st.name;
      b.fn.decl = &st;
      b.fn.module = m;
      int required = 0;
      for (const auto& p : st.params)
        if (!p.default_value) ++required;
      b.fn.min_args = required;
      b.fn.max_args = static_cast<int>(st.params.size());
      std::string sig = st.name + "(";
      for (std::size_t i = 0; i < st.params.size(); ++i) sig += (i ? ", " : "") + st.params[i].name;
      b.fn.signature = sig + ")";
    }
    m->own[st.name] = &b;
    m->order.push_back(&b);
  }
}

void Interpreter::declare_units(Module* m) {
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Unit) continue;
    if (units_.lookup(st.name)) {
      // Importing the same file twice declares its units once; anything else
      // is a clash, a prefixed spelling (`GB`) included.
      fail(codes::unit_redefined, st.name_span, fmt::format("the unit `{}` is already defined", st.name),
           "choose another symbol, or use the existing unit");
    }
    if (!st.value) {
      if (!units_.declare_base(st.name))
        fail(codes::size_limit, st.name_span,
             fmt::format("too many base units: napkin holds at most {}", kMaxBaseUnits));
      continue;
    }
    check_units(*st.value);
    Value v = eval(*st.value, m->env);
    const Quantity& q = expect_quantity(v, st.value.get(), "a unit's definition");
    if (q.v <= 0) fail(codes::type_mismatch, st.value->span, "a unit must be a positive quantity");
    units_.declare_derived(st.name, UnitDef{q.v, q.dim});
  }
}

void Interpreter::check_units(const std::vector<ast::FieldDecl>& fields) {
  for (const auto& f : fields) {
    if (f.value) check_units(*f.value);
    if (f.type.kind == ast::TypeKind::Unit) resolve_unit(f.type.unit);
  }
}

void Interpreter::check_units(const ast::Expr& e) {
  if (e.unit) resolve_unit(*e.unit);
  for (const auto& c : e.items) check_units(*c);
  check_units(e.fields);
}

UnitDef Interpreter::resolve_unit(const ast::UnitExpr& u) {
  if (auto it = unit_cache_.find(u.text); it != unit_cache_.end()) return it->second;
  UnitDef out;
  for (const auto& t : u.terms) {
    auto def = units_.lookup(t.symbol);
    if (!def) {
      Diagnostic d;
      d.code = codes::unknown_unit;
      d.message = fmt::format("unknown unit `{}`", t.symbol);
      d.labels.push_back({t.span, "not a unit napkin knows", true});
      auto s = units_.suggest(t.symbol);
      if (!s.empty()) {
        std::string list;
        for (std::size_t i = 0; i < s.size(); ++i) list += (i ? (i + 1 == s.size() ? " or " : ", ") : "") + s[i];
        d.help = fmt::format("did you mean {}?", list);
      } else {
        d.help = "units follow a number without spaces (5.3 TB/s); to divide by a name, put spaces around '/', "
                 "or declare a new unit with `unit NAME`";
      }
      throw Error(std::move(d));
    }
    out.scale *= std::pow(def->scale, t.power);
    out.dim = out.dim * def->dim.pow(t.power);
  }
  unit_cache_.emplace(u.text, out);
  return out;
}

const ast::Expr& Interpreter::parse_snippet(std::string name, std::string text) {
  snippets_.push_back(SourceFile{std::move(name), std::move(text), ""});
  snippet_trees_.push_back(parse_expression(snippets_.back()));
  return *snippet_trees_.back();
}

Module* Interpreter::prelude() {
  if (prelude_) return prelude_;
  std::string text;
  for (const auto& n : std_modules()) text += "import \"std/" + n + "\"\n";
  prelude_ = load_source("<prelude>", text, "");
  return prelude_;
}

// ---- scopes and records ------------------------------------------------------

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

// ---- evaluation ------------------------------------------------------------

std::string Interpreter::frame_label(const Frame& f) {
  return f.binding ? f.binding->name : f.rec->name + "." + f.rec->slots()[f.slot].name;
}

void Interpreter::cycle_error(const std::string& label, Span span) {
  std::string chain;
  auto it = std::find_if(stack_.begin(), stack_.end(), [&](const Frame& f) { return frame_label(f) == label; });
  for (auto i = it; i != stack_.end(); ++i) chain += frame_label(*i) + " -> ";
  chain += label;
  Diagnostic d;
  d.code = codes::cycle;
  d.message = fmt::format("`{}` depends on itself", label);
  d.labels.push_back({span, "needed again here while it is being computed", true});
  if (it != stack_.end()) d.labels.push_back({it->span, "first needed here", false});
  d.notes.push_back("cycle: " + chain);
  d.help = "give one of the fields in the cycle a value that does not depend on the others";
  throw Error(std::move(d));
}

Value Interpreter::top_value(Binding* b, Span use) {
  FieldState& st = b->state;
  if (st.status == FieldState::Status::Done) return st.value;
  if (st.status == FieldState::Status::Failed) std::rethrow_exception(st.error);
  if (st.status == FieldState::Status::InProgress) cycle_error(b->name, use);
  const ast::Stmt& s = *b->stmt;
  if (s.kind == ast::StmtKind::Fn) {
    st.value = Value::function(&b->fn);
    st.status = FieldState::Status::Done;
    return st.value;
  }
  st.status = FieldState::Status::InProgress;
  stack_.push_back({nullptr, 0, b, use.valid() ? use : s.name_span});
  Trace* saved = trace_;
  trace_ = opts_.trace && tracing_ ? &st.trace : nullptr;
  try {
    Value v;
    if (s.kind == ast::StmtKind::Record && !s.value) {
      v = Value::record(make_record(s, b->module));
    } else {
      v = eval(*s.value, b->module->env);
      if (v.kind == Value::Kind::Record && s.kind == ast::StmtKind::Record) {
        if (v.rec->name.empty() || v.rec->name.find(" with ") != std::string::npos) {
          v.rec->name = s.name;
          v.rec->kind = s.record_kind;
          v.rec->span = s.name_span;
        }
      }
    }
    st.value = v;
    st.status = FieldState::Status::Done;
  } catch (...) {
    st.status = FieldState::Status::Failed;
    st.error = std::current_exception();
    trace_ = saved;
    stack_.pop_back();
    throw;
  }
  trace_ = saved;
  stack_.pop_back();
  return st.value;
}

void Interpreter::check_type(const Slot& slot, const Value& v, Record* r) {
  if (!slot.type_decl) return;
  const ast::TypeExpr& t = slot.type_decl->type;
  bool ok = true;
  std::string got;
  switch (t.kind) {
    case ast::TypeKind::None:
    case ast::TypeKind::Any: return;
    case ast::TypeKind::Count:
      ok = v.kind == Value::Kind::Quantity && v.q.dim.dimensionless();
      break;
    case ast::TypeKind::Bool: ok = v.kind == Value::Kind::Bool; break;
    case ast::TypeKind::String: ok = v.kind == Value::Kind::String; break;
    case ast::TypeKind::Record: ok = v.kind == Value::Kind::Record; break;
    case ast::TypeKind::List: ok = v.kind == Value::Kind::List; break;
    case ast::TypeKind::Fn: ok = v.kind == Value::Kind::Function; break;
    case ast::TypeKind::Unit: {
      const UnitDef u = resolve_unit(t.unit);
      ok = v.kind == Value::Kind::Quantity && v.q.dim == u.dim;
      break;
    }
  }
  if (ok) return;
  got = v.kind == Value::Kind::Quantity ? dim_name(v.q.dim) : describe_kind(v);
  std::string want = t.kind == ast::TypeKind::Unit ? dim_name(resolve_unit(t.unit).dim)
                     : t.kind == ast::TypeKind::Count ? "a plain count"
                                                      : t.text;
  Diagnostic d;
  d.code = codes::field_type;
  d.message = fmt::format("`{}.{}` must be {} but this value is {}", r->name, slot.name, want, got);
  d.labels.push_back({slot.decl->value ? slot.decl->value->span : slot.decl->span, "this is " + got, true});
  d.labels.push_back({t.span, "declared here", false});
  if (t.kind == ast::TypeKind::Unit && v.kind == Value::Kind::Quantity)
    d.help = fmt::format("give it a value in {}, such as `1 {}`", t.text, t.text);
  throw Error(std::move(d));
}

Value Interpreter::field(Record* r, std::size_t i, Span use) {
  FieldState& st = r->state[i];
  if (st.status == FieldState::Status::Done) return st.value;
  if (st.status == FieldState::Status::Failed) std::rethrow_exception(st.error);
  const Slot& slot = r->slots()[i];
  // Spelled out only when needed: most fields evaluate without error.
  auto field_label = [&] { return r->name + "." + slot.name; };
  if (st.status == FieldState::Status::InProgress) cycle_error(field_label(), use);
  if (!slot.decl->value) {
    const std::string label = field_label();
    const ast::FieldDecl* declared = slot.type_decl ? slot.type_decl : slot.decl;
    Diagnostic d;
    d.code = codes::missing_input;
    d.message = fmt::format("`{}` needs a value: `{}` is an input of {} with no value", label, slot.name,
                            r->name);
    if (use.valid()) d.labels.push_back({use, "needed here", true});
    d.labels.push_back({declared->name_span, "declared here", !use.valid()});
    d.help = fmt::format("give it one: `{} = ...` in {}, or `{} with {{ {} = ... }}`", slot.name, r->name,
                         r->name, slot.name);
    throw MissingInput(std::move(d), slot.name, declared->name_span);
  }
  st.status = FieldState::Status::InProgress;
  stack_.push_back({r, i, nullptr, use.valid() ? use : slot.decl->name_span});
  Trace* saved = trace_;
  trace_ = opts_.trace && tracing_ ? &st.trace : nullptr;
  try {
    Env* env = new_env(slot.env, r, nullptr);
    struct Release {
      Interpreter* in;
      Env* env;
      ~Release() { in->release_env(env); }
    } release{this, env};
    Value v = eval(*slot.decl->value, env);
    check_type(slot, v, r);
    if (v.kind == Value::Kind::Record && v.rec->name.empty()) v.rec->name = field_label();
    st.value = std::move(v);
    st.status = FieldState::Status::Done;
  } catch (Error& e) {
    auto& notes = e.diagnostic().notes;
    if (notes.size() < 3) notes.push_back(fmt::format("while computing {} ({})", field_label(), slot.decl->name_span.where_line()));
    st.status = FieldState::Status::Failed;
    st.error = std::current_exception();
    trace_ = saved;
    stack_.pop_back();
    throw;
  } catch (...) {
    st.status = FieldState::Status::Failed;
    st.error = std::current_exception();
    trace_ = saved;
    stack_.pop_back();
    throw;
  }
  trace_ = saved;
  stack_.pop_back();
  return st.value;
}

Value Interpreter::eval_in(Module* m, const ast::Expr& e, Trace* trace) {
  Trace* saved = trace_;
  trace_ = trace;
  try {
    Value v = eval(e, m->env);
    trace_ = saved;
    return v;
  } catch (...) {
    trace_ = saved;
    throw;
  }
}

Value Interpreter::finite(double v, Dim d, Span span) {
  if (!std::isfinite(v)) {
    fail(codes::not_finite, span,
         std::isnan(v) ? "this has no defined value (not a number)" : "this overflows to infinity",
         "check the magnitudes of the operands: napkin computes in double precision, up to about 1.8e308");
  }
  return Value::quantity(v, d);
}

const Quantity& Interpreter::expect_quantity(const Value& v, const ast::Expr* node, const char* what) {
  if (v.kind != Value::Kind::Quantity) type_error(v, node, what);
  return v.q;
}

void Interpreter::type_error(const Value& v, const ast::Expr* node, const char* expected) {
  Diagnostic d;
  d.code = codes::type_mismatch;
  const std::string shown = clip(show(v), 80);
  d.message = fmt::format("expected {}, but this is {} ({})", expected, describe_kind(v), shown);
  if (node) d.labels.push_back({node->span, "this is " + describe_kind(v), true});
  throw Error(std::move(d));
}

std::string Interpreter::dim_name(const Dim& d) const {
  if (d.dimensionless()) return "a plain number";
  const std::string u = units_.format(d);
  static const std::pair<const char*, const char*> names[] = {
      {"B", "bytes"},          {"s", "time"},           {"FLOP", "FLOPs"},          {"token", "tokens"},
      {"param", "parameters"}, {"USD", "money"},        {"B/s", "bandwidth"},       {"FLOP/s", "throughput"},
      {"FLOP/B", "intensity"}, {"token/s", "a token rate"}, {"B/param", "bytes per parameter"},
      {"B/token", "bytes per token"}, {"FLOP/token", "FLOPs per token"}};
  for (auto [unit, word] : names)
    if (u == unit) return fmt::format("{} ({})", u, word);
  return u;
}

std::string Interpreter::show(const Value& v) const {
  switch (v.kind) {
    case Value::Kind::Quantity: return format_quantity(v.q, v.display.get(), units_, opts_.digits);
    case Value::Kind::Bool: return v.b ? "true" : "false";
    case Value::Kind::String: return "\"" + *v.s + "\"";
    case Value::Kind::Record: return v.rec->name.empty() ? "<record>" : v.rec->name;
    case Value::Kind::List: {
      std::string t = "[";
      for (std::size_t i = 0; i < v.list->size(); ++i) t += (i ? ", " : "") + show((*v.list)[i]);
      return t + "]";
    }
    case Value::Kind::Function: return v.fn->signature.empty() ? "<fn " + v.fn->name + ">" : "fn " + v.fn->signature;
  }
  return "?";
}

Value Interpreter::eval(const ast::Expr& e, Env* env) {
  struct DepthGuard {
    std::size_t& d;
    explicit DepthGuard(std::size_t& x) : d(x) { ++d; }
    ~DepthGuard() { --d; }
  } guard(eval_depth_);
  if (eval_depth_ > kMaxEvalDepth)
    fail(codes::recursion_limit, e.span,
         fmt::format("evaluation nested deeper than {} levels (a very long chain of records or fields)", kMaxEvalDepth));
  if (stack_left() < kStackReserve)
    fail(codes::recursion_limit, e.span,
         "evaluation nested too deeply for this thread's stack (a very long chain of records or fields)");
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Number: {
      double v = e.number;
      Dim d;
      if (e.percent) v *= 0.01;
      if (e.unit) {
        const UnitDef u = resolve_unit(*e.unit);
        v *= u.scale;
        d = u.dim;
      }
      Value out = finite(v, d, e.span);
      if (e.percent) {  // written as a percentage, shown as one
        static const auto percent = std::make_shared<const DisplayUnit>(DisplayUnit{"%", 0.01});
        out.display = percent;
      }
      return out;
    }
    case K::String: return Value::string(e.text);
    case K::Bool: return Value::boolean(e.boolean);
    case K::List: {
      std::vector<Value> items;
      items.reserve(e.items.size());
      for (const auto& c : e.items) items.push_back(eval(*c, env));
      return Value::make_list(std::move(items));
    }
    case K::Name: return eval_name(e, env);
    case K::Member: return eval_member(e, env);
    case K::Call: return eval_call(e, env);
    case K::Negate: {
      Value v = eval(*e.items[0], env);
      const Quantity& q = expect_quantity(v, e.items[0].get(), "a number to negate");
      return Value::quantity(-q.v, q.dim);
    }
    case K::Not: {
      Value v = eval(*e.items[0], env);
      if (v.kind != Value::Kind::Bool) type_error(v, e.items[0].get(), "true or false after 'not'");
      return Value::boolean(!v.b);
    }
    case K::If: {
      Value c = eval(*e.items[0], env);
      if (c.kind != Value::Kind::Bool) type_error(c, e.items[0].get(), "a condition (true or false)");
      record_trace(e, c, nullptr, 0, nullptr);  // which branch, for the derivation
      return eval(*e.items[c.b ? 1 : 2], env);
    }
    case K::Convert: {
      Value v = eval(*e.items[0], env);
      const Quantity& q = expect_quantity(v, e.items[0].get(), "a number to convert");
      const UnitDef u = resolve_unit(*e.unit);
      if (u.dim != q.dim) {
        Diagnostic d;
        d.code = codes::convert_mismatch;
        d.message = fmt::format("cannot show {} in {}: it is {}, and {} is {}", show(v), e.unit->text,
                                dim_name(q.dim), e.unit->text, dim_name(u.dim));
        d.labels.push_back({e.items[0]->span, "this is " + dim_name(q.dim), true});
        d.labels.push_back({e.unit->span, "this is " + dim_name(u.dim), false});
        throw Error(std::move(d));
      }
      Value out = v;
      out.display = std::make_shared<const DisplayUnit>(DisplayUnit{e.unit->text, u.scale});
      return out;
    }
    case K::With: {
      Value b = eval(*e.items[0], env);
      if (b.kind != Value::Kind::Record)
        fail(codes::not_a_record, e.items[0]->span,
             fmt::format("`with` needs a record on its left, but this is {}", describe_kind(b)));
      Record* r = derive(b.rec, e.fields, env);
      r->name = "";
      r->kind = b.rec->kind;
      r->span = e.span;
      for (const auto& f : e.fields)
        if (!b.rec->find(f.name)) {
          Diagnostic d;
          d.code = codes::unknown_field;
          d.message = fmt::format("{} has no field `{}` to replace", b.rec->name, f.name);
          d.labels.push_back({f.name_span, "not a field of " + b.rec->name, true});
          std::vector<std::string> names;
          for (const auto& s : b.rec->slots()) names.push_back(s.name);
          auto close = closest(f.name, names);
          d.help = close.empty() ? "`with` replaces existing fields; to add fields, declare a record that extends it"
                                 : fmt::format("did you mean `{}`?", close[0]);
          throw Error(std::move(d));
        }
      return Value::record(r);
    }
    case K::Binary: return eval_binary(e, env);
    case K::Measure: return eval_measure(e, env);
  }
  fail(codes::syntax, e.span, "internal: unknown expression");
}

Interpreter::NodeCache& Interpreter::cache_of(const ast::Expr& e) {
  if (e.cache_id < node_cache_.size() && node_cache_[e.cache_id].node == &e) [[likely]]
    return node_cache_[e.cache_id];  // entry 0 belongs to no node
  return new_cache(e);
}

Interpreter::NodeCache& Interpreter::new_cache(const ast::Expr& e) {
  if (node_cache_.empty()) node_cache_.emplace_back();
  e.cache_id = static_cast<std::uint32_t>(node_cache_.size());
  return node_cache_.emplace_back(NodeCache{&e});
}

std::size_t Interpreter::slot_of(const ast::Expr& e, const Record* r) {
  NodeCache& c = cache_of(e);
  const SlotTable* t = r->table.get();
  if (c.table != t) {
    auto it = t->index.find(e.text);
    c.table = t;
    c.slot = it == t->index.end() ? kNoSlot : it->second;
  }
  return c.slot;
}

Binding* Interpreter::binding_of(const ast::Expr& e, Module* m) {
  NodeCache& c = cache_of(e);
  if (c.module != m) {
    c.module = m;
    c.binding = find_binding(m, e.text);
  }
  return c.binding;
}

Value Interpreter::eval_name(const ast::Expr& e, Env* env) {
  const std::string& name = e.text;
  for (Env* s = env; s; s = s->parent) {
    if (s->self) {
      if (const std::size_t i = slot_of(e, s->self); i != kNoSlot) {
        Value v = field(s->self, i, e.span);
        record_trace(e, v, s->self, i, nullptr);
        return v;
      }
    }
    for (const auto& [n, v] : s->locals)
      if (n == name) {
        record_trace(e, v, nullptr, 0, nullptr);
        return v;
      }
    if (s->module) {
      if (Binding* b = binding_of(e, s->module)) {
        Value v = top_value(b, e.span);
        record_trace(e, v, nullptr, 0, b->stmt->kind == ast::StmtKind::Let ? b : nullptr);
        return v;
      }
    }
  }
  if (const Function* f = builtin(name)) return Value::function(f);
  unknown_name(e, env);
}

void Interpreter::unknown_name(const ast::Expr& e, Env* env) {
  std::vector<std::string> names;
  for (Env* s = env; s; s = s->parent) {
    if (s->self)
      for (const auto& sl : s->self->slots()) names.push_back(sl.name);
    for (const auto& [n, v] : s->locals) names.push_back(n);
    if (s->module) {
      std::vector<Module*> todo{s->module};
      for (std::size_t i = 0; i < todo.size() && i < 64; ++i) {
        for (const auto& [n, b] : todo[i]->own) names.push_back(n);
        for (Module* d : todo[i]->imports) todo.push_back(d);
      }
    }
  }
  for (const auto& [n, f] : builtins_) names.push_back(n);
  Diagnostic d;
  d.code = codes::unknown_name;
  d.message = fmt::format("unknown name `{}`", e.text);
  d.labels.push_back({e.span, "not defined here", true});
  auto close = closest(e.text, names);
  if (!close.empty())
    d.help = fmt::format("did you mean `{}`?", close[0]);
  else if (units_.lookup(e.text))
    d.help = fmt::format("`{}` is a unit; a unit follows a number: write `1 {}`", e.text, e.text);
  throw Error(std::move(d));
}

Value Interpreter::eval_member(const ast::Expr& e, Env* env) {
  Value base = eval(*e.items[0], env);
  if (base.kind != Value::Kind::Record)
    fail(codes::not_a_record, e.items[0]->span,
         fmt::format("`.{}` needs a record on its left, but this is {} ({})", e.text, describe_kind(base), show(base)));
  Record* r = base.rec;
  const std::size_t i = slot_of(e, r);
  if (i == kNoSlot) {
    std::vector<std::string> names;
    for (const auto& s : r->slots()) names.push_back(s.name);
    Diagnostic d;
    d.code = codes::unknown_field;
    d.message = fmt::format("{} has no field `{}`", r->name.empty() ? "this record" : r->name, e.text);
    d.labels.push_back({e.span, "unknown field", true});
    auto close = closest(e.text, names);
    if (!close.empty()) d.help = fmt::format("did you mean `{}`?", close[0]);
    throw Error(std::move(d));
  }
  Value v = field(r, i, e.span);
  record_trace(e, v, r, i, nullptr);
  return v;
}

Value Interpreter::eval_call(const ast::Expr& e, Env* env) {
  Value callee = eval(*e.items[0], env);
  if (callee.kind != Value::Kind::Function)
    fail(codes::not_callable, e.items[0]->span,
         fmt::format("only functions can be called, but this is {} ({})", describe_kind(callee), show(callee)));
  const Function& f = *callee.fn;
  CallArgs args;
  args.call = &e;
  args.values.reserve(e.items.size() - 1);
  args.nodes.reserve(e.items.size() - 1);
  const std::vector<std::string>& names = e.arg_names;  // parallel to the arguments
  for (std::size_t i = 1; i < e.items.size(); ++i) {
    args.values.push_back(eval(*e.items[i], env));
    args.nodes.push_back(e.items[i].get());
  }
  if (f.builtin) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (!names[i].empty())
        fail(codes::bad_arguments, args.nodes[i]->span, fmt::format("{} takes no named arguments", f.signature));
    const int n = static_cast<int>(args.values.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args))
      fail(codes::bad_arguments, e.span,
           fmt::format("{} takes {} argument{}, but {} {} given", f.signature,
                       f.max_args < 0 ? fmt::format("at least {}", f.min_args)
                       : f.min_args == f.max_args ? fmt::format("{}", f.min_args)
                                                  : fmt::format("{} to {}", f.min_args, f.max_args),
                       f.max_args == 1 ? "" : "s", n, n == 1 ? "was" : "were"));
    return f.builtin(*this, args);
  }
  return call_user(f, args, names);
}

Value Interpreter::call_user(const Function& f, const CallArgs& args, const std::vector<std::string>& names) {
  const ast::Stmt& decl = *f.decl;
  if (call_depth_ >= kMaxCallDepth)
    fail(codes::recursion_limit, args.call->span,
         fmt::format("functions nested deeper than {} calls (unbounded recursion in {}?)", kMaxCallDepth, f.name));
  Env* fenv = new_env(f.module->env, nullptr, nullptr);
  struct Release {
    Interpreter* in;
    Env* env;
    ~Release() { in->release_env(env); }
  } release{this, fenv};
  std::vector<const Value*> bound(decl.params.size(), nullptr);
  std::size_t positional = 0;
  for (std::size_t i = 0; i < args.values.size(); ++i) {
    std::size_t slot;
    if (names[i].empty()) {
      slot = positional++;
      if (slot >= decl.params.size())
        fail(codes::bad_arguments, args.nodes[i]->span,
             fmt::format("{} takes {} argument{}, but {} were given", f.signature, decl.params.size(),
                         decl.params.size() == 1 ? "" : "s", args.values.size()));
    } else {
      auto it = std::find_if(decl.params.begin(), decl.params.end(), [&](const ast::Param& p) { return p.name == names[i]; });
      if (it == decl.params.end()) {
        std::vector<std::string> pn;
        for (const auto& p : decl.params) pn.push_back(p.name);
        auto close = closest(names[i], pn);
        fail(codes::bad_arguments, args.nodes[i]->span,
             fmt::format("{} has no parameter `{}`", f.signature, names[i]),
             close.empty() ? "" : fmt::format("did you mean `{}`?", close[0]));
      }
      slot = static_cast<std::size_t>(it - decl.params.begin());
    }
    if (bound[slot])
      fail(codes::bad_arguments, args.nodes[i]->span,
           fmt::format("the argument `{}` of {} is given twice", decl.params[slot].name, f.signature));
    bound[slot] = &args.values[i];
  }
  Trace* saved = trace_;
  trace_ = nullptr;  // a derivation shows the call, not the inside of the function
  ++call_depth_;
  try {
    for (std::size_t i = 0; i < decl.params.size(); ++i) {
      if (bound[i]) {
        fenv->locals.emplace_back(decl.params[i].name, *bound[i]);
      } else if (decl.params[i].default_value) {
        fenv->locals.emplace_back(decl.params[i].name, eval(*decl.params[i].default_value, fenv));
      } else {
        fail(codes::bad_arguments, args.call->span,
             fmt::format("{} needs the argument `{}`", f.signature, decl.params[i].name),
             fmt::format("pass it by position or by name: {}({} = ...)", f.name, decl.params[i].name));
      }
    }
    Value v = eval(*decl.value, fenv);
    --call_depth_;
    trace_ = saved;
    return v;
  } catch (Error& e) {
    --call_depth_;
    trace_ = saved;
    auto& notes = e.diagnostic().notes;
    if (notes.size() < 3) notes.push_back(fmt::format("in the call {} at {}", print_expr(*args.call), args.call->span.where()));
    throw;
  } catch (...) {
    --call_depth_;
    trace_ = saved;
    throw;
  }
}

Value Interpreter::eval_binary(const ast::Expr& e, Env* env) {
  using B = ast::BinOp;
  const ast::Expr& le = *e.items[0];
  const ast::Expr& re = *e.items[1];
  if (e.op == B::And || e.op == B::Or) {
    Value l = eval(le, env);
    if (l.kind != Value::Kind::Bool) type_error(l, &le, e.op == B::And ? "true or false before 'and'" : "true or false before 'or'");
    if (e.op == B::And && !l.b) return l;
    if (e.op == B::Or && l.b) return l;
    Value r = eval(re, env);
    if (r.kind != Value::Kind::Bool) type_error(r, &re, e.op == B::And ? "true or false after 'and'" : "true or false after 'or'");
    return r;
  }
  Value l = eval(le, env);
  Value r = eval(re, env);
  if (e.op == B::Eq || e.op == B::Ne) {
    if (l.kind != Value::Kind::Quantity || r.kind != Value::Kind::Quantity) {
      bool same;
      if (l.kind != r.kind)
        same = false;
      else if (l.kind == Value::Kind::Bool)
        same = l.b == r.b;
      else if (l.kind == Value::Kind::String)
        same = *l.s == *r.s;
      else if (l.kind == Value::Kind::Record)
        same = l.rec == r.rec;
      else
        fail(codes::type_mismatch, e.span, fmt::format("cannot compare two values of kind {}", kind_name(l.kind)));
      if (l.kind != r.kind) {
        Diagnostic d;
        d.code = codes::type_mismatch;
        d.message = fmt::format("cannot compare {} with {}", describe_kind(l), describe_kind(r));
        d.labels.push_back({le.span, "this is " + describe_kind(l), true});
        d.labels.push_back({re.span, "this is " + describe_kind(r), false});
        throw Error(std::move(d));
      }
      return Value::boolean(e.op == B::Eq ? same : !same);
    }
  }
  const bool comparison = e.op == B::Eq || e.op == B::Ne || e.op == B::Lt || e.op == B::Le || e.op == B::Gt || e.op == B::Ge;
  const char* what = comparison ? "a number to compare" : "a number";
  const Quantity& a = expect_quantity(l, &le, what);
  const Quantity& b = expect_quantity(r, &re, what);
  if ((e.op == B::Add || e.op == B::Sub || comparison) && a.dim != b.dim) {
    Diagnostic d;
    d.code = comparison ? codes::compare_mismatch : codes::add_mismatch;
    const std::string da = dim_name(a.dim), db = dim_name(b.dim);
    d.message = comparison ? fmt::format("cannot compare {} with {}", da, db)
                : e.op == B::Add ? fmt::format("cannot add {} and {}", da, db)
                                 : fmt::format("cannot subtract {} from {}", db, da);
    d.labels.push_back({le.span, fmt::format("this is {} ({})", da, show(l)), true});
    d.labels.push_back({re.span, fmt::format("this is {} ({})", db, show(r)), false});
    d.help = comparison ? "both sides of a comparison must have the same dimension"
                        : fmt::format("both sides of `{}` must have the same dimension", ast::op_text(e.op));
    throw Error(std::move(d));
  }
  switch (e.op) {
    case B::Add: return finite(a.v + b.v, a.dim, e.span);
    case B::Sub: return finite(a.v - b.v, a.dim, e.span);
    case B::Mul: return finite(a.v * b.v, a.dim * b.dim, e.span);
    case B::Div:
      if (b.v == 0) {
        Diagnostic d;
        d.code = codes::division_by_zero;
        d.message = "division by zero";
        d.labels.push_back({re.span, fmt::format("this is {}", show(r)), true});
        throw Error(std::move(d));
      }
      return finite(a.v / b.v, a.dim / b.dim, e.span);
    case B::Pow: {
      if (!b.dim.dimensionless())
        fail(codes::bad_power, re.span, fmt::format("an exponent must be a plain number, but this is {}", dim_name(b.dim)));
      if (a.dim.dimensionless()) return finite(std::pow(a.v, b.v), a.dim, e.span);
      if (b.v != std::trunc(b.v) || std::fabs(b.v) > 16)
        fail(codes::bad_power, re.span,
             fmt::format("{} can only be raised to a whole power (up to 16), not {}", dim_name(a.dim), show(r)),
             "a fractional power of a unit has no meaning; take the power of a plain number instead");
      const int n = static_cast<int>(b.v);
      for (auto x : a.dim.e)
        if (std::abs(x * n) > 100) fail(codes::bad_power, e.span, "the unit's power grows too large");
      return finite(std::pow(a.v, b.v), a.dim.pow(n), e.span);
    }
    case B::Eq: return Value::boolean(a.v == b.v);
    case B::Ne: return Value::boolean(a.v != b.v);
    case B::Lt: return Value::boolean(a.v < b.v);
    case B::Le: return Value::boolean(a.v <= b.v);
    case B::Gt: return Value::boolean(a.v > b.v);
    case B::Ge: return Value::boolean(a.v >= b.v);
    default: break;
  }
  fail(codes::syntax, e.span, "internal: unknown operator");
}

Value Interpreter::eval_measure(const ast::Expr& e, Env* env) {
  MeasureRequest req;
  req.probe = e.text;
  req.span = e.span;
  for (std::size_t i = 0; i < e.items.size(); ++i) req.args.emplace_back(e.arg_names[i], eval(*e.items[i], env));
  MeasureResult r;
  if (opts_.prober) {
    r = opts_.prober(*this, req);
  } else {
    r.reason = "measurements are off";
  }
  if (r.unknown_probe)
    fail(codes::unknown_probe, e.span, fmt::format("there is no probe `{}`", e.text), r.reason);
  Value v;
  if (r.ok) {
    v = r.value;
    v.note = std::make_shared<const std::string>("measured: " + r.provenance);
  } else if (e.fallback) {
    v = eval(*e.fallback, env);
    v.note = std::make_shared<const std::string>("fallback: " + r.reason);
  } else {
    Diagnostic d;
    d.code = codes::probe_unavailable;
    d.message = fmt::format("`{}` could not be measured: {}", e.text, r.reason);
    d.labels.push_back({e.span, "measured here", true});
    d.help = fmt::format("give a value to use instead: `measure({}) else 4.8 TB/s`", e.text);
    throw Error(std::move(d));
  }
  record_trace(e, v, nullptr, 0, nullptr);
  return v;
}

// ---- checks ----------------------------------------------------------------

CheckResult Interpreter::run_check(const ast::Stmt& s) {
  CheckResult res;
  res.stmt = &s;
  res.source = std::string(s.span.text());
  res.line = s.span.file->line_col(s.span.begin).first;
  Module* m = module_of(s.span.file);
  Trace* saved = trace_;
  trace_ = &res.trace;
  try {
    Value a = eval(*s.value, m->env);
    if (!s.approx) {
      if (a.kind != Value::Kind::Bool) {
        Diagnostic d;
        d.code = codes::check_not_bool;
        d.message = fmt::format("a check needs a condition (true or false), but this is {} ({})", describe_kind(a),
                                clip(show(a), 80));
        d.labels.push_back({s.value->span, "this is " + describe_kind(a), true});
        d.help = "compare it with something: `check x < 80 GB`, or `check x ≈ 80 GB within 1%`";
        throw Error(std::move(d));
      }
      res.passed = a.b;
    } else {
      Value b = eval(*s.expected, m->env);
      Value t = eval(*s.tolerance, m->env);
      const Quantity& qa = expect_quantity(a, s.value.get(), "a number before '≈'");
      const Quantity& qb = expect_quantity(b, s.expected.get(), "a number after '≈'");
      const Quantity& qt = expect_quantity(t, s.tolerance.get(), "a tolerance after 'within'");
      if (qa.dim != qb.dim) {
        Diagnostic d;
        d.code = codes::compare_mismatch;
        d.message = fmt::format("cannot compare {} with {}", dim_name(qa.dim), dim_name(qb.dim));
        d.labels.push_back({s.value->span, fmt::format("this is {} ({})", dim_name(qa.dim), show(a)), true});
        d.labels.push_back({s.expected->span, fmt::format("this is {} ({})", dim_name(qb.dim), show(b)), false});
        throw Error(std::move(d));
      }
      res.actual = a;
      res.expected = b;
      const double diff = std::fabs(qa.v - qb.v);
      if (qt.dim.dimensionless()) {
        const double rel = qb.v == 0 ? (qa.v == 0 ? 0 : INFINITY) : diff / std::fabs(qb.v);
        res.passed = rel <= qt.v * (1 + 1e-12);
        res.detail = fmt::format("off by {}% (allowed {}%)", format_number(rel * 100, 3), format_number(qt.v * 100, 3));
      } else if (qt.dim == qa.dim) {
        res.passed = diff <= qt.v;
        res.detail = fmt::format("off by {} (allowed {})", show(Value::quantity(diff, qa.dim)), show(t));
      } else {
        fail(codes::compare_mismatch, s.tolerance->span,
             fmt::format("a tolerance must be a plain fraction (1%) or {} like the values, but this is {}",
                         dim_name(qa.dim), dim_name(qt.dim)));
      }
    }
  } catch (...) {
    trace_ = saved;
    throw;
  }
  trace_ = saved;
  return res;
}

}  // namespace napkin
