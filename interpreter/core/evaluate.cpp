// The expression walker, and how a name finds its field or binding.
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
#include "range_ops.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "declarations.hpp"
#include "did_you_mean.hpp"
#include "suggest.hpp"

namespace napkin {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxEvalDepth = 2000;
}  // namespace

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
    case K::Number: return eval_number(e);
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
      if (v.samples) return map_samples(*this, v, Value::quantity(-q.v, q.dim), e.span, [](double x) { return -x; });
      return Value::quantity(-q.v, q.dim);
    }
    case K::Not: {
      Value v = eval(*e.items[0], env);
      if (v.kind != Value::Kind::Bool) type_error(v, e.items[0].get(), "true or false after 'not'");
      return Value::boolean(!v.b);
    }
    case K::If: return eval_if(e, env);
    case K::Convert: return eval_convert(e, env);
    case K::With: return eval_with(e, env);
    case K::Binary: return eval_binary(e, env);
    case K::Measure: return eval_measure(e, env);
  }
  fail(codes::internal, e.span, "unknown expression");
}

Value Interpreter::eval_number(const ast::Expr& e) {
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
    static const DisplayUnit* const percent = intern_display("%", 0.01);
    out.display = percent;
  }
  return out;
}

Value Interpreter::eval_convert(const ast::Expr& e, Env* env) {
  Value v = eval(*e.items[0], env);
  const Quantity& q = expect_quantity(v, e.items[0].get(), "a number to convert");
  const UnitDef u = resolve_unit(*e.unit);
  if (u.dim != q.dim) {
    Diagnostic d;
    d.code = codes::convert_mismatch;
    d.message = fmt::format("cannot show {} in {}: it is {}, and {} is {}", show(v), e.unit->text, dim_name(q.dim),
                            e.unit->text, dim_name(u.dim));
    d.labels.push_back({e.items[0]->span, "this is " + dim_name(q.dim), true});
    d.labels.push_back({e.unit->span, "this is " + dim_name(u.dim), false});
    throw Error(std::move(d));
  }
  Value out = v;
  out.display = intern_display(e.unit->text, u.scale);
  return out;
}

Value Interpreter::eval_with(const ast::Expr& e, Env* env) {
  Value b = eval_record_operand(*e.items[0], env);
  if (b.kind != Value::Kind::Record)
    fail(codes::not_a_record, e.items[0]->span,
         fmt::format("`with` needs a record on its left, but this is {}", describe_kind(b)));
  Record* r = derive(b.rec, e.fields, env, e.span);
  r->name = "";
  r->kind = b.rec->kind;
  r->span = e.span;
  // Every name the block misspells is reported at once.
  std::vector<const ast::FieldDecl*> unknown;
  for (const auto& f : e.fields)
    if (!b.rec->find(f.name)) unknown.push_back(&f);
  if (!unknown.empty()) {
    std::vector<std::string> names;
    for (const auto& s : b.rec->slots()) names.push_back(s.name);
    Diagnostic d;
    d.code = codes::unknown_field;
    std::string listed, meant;
    bool all_close = true;
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      const ast::FieldDecl& f = *unknown[i];
      const auto close = closest(f.name, names);
      const char* sep = i == 0 ? "" : i + 1 == unknown.size() ? " and " : ", ";
      listed += sep + ("`" + f.name + "`");
      if (close.empty()) all_close = false;
      else meant += sep + ("`" + close[0] + "`");
      d.labels.push_back({f.name_span,
                          unknown.size() == 1 || close.empty() ? "not a field of " + b.rec->name
                                                               : fmt::format("did you mean `{}`?", close[0]),
                          i == 0});
    }
    d.message = fmt::format("{} has no field{} {} to replace", b.rec->name, unknown.size() == 1 ? "" : "s", listed);
    const std::string extend = "`with` replaces existing fields; to add fields, declare a record that extends it";
    // A name unlike any field (`tpot_budget` for `tpot_bound`): the inputs
    // declared in the unit its value is written in.
    std::string same_unit;
    if (unknown.size() == 1 && meant.empty() && unknown[0]->value && unknown[0]->value->kind == ast::ExprKind::Number &&
        unknown[0]->value->unit) {
      const Dim want = resolve_unit(*unknown[0]->value->unit).dim;
      std::vector<std::string> inputs;
      for (const auto& sl : b.rec->slots())
        if (sl.type_decl && sl.type_decl->type.kind == ast::TypeKind::Unit &&
            resolve_unit(sl.type_decl->type.unit).dim == want && inputs.size() < 6)
          inputs.push_back("`" + sl.name + "`");
      for (std::size_t i = 0; i < inputs.size(); ++i)
        same_unit += (i == 0 ? "" : i + 1 == inputs.size() ? " or " : ", ") + inputs[i];
      if (!same_unit.empty())
        same_unit = fmt::format("{}'s inputs in {}: {}", b.rec->name, unknown[0]->value->unit->text, same_unit);
    }
    if (unknown.size() == 1)
      d.help = meant.empty() ? (same_unit.empty() ? extend : same_unit) : fmt::format("did you mean {}?", meant);
    else
      d.help = all_close ? fmt::format("did you mean {}?", meant) : extend;
    throw Error(std::move(d));
  }
  for (const auto& f : e.fields)
    if (const Slot* s = b.rec->find(f.name)) refuse_derived(b.rec, *s, f.name_span, "replaces a derived field");
  return Value::record(r);
}

