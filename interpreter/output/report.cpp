#include "report.hpp"

#include <fmt/format.h>

#include <unordered_set>

#include "grammar/printer.hpp"

namespace napkin {

int Report::failed() const {
  int n = 0;
  for (const auto& c : checks) n += c.passed ? 0 : 1;
  return n;
}

namespace {

FieldReport missing(const MissingInput& e, std::string qualified, std::string name) {
  FieldReport f;
  f.qualified = std::move(qualified);
  f.name = std::move(name);
  f.needs = e.field();
  f.declared_at = e.declared_at().where_line();
  return f;
}

Section record_section(Interpreter& in, Record* r) {
  Section s;
  s.kind = r->kind.empty() ? "record" : r->kind;
  s.name = r->name;
  if (r->base) s.base = r->base->name;
  for (std::size_t i = 0; i < r->slots().size(); ++i) {
    const Slot& slot = r->slots()[i];
    const std::string q = r->name + "." + slot.name;
    try {
      Value v = in.field(r, i, Span{});
      FieldReport f;
      f.qualified = q;
      f.name = slot.name;
      f.ok = true;
      f.value = v;
      f.derivation = derive_text(in, *slot.decl->value, r->state[i].trace, v);
      s.fields.push_back(std::move(f));
    } catch (const MissingInput& e) {
      s.fields.push_back(missing(e, q, slot.name));
    }
  }
  return s;
}

void module_sections(Interpreter& in, Module* m, Report& out) {
  for (Binding* b : m->order) {
    const ast::Stmt& st = *b->stmt;
    if (st.kind == ast::StmtKind::Fn) continue;
    try {
      Value v = in.top_value(b, Span{});
      if (v.kind == Value::Kind::Record && v.rec->name == b->name) {
        out.sections.push_back(record_section(in, v.rec));
        if (st.value) {  // `scenario x = decode with { ... }` says how it was made
          out.sections.back().base.clear();
          out.sections.back().origin = print_expr(*st.value);
        }
        continue;
      }
      Section s;
      s.kind = "let";
      s.name = b->name;
      FieldReport f;
      f.qualified = b->name;
      f.name = b->name;
      f.ok = true;
      f.value = v;
      f.derivation = derive_text(in, *st.value, b->state.trace, v);
      s.fields.push_back(std::move(f));
      out.sections.push_back(std::move(s));
    } catch (const MissingInput& e) {
      Section s;
      s.kind = "let";
      s.name = b->name;
      s.fields.push_back(missing(e, b->name, b->name));
      out.sections.push_back(std::move(s));
    }
  }
}

void collect_imports(Module* m, std::vector<Module*>& order, std::unordered_set<Module*>& seen) {
  for (Module* d : m->imports) {
    if (!seen.insert(d).second) continue;
    collect_imports(d, order, seen);
    order.push_back(d);
  }
}

}  // namespace

std::vector<CheckResult> run_checks(Interpreter& in, Module* m) {
  std::vector<CheckResult> out;
  for (const auto& st : m->ast.statements)
    if (st.kind == ast::StmtKind::Check) out.push_back(in.run_check(st));
  return out;
}

Report build_report(Interpreter& in, Module* m, bool all) {
  Report r;
  if (all) {
    std::vector<Module*> order;
    std::unordered_set<Module*> seen{m};
    collect_imports(m, order, seen);
    for (Module* d : order) module_sections(in, d, r);
  }
  module_sections(in, m, r);
  r.sweeps = run_sweeps(in, m);
  r.checks = run_checks(in, m);
  return r;
}

}  // namespace napkin
