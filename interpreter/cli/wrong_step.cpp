#include "wrong_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "interpreter/core/format.hpp"
#include "interpreter/derivation/derivation.hpp"

namespace napkin::cli {

namespace {

std::string step_name(Record* r, std::size_t i) {
  return r->name.empty() ? std::string() : r->name + "." + r->slots()[i].name;
}

const Trace* trace_of(const Step& s) {
  if (s.rec) return s.rec->state.size() > s.idx ? &s.rec->state[s.idx].trace : nullptr;
  return s.binding ? &s.binding->state.trace : nullptr;
}

void collect(const Trace& t, std::vector<Step>& out) {
  for (const auto& e : t.entries) {
    if (e.rec) out.push_back(Step{e.rec, e.field, nullptr, step_name(e.rec, e.field)});
    else if (e.binding && e.binding->stmt && e.binding->stmt->kind == ast::StmtKind::Let)
      out.push_back(Step{nullptr, 0, e.binding, e.binding->name});
    if (e.call) collect(e.call->trace, out);
  }
}

// `dotted` ("q6.kv_per_token") as module `m` of `in` sees it, if it has a value.
bool lookup(Interpreter& in, Module* m, const std::string& dotted, Value& out) {
  std::vector<std::string> parts;
  for (std::size_t b = 0;;) {
    const std::size_t e = dotted.find('.', b);
    parts.push_back(dotted.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  try {
    Binding* b = in.find_binding(m, parts[0]);
    if (!b || !b->stmt || b->stmt->kind == ast::StmtKind::Fn) return false;
    Value v = in.top_value(b, Span{});
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (v.kind != Value::Kind::Record) return false;
      const std::size_t idx = v.rec->table->find(parts[i]);
      if (idx == SlotTable::npos) return false;
      v = in.field(v.rec, idx, v.rec->span);
    }
    out = v;
    return true;
  } catch (const Error&) {
    return false;
  }
}

// 1: the values differ, 0: they agree, -1: they cannot be compared (records,
// functions, lists).
int compare(const Value& a, const Value& b) {
  if (a.kind != b.kind) return 1;
  switch (a.kind) {
    case Value::Kind::Quantity: {
      if (a.q.dim != b.q.dim) return 1;
      const double scale = std::max(std::fabs(a.q.v), std::fabs(b.q.v));
      return std::fabs(a.q.v - b.q.v) <= 1e-9 * scale ? 0 : 1;
    }
    case Value::Kind::Bool: return a.b == b.b ? 0 : 1;
    case Value::Kind::String: return a.str() == b.str() ? 0 : 1;
    default: return -1;
  }
}

// Exact integers in the unit of their dimension (`491,520 B/token`), as a
// student counts them; other values as napkin shows them.
std::string shown(const Interpreter& in, const Value& v) {
  if (v.kind == Value::Kind::Quantity && !v.display && !v.samples && is_exact_integer(v.q.v) && std::fabs(v.q.v) < 1e15)
    return v.q.dim.dimensionless() ? format_exact(v.q.v) : format_exact(v.q.v) + " " + in.units().format(v.q.dim);
  return in.show(v);
}

}  // namespace

std::vector<Step> Comparison::answers_of(const Trace& check_trace) {
  std::vector<Step> out;
  for (const auto& e : check_trace.entries) {
    Step s;
    if (e.rec) s = Step{e.rec, e.field, nullptr, step_name(e.rec, e.field)};
    else if (e.binding && e.binding->stmt && e.binding->stmt->kind == ast::StmtKind::Let)
      s = Step{nullptr, 0, e.binding, e.binding->name};
    else
      continue;
    if (std::none_of(out.begin(), out.end(), [&](const Step& o) { return !(o < s) && !(s < o); })) out.push_back(s);
  }
  return out;
}

std::vector<Step> Comparison::deps(const Step& s) {
  std::vector<Step> out;
  if (const Trace* t = trace_of(s)) collect(*t, out);
  return out;
}

std::set<Step> Comparison::closure(const Step& s) {
  std::set<Step> seen{s};
  std::vector<Step> todo{s};
  while (!todo.empty() && seen.size() < 100'000) {
    const Step x = todo.back();
    todo.pop_back();
    for (const Step& d : deps(x))
      if (seen.insert(d).second) todo.push_back(d);
  }
  return seen;
}

const Value* Comparison::sub_value(const Step& s) {
  if (s.rec) {
    if (s.rec->state.size() <= s.idx || s.rec->state[s.idx].status != FieldState::Status::Done) return nullptr;
    return &s.rec->state[s.idx].value;
  }
  return s.binding && s.binding->state.status == FieldState::Status::Done ? &s.binding->state.value : nullptr;
}

bool Comparison::ref_value(const std::string& dotted, Value& out) { return lookup(ref_, ref_m_, dotted, out); }

int Comparison::differs(const Step& s) {
  const Value* v = sub_value(s);
  Value r;
  if (s.name.empty() || !v || !ref_value(s.name, r)) return -1;
  return compare(*v, r);
}

bool Comparison::tainted(const Step& s, std::set<Step>& seen) {
  if (!seen.insert(s).second) return false;  // a cycle cannot be: each field was computed once
  if (differs(s) == 1) return true;
  for (const Step& d : deps(s))
    if (tainted(d, seen)) return true;
  return false;
}

std::string Comparison::derivation(const Step& s) {
  const ast::Expr* formula = nullptr;
  if (s.rec) {
    const Slot& slot = s.rec->slots()[s.idx];
    if (slot.decl) formula = slot.decl->value.get();
  } else if (s.binding && s.binding->stmt) {
    formula = s.binding->stmt->value.get();
  }
  const Value* v = sub_value(s);
  const Trace* t = trace_of(s);
  if (!formula || !v || !t) return "";
  const std::string where = formula->span.where_line();
  if (is_literal(*formula)) return fmt::format("you wrote {} = {} ({})", s.name, formula->span.text(), where);
  const Derivation d = derive(sub_, *formula, *t, *v);
  const std::vector<std::string> lines = derivation_text(d);
  const std::string head = fmt::format("your derivation ({}): ", where);
  std::string out = head + s.name + " = " + (lines.empty() ? sub_.show(*v) : lines[0]);
  const std::string indent(head.size() + s.name.size() + 1, ' ');
  for (std::size_t i = 1; i < lines.size(); ++i) out += "\n" + indent + "= " + lines[i];
  return out;
}

std::vector<Step> Comparison::first_wrong(const Step& answer) {
  // The steps under the answer, inputs first (post-order), and of them those
  // that differ while nothing they use does.
  std::vector<Step> order;
  std::set<Step> visited;
  std::function<void(const Step&)> visit = [&](const Step& s) {
    if (!visited.insert(s).second || visited.size() > 100'000) return;
    for (const Step& d : deps(s)) visit(d);
    order.push_back(s);
  };
  visit(answer);
  std::vector<Step> out;
  for (const Step& s : order) {
    if (differs(s) != 1) continue;
    bool below = false;
    for (const Step& d : deps(s)) {
      std::set<Step> seen;
      below = below || tainted(d, seen);
    }
    if (!below) out.push_back(s);
  }
  return out;
}

const DisplayUnit* Comparison::written_unit(const Step& s) {
  const Value* v = sub_value(s);
  if (!v || v->kind != Value::Kind::Quantity) return nullptr;
  if (v->display) return v->display;
  const ast::Expr* formula = nullptr;
  if (s.rec) {
    if (const Slot& slot = s.rec->slots()[s.idx]; slot.decl) formula = slot.decl->value.get();
  } else if (s.binding && s.binding->stmt) {
    formula = s.binding->stmt->value.get();
  }
  if (formula && formula->kind == ast::ExprKind::Negate && !formula->items.empty()) formula = formula->items[0].get();
  if (!formula || formula->kind != ast::ExprKind::Number || !formula->unit || formula->percent ||
      formula->unit->text.empty() || formula->unit->text[0] == '$')
    return nullptr;
  try {
    return intern_display(formula->unit->text, sub_.resolve_unit(*formula->unit).scale);
  } catch (const Error&) {
    return nullptr;
  }
}

// The student's value in the unit the student wrote it in.
std::string Comparison::shown_mine(const Step& s, const Value& v) {
  if (const DisplayUnit* u = written_unit(s); u && !v.display) {
    Value in_unit = v;
    in_unit.display = u;
    return sub_.show(in_unit);
  }
  return shown(sub_, v);
}

std::vector<std::string> Comparison::explain(const Step& s, const std::vector<Step>& all_answers, bool show_reference) {
  std::vector<std::string> out;
  const Value* mine_p = sub_value(s);
  Value theirs;
  if (!mine_p || !ref_value(s.name, theirs)) return out;
  const Value& mine = *mine_p;
  std::string how;
  if (mine.kind == Value::Kind::Quantity && theirs.kind == Value::Kind::Quantity) {
    if (mine.q.dim != theirs.q.dim)
      how = show_reference ? fmt::format(" (it is {}, the reference {})", sub_.dim_name(mine.q.dim), ref_.dim_name(theirs.q.dim))
                           : fmt::format(" (it is {}, which is not what the question asks for)", sub_.dim_name(mine.q.dim));
    else if (theirs.q.v != 0 && show_reference)
      how = fmt::format(" (×{})", format_number(mine.q.v / theirs.q.v, 4));
  }
  int depending = 0;
  for (const Step& a : all_answers)
    if (a.name != s.name && closure(a).count(s)) ++depending;
  const std::string dep_text = depending == 0   ? "no other answer depends on it"
                               : depending == 1 ? "1 answer depends on it"
                                                : fmt::format("{} answers depend on it", depending);
  const std::string value = show_reference ? fmt::format("{}, the reference {}", shown_mine(s, mine), shown(ref_, theirs))
                                           : fmt::format("{}, not the reference's value", shown_mine(s, mine));
  out.push_back(fmt::format("first wrong step: {} is {}{}; {}", s.name, value, how, dep_text));
  if (std::string d = derivation(s); !d.empty()) out.push_back(std::move(d));
  // The student's own steps under it, which the reference has no name for.
  for (const Step& d : deps(s))
    if (differs(d) == -1 && !d.name.empty())
      if (std::string t = derivation(d); !t.empty() && t.rfind("you wrote", 0) != 0) out.push_back(std::move(t));
  return out;
}

int Comparison::differs_from_reference(const std::string& name, const Value& v) {
  Value r;
  if (name.empty() || !ref_value(name, r)) return -1;
  return compare(v, r);
}

bool Comparison::carried(const Step& s, Module* scope, Value& out, std::vector<Step>& inputs) {
  if (s.name.empty()) return false;
  const ast::Expr* formula = nullptr;
  Record* self = nullptr;
  if (s.rec) {
    const std::size_t dot = s.name.rfind('.');
    Value r;
    if (dot == std::string::npos || !ref_value(s.name.substr(0, dot), r) || r.kind != Value::Kind::Record) return false;
    const std::size_t idx = r.rec->table->find(s.name.substr(dot + 1));
    if (idx == SlotTable::npos) return false;
    const Slot& slot = r.rec->table->at(idx);
    if (!slot.decl || !slot.decl->value) return false;
    formula = slot.decl->value.get();
    self = s.rec;  // the formula's sibling fields are the student's
  } else {
    Binding* b = ref_.find_binding(ref_m_, s.name);
    if (!b || !b->stmt || b->stmt->kind != ast::StmtKind::Let || !b->stmt->value) return false;
    formula = b->stmt->value.get();
  }
  Trace t;
  try {
    out = sub_.eval_in(Where{scope, self}, *formula, &t);
  } catch (const Error&) {
    return false;  // a name the submission lacks, or an error on its values: nothing to carry
  }
  collect(t, inputs);
  // Only names the reference has: a field the student adds to the record
  // (`given = my_own_inputs`) must not stand in for the reference's `given`.
  for (const Step& in : inputs) {
    Value r;
    if (!in.name.empty() && !ref_value(in.name, r)) return false;
  }
  return true;
}

std::vector<std::string> Comparison::changed_inputs(bool show_reference) {
  auto changed = [&](const std::string& name, const Value& mine, const Value& theirs) {
    return show_reference ? fmt::format("the submission changed the given input {}: {}, the reference {}", name,
                                        sub_.show(mine), ref_.show(theirs))
                          : fmt::format("the submission changed the given input {}: {}, not the value given", name,
                                        sub_.show(mine));
  };
  std::vector<std::string> out;
  for (Binding* b : ref_m_->order) {
    if (!b->stmt) continue;
    try {
      if (b->stmt->kind == ast::StmtKind::Let) {
        if (!b->stmt->value || !is_literal(*b->stmt->value)) continue;
        const Value theirs = ref_.top_value(b, b->stmt->span);
        Value mine;
        if (lookup(sub_, sub_m_, b->name, mine) && compare(mine, theirs) == 1)
          out.push_back(changed(b->name, mine, theirs));
        continue;
      }
      if (b->stmt->kind != ast::StmtKind::Record) continue;
      const Value v = ref_.top_value(b, b->stmt->span);
      if (v.kind != Value::Kind::Record) continue;
      Record* r = v.rec;
      for (std::size_t i = 0; i < r->slots().size(); ++i) {
        const Slot& slot = r->slots()[i];
        if (!slot.decl || !slot.decl->value || slot.decl->span.file != ref_m_->file.get() ||
            !is_literal(*slot.decl->value))
          continue;
        const std::string name = r->name + "." + slot.name;
        const Value theirs = ref_.field(r, i, r->span);
        Value mine;
        if (lookup(sub_, sub_m_, name, mine) && compare(mine, theirs) == 1)
          out.push_back(changed(name, mine, theirs));
      }
    } catch (const Error&) {
      continue;  // a reference that cannot be evaluated is reported by its own checks
    }
  }
  return out;
}

}  // namespace napkin::cli
