#include "report.hpp"


#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "grammar/comments.hpp"
#include "grammar/printer.hpp"

namespace napkin {

int Report::failed() const {
  int n = 0;
  for (const auto& c : checks) n += c.passed ? 0 : 1;
  return n;
}

namespace {

// How the fields of a report are derived: with `formulas`, each field's
// derivation (as deep as `steps` says), with `trees` the inputs it read and
// the calls it opened too; without, its result only (nothing will print the
// formula, so none is made).
struct Formulas {
  bool formulas = true;
  bool trees = true;
  std::optional<StepDepth> steps;
};

Derivation derivation_of(const Interpreter& in, const Formulas& how, const ast::Expr& formula, const Trace& trace,
                         const Value& v) {
  if (how.steps) return solution_steps(in, formula, trace, v, *how.steps);
  if (how.formulas) {
    Derivation d = derive(in, formula, trace, v);
    if (how.trees) d.calls = call_steps(in, trace);
    return d;
  }
  Derivation d;
  d.result = value_term(in, v);
  if (v.note) d.note = *v.note;
  d.input = is_literal(formula);
  return d;
}

// The fields and lets a formula read, each once, in the order it read them
// (what `napkin explain` opens one level down); records, functions and the
// calls the derivation opens itself are not inputs.
std::vector<DerivationInput> inputs_of(const Trace& trace) {
  std::vector<DerivationInput> out;
  std::set<std::pair<const void*, std::size_t>> seen;
  for (const auto& e : trace.entries) {
    if (e.call || e.value.kind == Value::Kind::Record || e.value.kind == Value::Kind::Function) continue;
    if (e.rec && seen.insert({e.rec, e.field}).second)
      out.push_back({e.rec->name + "." + e.rec->slots()[e.field].name, e.value});
    else if (!e.rec && e.binding && seen.insert({e.binding, 0}).second)
      out.push_back({e.binding->name, e.value});
  }
  return out;
}

FieldReport missing(const MissingInput& e, std::string qualified, std::string name, Span at) {
  FieldReport f;
  f.at = at;
  f.qualified = std::move(qualified);
  f.name = std::move(name);
  f.needs = e.field();
  f.declared_at = e.declared_at().where_line();
  return f;
}

// The errors `build_report` keeps going past: each once, although every
// field that needs a failed one fails with the same error.
struct Errors {
  std::vector<Diagnostic>* out = nullptr;  // null: throw
  std::unordered_set<std::string> said;  // each error once, however many copies were thrown