// A library record's derived field (one its file works out: a formula,
// not a literal, with no declared type) is no input: `gpus = 256` in a
// training plan would stand beside the tp·pp·cp·dp it is made of, and every
// figure that reads it would disagree with the rest. `with`, a sweep and a
// solve may not replace one.
void Interpreter::refuse_derived(const Record* base, const Slot& s, Span at, const char* label) {
  if (!s.decl || s.type_decl || !s.decl->value || ast::is_literal(*s.decl->value) || !from_library(s.decl->span) ||
      from_library(at))
    return;
  Diagnostic d;
  d.code = codes::derived_field;
  d.message = fmt::format("`{}` of {} is worked out, not an input: `{} = {}`", s.name, base->name, s.name,
                          print_expr(*s.decl->value));
  d.labels.push_back({at, label, true});
  d.labels.push_back({s.decl->name_span, "worked out here", false});
  d.help = "set the inputs it is made of instead; to replace it anyway, declare a record that extends this one";
  throw Error(std::move(d));
}

Interpreter::NodeCache& Interpreter::cache_of(const ast::Expr& e) {
  NodeCache& c = node_cache_[e.id & cache_mask_];
  if (c.node == &e) [[likely]] return c;
  return new_cache(e);
}

Interpreter::NodeCache& Interpreter::new_cache(const ast::Expr& e) {
  if (++cache_used_ * 2 > node_cache_.size()) {
    std::vector<NodeCache> old(node_cache_.size() * 2);
    old.swap(node_cache_);
    cache_mask_ = node_cache_.size() - 1;
    cache_used_ = 1;
    for (const NodeCache& c : old)
      if (c.node) {
        node_cache_[c.node->id & cache_mask_] = c;
        ++cache_used_;
      }
  }
  return node_cache_[e.id & cache_mask_] = NodeCache{&e};
}

std::size_t Interpreter::slot_of(const ast::Expr& e, const Record* r) {
  NodeCache& c = cache_of(e);
  const SlotTable* t = r->table.get();
  if (c.table != t) {
    c.table = t;
    c.slot = t->find(e.text);  // SlotTable::npos is kNoSlot
  }
  return c.slot;
}

Binding* Interpreter::binding_of(const ast::Expr& e, Module* m) {
  NodeCache& c = cache_of(e);
  if (c.module != m) {
    c.module = m;
    c.binding = lookup_binding(m, e);
  }
  return c.binding;
}

namespace {
bool within(const Span& inner, const ast::Expr* outer) {
  return outer && inner.file == outer->span.file && inner.begin >= outer->span.begin && inner.end <= outer->span.end;
}
}  // namespace

