#include "lookup.hpp"

namespace napkin::lsp {
namespace {

bool contains(Span s, std::size_t offset) { return s.valid() && s.begin <= offset && offset <= s.end; }

// The innermost name or member whose span holds `offset`.
const ast::Expr* innermost(const ast::Expr* e, std::size_t offset) {
  if (!e || !contains(e->span, offset)) return nullptr;
  const ast::Expr* hit = nullptr;
  ast::for_each_child(*e, [&](const ast::Expr& c) {
    if (!hit) hit = innermost(&c, offset);
  });
  if (hit) return hit;
  return e->kind == ast::ExprKind::Name || e->kind == ast::ExprKind::Member ? e : nullptr;
}

// The leftmost name of a member chain (`decode` in `decode.model.params`).
const ast::Expr* root_name(const ast::Expr* e) {
  while (e->kind == ast::ExprKind::Member && !e->items.empty()) e = e->items[0].get();
  return e->kind == ast::ExprKind::Name ? e : nullptr;
}

// A name written in record `record`'s formulas means its field first.
std::string qualify(Analysis& a, const std::string& record, const ast::Expr* e) {
  const std::string text(e->span.text());
  if (record.empty()) return text;
  const ast::Expr* root = root_name(e);
  if (!root) return text;
  if (Record* r = record_named(a, record); r && r->find(root->text)) return record + "." + text;
  return text;
}

}  // namespace

Value evaluate(Analysis& a, const std::string& expr) {
  if (a.stopped) {  // as long again, and the editor waits for the answer
    Diagnostic d;
    d.code = codes::time_limit;
    d.message = "this file's evaluation was stopped at the language server's time limit: its values are not known";
    throw Error(std::move(d));
  }
  const ast::Expr& e = a.in->parse_snippet("<editor>", expr);
  return a.in->eval_in(a.module, e);
}

Record* record_named(Analysis& a, const std::string& expr) {
  if (!a.module) return nullptr;
  try {
    Value v = evaluate(a, expr);
    return v.kind == Value::Kind::Record ? v.rec : nullptr;
  } catch (const Error&) {
    return nullptr;
  }
}

std::optional<Target> target_at(const Analysis& ca, std::size_t offset) {
  auto& a = const_cast<Analysis&>(ca);  // evaluating fills the interpreter's memo, nothing the caller sees
  if (!a.module) return std::nullopt;
  for (const ast::Stmt& st : a.module->ast.statements) {
    if (!contains(st.span, offset)) continue;
    Target t;
    if (st.kind == ast::StmtKind::Record) t.record = st.name;
    if (contains(st.name_span, offset) && st.kind != ast::StmtKind::Import) {
      t.stmt = &st;
      t.expr = st.name;
      t.span = st.name_span;
      return t;
    }
    for (const ast::FieldDecl& f : st.fields) {
      if (contains(f.name_span, offset)) {
        t.field = &f;
        t.expr = t.record.empty() ? f.name : t.record + "." + f.name;
        t.span = f.name_span;
        return t;
      }
      if (const ast::Expr* hit = innermost(f.value.get(), offset)) {
        t.node = hit;
        t.expr = qualify(a, t.record, hit);
        t.span = hit->span;
        return t;
      }
    }
    for (const ast::Expr* e : {st.value.get(), st.base.get(), st.expected.get(), st.tolerance.get()}) {
      if (const ast::Expr* hit = innermost(e, offset)) {
        t.node = hit;
        t.expr = qualify(a, t.record, hit);
        t.span = hit->span;
        return t;
      }
    }
    for (const ast::Param& p : st.params)
      if (const ast::Expr* hit = innermost(p.default_value.get(), offset)) {
        t.node = hit;
        t.expr = std::string(hit->span.text());
        t.span = hit->span;
        return t;
      }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace napkin::lsp