  // Called in a catch block: rethrows unless errors are kept. `user`: the
  // place in the user's file that asked for it (a record's or let's name).
  FieldReport failed(const Error& e, std::string qualified, std::string name, Span at, Span user = {}) {
    if (!out) throw;
    keep(e, qualified, user);
    const Diagnostic& d = e.diagnostic();
    FieldReport f;
    f.at = at;
    f.qualified = std::move(qualified);
    f.name = std::move(name);
    f.error = d;
    return f;
  }
  void keep(const Error& e, const std::string& qualified = {}, Span user = {}) {
    // A chain too deep to evaluate fails again from every record along it:
    // the first report says it all.
    if (e.diagnostic().code == codes::recursion_limit)
      for (const auto& d : *out)
        if (d.code == codes::recursion_limit) return;
    // The same error is said once: one failure is rethrown from every field
    // that needed it, and a broken domain afresh for each use.
    const Diagnostic& here = e.diagnostic();
    const Span at = here.labels.empty() ? Span{} : here.labels.front().span;
    if (!said.insert(fmt::format("{}|{}|{}|{}", static_cast<int>(here.code), here.message,
                                 static_cast<const void*>(at.file), at.begin))
             .second)
      return;
    out->push_back(e.diagnostic());
    note_needed_by(out->back(), qualified, user);
  }
};

void reachable(Module* m, std::vector<Module*>& out) {
  if (std::find(out.begin(), out.end(), m) != out.end()) return;
  out.push_back(m);
  for (Module* d : m->imports) reachable(d, out);
}

// The headline fields of `r`: for it and each record it extends, the names
// listed by a let `NAME_headline` in the module that declares that record
// (std/transformer's `transformer_headline`).
std::vector<std::string> headline_of(Interpreter& in, Module* m, const Record* r) {
  std::vector<Module*> modules;
  reachable(m, modules);
  std::vector<std::string> out;
  for (const Record* b = r; b; b = b->base)
    for (Module* d : modules) {
      if (d->file.get() != b->span.file) continue;
      const auto it = d->own.find(b->name + "_headline");
      if (it == d->own.end()) continue;
      try {
        const Value v = in.top_value(it->second, Span{});
        if (v.kind != Value::Kind::List) continue;
        for (const auto& item : v.items())
          if (item.kind == Value::Kind::String) out.push_back(item.str());
      } catch (const Error&) {
        // A headline that cannot be evaluated shows nothing more; `run` of
        // the library's own file reports its error.
      }
    }
  return out;
}

// `only_from`, when given: only the fields set in that file are shown, and
// no other is evaluated (a `let`'s record shows what its own statement
// sets; an imported config's keys are there to be read, not listed).
Section record_section(Interpreter& in, Module* m, Record* r, Errors& errors, const Formulas& formulas,
                       const SourceFile* only_from = nullptr) {
  const std::vector<std::string> headline = only_from ? std::vector<std::string>{} : headline_of(in, m, r);
  Section s;
  s.keyword = r->kind.empty() ? "record" : r->kind;
  s.name = r->name;
  if (r->base) s.base = r->base->name;
  s.fields.reserve(r->slots().size());
  for (std::size_t i = 0; i < r->slots().size(); ++i) {
    const Slot& slot = r->slots()[i];
    const std::string q = r->name + "." + slot.name;
    const Span at = slot.decl ? slot.decl->name_span : slot.type_decl ? slot.type_decl->name_span : Span{};
    if (only_from && (!slot.decl || slot.decl->span.file != only_from)) continue;
    try {
      Value v = in.field(r, i, Span{});
      FieldReport f;
      f.qualified = q;
      f.name = slot.name;
      f.ok = true;
      f.value = v;
      f.derivation = derivation_of(in, formulas, *slot.decl->value, r->state[i].trace, v);
      if (formulas.trees) f.inputs = inputs_of(r->state[i].trace);
      f.own = slot.decl->span.file == r->span.file;
      f.headline = std::find(headline.begin(), headline.end(), slot.name) != headline.end();
      f.at = at;
      f.input = is_literal(*slot.decl->value);
      s.fields.push_back(std::move(f));
    } catch (const MissingInput& e) {
      s.fields.push_back(missing(e, q, slot.name, at));
    } catch (const Error& e) {
      const std::size_t d = r->domain_error ? r->domain_slot : SlotTable::npos;
      if (d < r->slots().size()) {
        // Every field of a record that breaks a domain is that one error:
        // shown once, under the field that states the domain.
        const Slot& ds = r->slots()[d];
        s.fields.clear();
        FieldReport f = errors.failed(e, r->name, ds.name, ds.decl->name_span, r->span);
        f.qualified = r->name + "." + ds.name;
        s.fields.push_back(std::move(f));
        break;
      }
      s.fields.push_back(errors.failed(e, q, slot.name, at, r->span));
    }
  }
  return s;
}

// `opening`: the file's title block, which no record takes as its own.
void module_sections(Interpreter& in, Module* m, Report& out, Errors& errors, const Formulas& formulas,
                     const CommentBlock& opening = {}) {
  const std::vector<Comment> comments = find_comments(m->file->text);
  for (Binding* b : m->order) {
    const ast::Stmt& st = *b->stmt;
    if (st.kind == ast::StmtKind::Fn) continue;
    const std::size_t first = out.sections.size();
    struct Doc {  // the statement's comment goes to the section it makes, however it ends
      Report& r;
      std::size_t first;
      std::string text;
      ~Doc() {
        if (r.sections.size() > first) r.sections[first].doc = std::move(text);
      }
    } doc{out, first, {}};
    const CommentBlock above = comment_block_above(m->file->text, comments, st.span.begin);
    if (opening.text.empty() || above.begin != opening.begin) doc.text = above.text;
    try {
      Value v = in.top_value(b, Span{});
      if (v.kind == Value::Kind::Record && v.rec->name == b->name) {
        const bool let = st.kind == ast::StmtKind::Let;
        // A document a `let` imports (import_json) shows what the let's own
        // statement sets, none of its keys: they are there to be read.
        bool data = let && v.rec->slots().size() > 0;
        for (std::size_t i = 0; data && i < v.rec->slots().size(); ++i) {
          const Slot& sl = v.rec->slots()[i];
          data = sl.decl && sl.decl->span.file && sl.decl->span.file->name.ends_with(" (as napkin)");
        }
        out.sections.push_back(record_section(in, m, v.rec, errors, formulas, data ? st.span.file : nullptr));
        out.sections.back().at = st.span;
        if (let) out.sections.back().keyword = "let";
        if (st.value) {  // `scenario x = decode with { ... }` says how it was made
          out.sections.back().base.clear();
          out.sections.back().origin = print_expr(*st.value);
          out.sections.back().origin_expr = st.value.get();
        }
        continue;
      }
      Section s;
      s.kind = SectionKind::lets;
      s.name = b->name;
      s.at = st.span;
      FieldReport f;
      f.qualified = b->name;
      f.name = b->name;
      f.at = st.name_span;
      f.input = is_literal(*st.value);
      f.ok = true;
      f.value = v;
      f.derivation = derivation_of(in, formulas, *st.value, b->state.trace, v);
      if (formulas.trees) f.inputs = inputs_of(b->state.trace);
      s.fields.push_back(std::move(f));
      out.sections.push_back(std::move(s));
    } catch (const MissingInput& e) {
      Section s;
      s.kind = SectionKind::lets;
      s.name = b->name;
      s.at = st.span;
      s.fields.push_back(missing(e, b->name, b->name, st.name_span));
      out.sections.push_back(std::move(s));
    } catch (const Error& e) {
      Section s;
      s.kind = SectionKind::lets;
      s.name = b->name;
      s.at = st.span;
      s.fields.push_back(errors.failed(e, b->name, b->name, st.name_span, st.name_span));
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

std::vector<std::string> headline_fields(Interpreter& in, Module* m, const Record* r) { return headline_of(in, m, r); }

void keep_own_fields(Report& r) {
  std::unordered_set<std::string> used;
  for (const auto& c : r.checks)
    for (const auto& e : c.trace.entries)
      if (e.rec) used.insert(e.rec->name + "." + e.rec->slots()[e.field].name);
  for (auto& s : r.sections)
    std::erase_if(s.fields,
                  [&](const FieldReport& f) { return f.ok && !f.own && !f.headline && !used.count(f.qualified); });
}

namespace {

// `errored`, when given, gets each check that could not be evaluated.
std::vector<CheckResult> checks_of(Interpreter& in, Module* m, Errors& errors,
                                   std::vector<ErroredCheck>* errored = nullptr) {
  std::vector<CheckResult> out;
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Check) continue;
    try {
      out.push_back(in.run_check(st));
    } catch (const Error& e) {
      if (!errors.out) throw;
      errors.keep(e);
      if (errored) errored->push_back({&st, e.diagnostic()});
    }
  }
  return out;
}

}  // namespace

std::vector<CheckResult> run_checks(Interpreter& in, Module* m, std::vector<Diagnostic>* errors) {
  Errors kept{errors, {}};
  return checks_of(in, m, kept);
}

Report build_report(Interpreter& in, Module* m, bool all, bool keep_going, Derivations derivations,
                    std::optional<StepDepth> steps) {
  Report r;
  r.steps = steps;
  r.derivations = derivations;
  const Formulas how{derivations != Derivations::Results, derivations == Derivations::Trees, steps};
  Errors errors{keep_going ? &r.errors : nullptr, {}};
  if (all) {
    std::vector<Module*> order;
    std::unordered_set<Module*> seen{m};
    collect_imports(m, order, seen);
    for (Module* d : order) module_sections(in, d, r, errors, how);
  }
  const CommentBlock opening = opening_comment(m->file->text, find_comments(m->file->text));
  // The title is the first sentence, which may run over several lines
  // (uncertain_decode's question); the rest is the introduction.
  const std::string& t = opening.text;
  const std::size_t paragraph = std::min(t.find("\n\n"), t.size());
  std::size_t cut = paragraph;
  for (std::size_t i = 0; i < paragraph; ++i)
    if ((t[i] == '.' || t[i] == '?' || t[i] == '!') && (i + 1 == t.size() || t[i + 1] == ' ' || t[i + 1] == '\n')) {
      cut = i + 1;
      break;
    }
  r.title = t.substr(0, cut);
  std::replace(r.title.begin(), r.title.end(), '\n', ' ');
  r.intro = t.substr(std::min(t.find_first_not_of(" \n", cut), t.size()));
  module_sections(in, m, r, errors, how, opening);
  try {
    r.sweeps = run_sweeps(in, m);
    for (const SweepResult& s : r.sweeps)
      if (s.first_error) {
        if (!keep_going) throw_point_error(s);
        errors.out->push_back(*s.first_error);  // the table stands; its failed points show their code
      }
  } catch (const MissingInput& e) {
    if (!keep_going) throw;
    errors.keep(e);
  } catch (const Error& e) {
    if (!keep_going) throw;
    errors.keep(e);
  }
  r.checks = checks_of(in, m, errors, &r.errored_checks);
  return r;
}

}  // namespace napkin

namespace napkin {

std::string pinned_field(const CheckResult& c) {
  const ast::Expr* e = c.stmt->value.get();
  using ast::BinOp;
  if (!c.stmt->approx && e->kind == ast::ExprKind::Binary &&
      (e->op == BinOp::Eq || e->op == BinOp::Ne || e->op == BinOp::Lt || e->op == BinOp::Le || e->op == BinOp::Gt ||
       e->op == BinOp::Ge))
    e = e->items[0].get();
  if (e->kind != ast::ExprKind::Name && e->kind != ast::ExprKind::Member) return {};
  const TraceEntry* it = entry_of(c.trace, *e);
  if (!it) return {};
  if (it->rec) return it->rec->name + "." + it->rec->slots()[it->field].name;
  if (it->binding) return it->binding->name;
  return {};
}

std::vector<const FieldReport*> shown_fields(const Report& r, const Section& s, std::size_t* unchanged) {
  std::vector<const FieldReport*> out;
  const Section* base = nullptr;
  const ast::Expr* with = s.origin_expr;
  if (with && with->kind == ast::ExprKind::With && with->items[0]->kind == ast::ExprKind::Name)
    for (const auto& other : r.sections)
      if (other.kind != SectionKind::lets && other.name == with->items[0]->text && &other != &s) base = &other;
  std::size_t same = 0;
  for (const auto& f : s.fields) {
    const FieldReport* before = nullptr;
    if (base)
      for (const auto& b : base->fields)
        if (b.name == f.name) before = &b;
    bool set = false;
    if (base)
      for (const auto& d : with->fields) set = set || d.name == f.name;
    const bool moved = !before || before->ok != f.ok || !f.ok ||
                       text(before->derivation.result) != text(f.derivation.result);
    if (!base || set || moved)
      out.push_back(&f);
    else
      ++same;
  }
  if (unchanged) *unchanged = same;
  return out;
}

std::vector<bool> checks_beside(const Report& r, std::set<std::string>& ticked) {
  std::set<std::string> shown;
  for (const auto& s : r.sections)
    for (const auto* f : shown_fields(r, s, nullptr)) shown.insert(f->qualified);
  std::vector<bool> beside(r.checks.size(), false);
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const std::string pinned = r.checks[i].passed ? pinned_field(r.checks[i]) : "";
    if (pinned.empty() || !shown.count(pinned)) continue;
    beside[i] = true;
    ticked.insert(pinned);
  }
  return beside;
}

}  // namespace napkin