// A top-level value is not recursive: in a `let`'s own formula, and in the
// base a record `extends`, its own name is the name it hides, one the file
// imports (`let full_recompute = f(recompute = full_recompute)` passes the
// library's record). With nothing of that name imported, the name is the
// value itself, and using it is a cycle.
Binding* Interpreter::lookup_binding(Module* m, const ast::Expr& e) {
  Binding* b = find_binding(m, e.text);
  if (!b || b->module != m) return b;
  const ast::Stmt& st = *b->stmt;
  const bool own_formula = (st.kind == ast::StmtKind::Let && within(e.span, st.value.get())) ||
                           (st.kind == ast::StmtKind::Record && within(e.span, st.base.get()));
  if (!own_formula) return b;
  for (Module* dep : m->imports)
    if (Binding* hidden = find_binding(dep, e.text)) return hidden;
  return b;
}

// A bare name is a field of the record being evaluated (one its formula's
// block knew: Slot::sees), a local, a top-level name of the formula's file,
// or a builtin; in call position a field counts only if declared `: fn`.
Value Interpreter::eval_name(const ast::Expr& e, Env* env, bool callee) {
  const std::string& name = e.text;
  Hidden hidden;  // a field passed over, for the error if nothing else is found
  bool innermost = true;  // no block's record passed over yet: `super` is this one's base
  for (Env* s = env; s; s = s->parent) {
    if (s->self) {
      if (const std::size_t i = slot_of(e, s->self); i != kNoSlot) {
        if (field_in_scope(*s->self->table, i, s->sees, callee)) [[likely]] {
          // A `with { }` written in a function: the field wins over the
          // function's parameter of the same name, which is never what the
          // writer of `fn f(batch) = r with { c = batch }` meant. Scopes
          // chain lexically, so only the functions the block is written
          // in are searched, through any blocks around it.
          if (const Env* p = scope_with_local(s->parent, name)) [[unlikely]]
            shadowed_parameter(e, s->self, *p, innermost);
          Value v = field(s->self, i, e.span);
          record_trace(e, v, s->self, i, nullptr);
          return v;
        }
        if (!hidden.rec) hidden = {s->self, i, i < s->sees};
      }
      innermost = false;
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
  if (name == "super") return super_of(e, env);
  if (hidden.rec) hidden_field(e, hidden);
  unknown_name(e, env);
}

// A bare name in a `with { }` block that names both a field of the
// record and a parameter of the function the block is written in: the
// field is read, the argument is not.
void Interpreter::shadowed_parameter(const ast::Expr& e, const Record* r, const Env& fn_scope, bool innermost) {
  // A `with` record has no name of its own: name the record it modifies.
  const Record* named = r;
  while (named && named->name.empty()) named = named->base;
  const std::string rec = named ? named->name : "this record";
  Diagnostic d;
  d.code = codes::shadowed_parameter;
  d.message = fmt::format("`{}` here names the field `{}` of {}, not the parameter `{}` of the function the block is "
                          "written in",
                          e.text, e.text, rec, e.text);
  d.labels.push_back({e.span, fmt::format("read as {}'s field: inside `with {{ }}` a field comes first", rec), true});
  if (fn_scope.fn)
    for (const ast::Param& p : fn_scope.fn->params)
      if (p.name == e.text) d.labels.push_back({p.span, "the parameter, which this name does not reach", false});
  d.help = fmt::format("give the parameter a name {} has no field of (`fn f(n) = … with {{ … = n }}`)", rec);
  if (innermost) d.help += fmt::format("; for the field's value before the block, write `super.{}`", e.text);
  throw Error(std::move(d));
}

// A name that only a field passed over could have meant: a field called
// that is not declared `: fn`, or one that the formula's block does not
// know (a later `extends` added it).
void Interpreter::hidden_field(const ast::Expr& e, const Hidden& h) {
  const Slot& slot = h.rec->slots()[h.slot];
  const std::string rec = h.rec->name.empty() ? "this record" : h.rec->name;
  Diagnostic d;
  if (h.visible) {  // called: only a field declared `: fn` is found there
    d.code = codes::uncallable_field;
    d.message = fmt::format("`{}` is called here, but it names a field of {} that is not declared as a function",
                            e.text, rec);
    d.labels.push_back({e.span, "a name in call position finds only functions", true});
    if (slot.decl) d.labels.push_back({slot.decl->name_span, "the field, declared without `: fn`", false});
    d.help = fmt::format("a field that holds a function is declared so: `{}: fn = …`", e.text);
    throw Error(std::move(d));
  }
  // The formula being evaluated is the field on top of the stack.
  std::string formula = "this formula";
  for (auto f = stack_.rbegin(); f != stack_.rend(); ++f)
    if (!f->binding) {
      const Slot& s = f->rec->slots()[f->slot];
      if (s.decl) formula = fmt::format("the formula of `{}` ({})", s.name, mention(d, s.decl->name_span, Mention::In::message, false));
      break;
    }
  d.code = codes::unknown_name;
  d.message = fmt::format("unknown name `{}`: {} was written in a block that has no field `{}`", e.text, formula, e.text);
  d.labels.push_back({e.span, "not defined where this formula was written", true});
  if (slot.decl) d.labels.push_back({slot.decl->name_span, "added by a block that extends it: the formula does not see it", false});
  d.help = fmt::format("a formula sees the fields of its own block and its base's; for a record that extends it to "
                       "set `{}`, declare it in that block (`{}: TYPE`)",
                       e.text, e.text);
  throw Error(std::move(d));
}

// `super` in a field's formula is the record that the field's block
// extends (or `with`s): `base with { batch = super.batch * 2 }`.
Value Interpreter::super_of(const ast::Expr& e, Env* env) {
  Env* s = env;
  while (s && !s->self) s = s->parent;
  const Slot* slot = nullptr;
  if (s)
    for (auto f = stack_.rbegin(); f != stack_.rend(); ++f)
      if (!f->binding && f->rec == s->self) {
        slot = &f->rec->slots()[f->slot];
        break;
      }
  if (!slot || !slot->super) {
    Diagnostic d;
    d.code = codes::unknown_name;
    d.message = slot ? fmt::format("`super` has nothing to name here: the block that declares `{}` extends no record", slot->name)
                     : "`super` has nothing to name here: it is only meaningful in a field's formula";
    d.labels.push_back({e.span, "no base record here", true});
    d.help = "`super.FIELD` is the base's value of FIELD, in a `with { }` block or a record that `extends` another";
    throw Error(std::move(d));
  }
  Value v = Value::record(slot->super);
  record_trace(e, v, nullptr, 0, nullptr);
  return v;
}

void Interpreter::unknown_name(const ast::Expr& e, Env* env) {
  std::vector<std::string> names;
  std::vector<Spelling> spellings;
  for (Env* s = env; s; s = s->parent) {
    if (s->self)
      for (const auto& sl : s->self->slots()) names.push_back(sl.name);
    for (const auto& [n, v] : s->locals) names.push_back(n);
    if (s->module) {
      std::vector<Module*> todo{s->module};
      for (std::size_t i = 0; i < todo.size() && i < 64; ++i) {
        for (const auto& [n, b] : todo[i]->own) names.push_back(n);
        add_spellings(*todo[i], spellings);
        for (Module* d : todo[i]->imports) todo.push_back(d);
      }
    }
  }
  if (record_operand_ != &e)
    for (const auto& [n, f] : builtins_) names.push_back(n);
  Diagnostic d;
  d.code = codes::unknown_name;
  d.message = fmt::format("unknown name `{}`", e.text);
  d.labels.push_back({e.span, "not defined here", true});
  auto close = suggestions(e.text, names, spellings);
  const std::string module = std_module_defining(e.text);
  // A record with a field of exactly this name says more than a near spelling.
  const std::string owner = module.empty() ? record_with_field(e.text, env) : std::string();
  if (!module.empty())
    d.help = fmt::format("`{}` is defined in std/{}, which this file does not import: add `import \"std/{}\"`",
                         e.text, module, module);
  else if (!owner.empty())
    d.help = fmt::format("`{}` is a field of {}: write `{}.{}`", e.text, owner, owner, e.text);
  else if (!close.empty())
    d.help = did_you_mean(close);
  else if (units_.lookup(e.text))
    d.help = fmt::format("`{}` is a unit; a unit follows a number: write `1 {}`", e.text, e.text);
  throw Error(std::move(d));
}

// The first record defined at the top level of the file `env` reads (its
// own statements, in order) that has a field `name`, "" if none: a bare
// field name asked for outside its record. A record not made yet is made
// only when nothing else is being evaluated (an expression of `napkin
// explain`, say): in the middle of another value, making one could meet a
// value still being made and leave it remembered as a cycle.
std::string Interpreter::record_with_field(const std::string& name, Env* env) {
  Env* top = env;
  while (top && !top->module) top = top->parent;
  if (!top) return {};
  const bool idle = stack_.empty();
  for (Binding* b : top->module->order) {
    if (!b->stmt || b->stmt->kind != ast::StmtKind::Record) continue;
    const FieldState::Status status = b->state.status;
    if (status != FieldState::Status::Done && !(idle && status == FieldState::Status::Unevaluated)) continue;
    try {
      const Value v = top_value(b, Span{});
      if (v.kind == Value::Kind::Record && v.rec && v.rec->find(name)) return b->name;
    } catch (const Error&) {
      // A record that cannot be made names no field.
    }
  }
  return {};
}

// Which standard module defines `name` at its top level ("" if none). The
// built-in modules' names were listed when napkin was built; a module from
// --stdlib is parsed, not loaded: loading one would declare its units.
std::string Interpreter::std_module_defining(const std::string& name) {
  if (!std_index_built_) {
    std_index_built_ = true;
    for (std::size_t i = 0; i < kStdlibCount; ++i) {
      const std::string mod = kStdlib[i].name;
      if (!opts_.stdlib_dir.empty()) {
        // Read as load_std reads it: a regular file, within the size limit
        // (a --stdlib module that is /dev/zero must not be read forever).
        std::string text;
        if (read_source((fs::path(opts_.stdlib_dir) / (mod + ".napkin")).string(), text) == 0) {
          const SourceFile file{"std/" + mod, std::move(text), ""};
          try {
            for (const auto& st : parse_module(file).statements)
              if (st.kind == ast::StmtKind::Let || st.kind == ast::StmtKind::Fn || st.kind == ast::StmtKind::Record)
                std_index_.emplace(st.name, mod);
          } catch (const Error&) {
            // A broken --stdlib file says so when it is imported.
          }
          continue;
        }
      }
      for (std::size_t j = 0; j < kStdlib[i].name_count; ++j) std_index_.emplace(kStdlib[i].names[j], mod);
    }
  }
  auto it = std_index_.find(name);
  return it == std_index_.end() ? "" : it->second;
}

Value Interpreter::eval_member(const ast::Expr& e, Env* env) {
  Value base = eval_record_operand(*e.items[0], env);
  if (base.kind != Value::Kind::Record)
    fail(codes::not_a_record, e.items[0]->span,
         fmt::format("`.{}` needs a record on its left, but this is {} ({})", e.text, describe_kind(base), show(base)));
  Record* r = base.rec;
  const std::size_t i = slot_of(e, r);
  if (i == kNoSlot) {
    std::vector<std::string> names;
    for (const auto& s : r->slots()) names.push_back(s.name);
    std::vector<Spelling> spellings;
    for (const auto& mod : modules_) add_spellings(*mod, spellings);
    Diagnostic d;
    d.code = codes::unknown_field;
    d.message = fmt::format("{} has no field `{}`", r->name.empty() ? "this record" : r->name, e.text);
    d.labels.push_back({e.span, "unknown field", true});
    auto close = suggestions(e.text, names, spellings);
    if (!close.empty()) d.help = did_you_mean(close);
    // The library asks for the right name of a record the user wrote (a
    // config read by import_json): the near spelling is the user's, and
    // the one to mend.
    const Slot* near = close.empty() ? nullptr : r->find(close[0]);
    if (from_library(e.span) && near && near->decl && near->decl->span.valid() && !from_library(near->decl->span)) {
      std::string where = near->decl->span.file->name;
      if (where.ends_with(" (as napkin)")) where.resize(where.size() - 12);
      d.message += fmt::format(", which {} reads", e.span.file->name);
      d.help = fmt::format("{} has `{}`: if that is meant, name it `{}` in {}", r->name.empty() ? "the record" : r->name,
                           close[0], e.text, where);
    }
    throw Error(std::move(d));
  }
  Value v = field(r, i, e.span);
  record_trace(e, v, r, i, nullptr);
  return v;
}

}  // namespace napkin
