// Fields and top-level bindings: evaluated once, on first use, with cycles
// reported as the chain that closed them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

std::string Interpreter::frame_label(const Frame& f) {
  if (f.binding) return f.binding->name;
  // A `with` record is named once it is made; while it is being made, by its base.
  const std::string rec = !f.rec->name.empty() ? f.rec->name
                          : f.rec->base && !f.rec->base->name.empty() ? "(" + f.rec->base->name + " with { … })"
                                                                        : "(record)";
  return rec + "." + f.rec->slots()[f.slot].name;
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
  if (it != stack_.end()) {
    // Asked for by no formula (the report lists every field): the first
    // frame's place is the field's own name.
    const Span own = it->binding ? it->binding->stmt->name_span
                     : it->rec && it->rec->slots()[it->slot].decl ? it->rec->slots()[it->slot].decl->name_span
                                                                  : Span{};
    const bool asked_by_name = it->span.file == own.file && it->span.begin == own.begin && it->span.end == own.end;
    d.labels.push_back({it->span, asked_by_name ? fmt::format("`{}` is defined here", label) : "first needed here", false});
  }
  d.notes.push_back("cycle: " + chain);
  d.help = "give one of the fields in the cycle a value that does not depend on the others";
  if (it != stack_.end() && it + 1 == stack_.end() && !it->binding) {  // a field that uses itself
    const Slot& slot = it->rec->slots()[it->slot];
    if (slot.super && slot.super->find(slot.name))
      d.help = fmt::format("to use {}'s value of `{}`, write `super.{}`",
                           slot.super->name.empty() ? "the base record" : slot.super->name, slot.name, slot.name);
  }
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
  FrameScope frame(*this, {nullptr, 0, b, use.valid() ? use : s.name_span});
  TraceScope scope(*this, tracing_ ? &st.trace : nullptr);
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
      } else if (v.kind == Value::Kind::Record && s.kind == ast::StmtKind::Let && v.rec->name.empty()) {
        // A record a `let` makes goes by the let's name, in errors and
        // wherever a field shows it, not by the first field that uses it.
        v.rec->name = s.name;
      }
    }
    st.value = v;
    st.status = FieldState::Status::Done;
  } catch (...) {
    remember_failure(st);
  }
  return st.value;
}

void Interpreter::check_type(Record* r, std::size_t i, const Value& v) {
  const Slot& slot = r->slots()[i];
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
  if (t.kind == ast::TypeKind::Unit && v.kind == Value::Kind::Quantity) {
    d.help = fmt::format("give it a value in {}, such as `1 {}`", t.text, t.text);
    // `400 Gb` where a bandwidth is due: the rate's "/s" left off.
    const auto second = units_.lookup("s");
    const ast::Expr* written = slot.decl->value.get();
    if (second && written && written->unit && v.q.dim * second->dim.pow(-1) == resolve_unit(t.unit).dim)
      d.help = fmt::format("a rate is per second: write `{}/s`", written->span.text());
  }
  throw Error(std::move(d));
}

Value Interpreter::field(Record* r, std::size_t i, Span use) {
  // A record's memo is made when a field of it is first asked for.
  if (r->state.size() < r->slots().size()) [[unlikely]] {
    if (r->retired) fail(codes::internal, use, "a field of a retired sweep or solve point was asked for");
    r->state.resize(r->slots().size());
    validate(r);
  }
  if (r->domain_error) [[unlikely]] {
    // A copy for each use: the notes a use adds ("while computing …") are
    // its own, not every later use's.
    try {
      std::rethrow_exception(r->domain_error);
    } catch (const MissingInput&) {
      throw;
    } catch (const Error& e) {
      throw Error(e.diagnostic());
    }
  }
  FieldState& st = r->state[i];
  if (st.status == FieldState::Status::Done) return st.value;
  if (st.status == FieldState::Status::Failed) std::rethrow_exception(st.error);
  const Slot& slot = r->slots()[i];
  // Spelled out only when needed: most fields evaluate without error.
  auto field_label = [&] { return frame_label(Frame{r, i, nullptr, Span{}}); };
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
  FrameScope frame(*this, {r, i, nullptr, use.valid() ? use : slot.decl->name_span});
  TraceScope scope(*this, tracing_ ? &st.trace : nullptr);
  try {
    Env* env = new_env(slot.env, r, nullptr);
    env->sees = slot.sees;
    struct Release {
      Interpreter* in;
      Env* env;
      ~Release() { in->release_env(env); }
    } release{this, env};
    Value v = eval(*slot.decl->value, env);
    check_type(r, i, v);
    if (v.kind == Value::Kind::Record && v.rec->name.empty()) v.rec->name = field_label();
    st.value = std::move(v);
    st.status = FieldState::Status::Done;
  } catch (Error& e) {
    Diagnostic& d = e.diagnostic();
    if (d.notes.size() < 3)
      d.notes.push_back(fmt::format("while computing {} ({})", field_label(), mention(d, slot.decl->name_span, Mention::In::note, false)));
    note_needed_by(d, field_label(), use);
    remember_failure(st);
  } catch (...) {
    remember_failure(st);
  }
  return st.value;
}

Value Interpreter::eval_in(Where where, const ast::Expr& e, Trace* trace) {
  TraceScope scope(*this, trace);
  if (!where.self) return eval(e, where.module->env);
  Env* env = new_env(where.module->env, where.self, nullptr);
  struct Release {
    Interpreter* in;
    Env* env;
    ~Release() { in->release_env(env); }
  } release{this, env};
  return eval(e, env);
}

}  // namespace napkin
