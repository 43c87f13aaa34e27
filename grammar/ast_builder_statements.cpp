// The AstBuilder's actions for blocks and statements; the expression
// actions are in ast_builder.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "ast_builder.hpp"
#include "depth_check.hpp"
#include "diagnostic.hpp"
#include "parser.hpp"

namespace napkin {

using ast::ExprKind;

// ---- blocks -------------------------------------------------------------------

void AstBuilder::open_block() { marks_.push_back(static_cast<std::uint32_t>(fields_.size())); }

void AstBuilder::field_name(Text b, Text e) {
  ast::FieldDecl f;
  f.name.assign(b, e);
  f.name_span = span(b, e);
  fields_.push_back(std::move(f));
  field_bounds_.push_back(0);
}

ast::TypeExpr AstBuilder::type(Text b, Text e) {
  ast::TypeExpr t;
  t.span = span(b, e);
  t.text.assign(b, e);
  static const std::pair<std::string_view, ast::TypeKind> named[] = {
      {"count", ast::TypeKind::Count}, {"bool", ast::TypeKind::Bool}, {"string", ast::TypeKind::String},
      {"record", ast::TypeKind::Record}, {"list", ast::TypeKind::List}, {"fn", ast::TypeKind::Fn},
      {"any", ast::TypeKind::Any}};
  ast::UnitExpr u = pop_unit();
  for (auto [word, kind] : named)
    if (t.text == word) {
      t.kind = kind;
      return t;
    }
  t.kind = ast::TypeKind::Unit;
  t.unit = std::move(u);
  return t;
}

void AstBuilder::field_type(Text b, Text e) { fields_.back().type = type(b, e); }

void AstBuilder::field_value() {
  Entry value = pop();
  fields_.back().value = std::move(value.expr);
  field_bounds_.back() = deeper(value.bound);
}

void AstBuilder::field(Text b, Text e) { fields_.back().span = span(b, e); }

void AstBuilder::block() {
  const std::uint32_t mark = pop_mark();
  Block out;
  out.fields.reserve(fields_.size() - mark);
  // A block may hold many fields: no pairwise search for a second definition.
  std::unordered_set<std::string_view> seen;
  for (std::size_t i = mark; i < fields_.size(); ++i) {
    out.bound = std::max(out.bound, field_bounds_[i]);
    out.fields.push_back(std::move(fields_[i]));
    const ast::FieldDecl& f = out.fields.back();  // reserved: its name stays where it is
    if (!seen.insert(f.name).second)
      for (const auto& prev : out.fields) {
        if (prev.name != f.name) continue;
        Diagnostic dg;
        dg.code = codes::duplicate;
        dg.message = fmt::format("the field `{}` is defined twice in this block", f.name);
        dg.labels.push_back({f.name_span, "defined again here", true});
        dg.labels.push_back({prev.name_span, "first defined here", false});
        dg.help = "remove one of them; to change an inherited value, use `extends` or `with`";
        throw Error(std::move(dg));
      }
  }
  fields_.resize(mark);
  field_bounds_.resize(mark);
  blocks_.push_back(std::move(out));
}

// ---- statements -------------------------------------------------------------

ast::ExprPtr AstBuilder::path(Piece p) const {
  ast::ExprPtr e;
  std::uint32_t at = p.begin;
  while (at <= p.end) {
    std::uint32_t end = at;
    while (end < p.end && file_.text[end] != '.') ++end;
    if (!e) {
      e = std::make_unique<ast::Expr>(ExprKind::Name, Span{&file_, at, end});
    } else {
      auto m = std::make_unique<ast::Expr>(ExprKind::Member, Span{&file_, e->span.begin, end});
      m->items.push_back(std::move(e));
      e = std::move(m);
    }
    e->text = file_.text.substr(at, end - at);
    at = end + 1;
  }
  return e;
}

void AstBuilder::check_depth(ast::Stmt& st) {
  const DepthCheck check(parens_);
  for (const auto& p : st.params)
    if (p.default_value) check.expr(*p.default_value);
  if (st.value) check.expr(*st.value);
  for (const auto& f : st.fields)
    if (f.value) check.expr(*f.value);
  if (st.expected) check.expr(*st.expected);
  if (st.tolerance) check.expr(*st.tolerance);
  for (const auto& v : st.sweep_vars)
    if (v.values) check.expr(*v.values);
}

void AstBuilder::finish(ast::Stmt&& st) {
  if (maybe_deep_) {
    maybe_deep_ = false;
    try {
      check_depth(st);
    } catch (...) {
      parens_.clear();
      for (auto& p : st.params) dismantle(std::move(p.default_value));
      for (auto& f : st.fields) dismantle(std::move(f.value));
      for (auto& v : st.sweep_vars) dismantle(std::move(v.values));
      dismantle(std::move(st.value));
      dismantle(std::move(st.expected));
      dismantle(std::move(st.tolerance));
      throw;
    }
  }
  parens_.clear();
  module_.statements.push_back(std::move(st));
}

void AstBuilder::import_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Import, span(b, e));
  Entry path = pop();
  st.name = std::move(path.expr->text);
  st.name_span = path.expr->span;
  finish(std::move(st));
}

void AstBuilder::let_stmt(Text b, Text e, bool with_let) {
  ast::Stmt st(ast::StmtKind::Let, span(b, e));
  st.record_kind = with_let ? "let" : "";
  st.value = pop().expr;
  const Piece name = pop_piece();
  st.name = text(name);
  st.name_span = span(name);
  finish(std::move(st));
}

void AstBuilder::param_name(Text b, Text e) {
  ast::Param p;
  p.name.assign(b, e);
  params_.push_back(std::move(p));
}

void AstBuilder::param_default() { params_.back().default_value = pop().expr; }

void AstBuilder::param(Text b, Text e) { params_.back().span = span(b, e); }

void AstBuilder::fn_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Fn, span(b, e));
  st.value = pop().expr;
  const Piece name = pop_piece();
  st.name = text(name);
  st.name_span = span(name);
  std::unordered_set<std::string_view> seen;
  for (const auto& p : params_)
    if (!seen.insert(p.name).second)
      fail(codes::duplicate, p.span, fmt::format("the parameter `{}` appears twice", p.name));
  st.params = std::move(params_);
  params_.clear();
  finish(std::move(st));
}

// A `unit` or `suggest` statement's name and the words listed after it
// (prefix families, or the spellings it suggests for).
void AstBuilder::name_and_words(ast::Stmt& st) {
  const Piece name = pop_piece();
  st.name = text(name);
  st.name_span = span(name);
  for (const Piece& w : words_) st.columns.push_back({std::string(text(w)), span(w)});
  words_.clear();
}

void AstBuilder::unit_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Unit, span(b, e));
  if (!exprs_.empty()) st.value = pop().expr;
  name_and_words(st);
  finish(std::move(st));
}

void AstBuilder::word(Text b, Text e) {
  words_.push_back({static_cast<std::uint32_t>(b - base_), static_cast<std::uint32_t>(e - base_)});
}

void AstBuilder::dimension_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Dimension, span(b, e));
  ast::FieldDecl& f = st.fields.emplace_back();
  f.type.kind = ast::TypeKind::Unit;
  f.type.unit = pop_unit();
  f.type.text = f.type.unit.text;
  f.type.span = f.type.unit.span;
  f.span = f.type.span;
  Entry name = pop();
  st.name = std::move(name.expr->text);
  st.name_span = name.expr->span;
  finish(std::move(st));
}

void AstBuilder::suggest_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Suggest, span(b, e));
  name_and_words(st);
  finish(std::move(st));
}

void AstBuilder::extends_base(Text b, Text e) {
  push(path({static_cast<std::uint32_t>(b - base_), static_cast<std::uint32_t>(e - base_)}), 0);
}

void AstBuilder::record_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Record, span(b, e));
  if (!blocks_.empty()) {
    st.fields = std::move(blocks_.back().fields);
    blocks_.pop_back();
    if (!exprs_.empty()) st.base = pop().expr;
  } else {
    st.value = pop().expr;  // `model m = other`
  }
  const Piece name = pop_piece();
  const Piece kind = pop_piece();
  st.record_kind = text(kind);
  st.name = text(name);
  st.name_span = span(name);
  finish(std::move(st));
}

void AstBuilder::check_name() { check_name_ = pop().expr; }
void AstBuilder::check_points() { check_points_ = pop_piece(); }

void AstBuilder::check_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Check, span(b, e));
  if (check_name_) {
    st.check_name = std::move(check_name_->text);
    st.check_name_span = check_name_->span;
    check_name_.reset();
  }
  if (check_points_) {
    st.points_text = std::string(text(*check_points_));
    st.points = number(*check_points_);
    if (st.points > ast::kMaxCheckPoints)
      fail(codes::bad_number, span(*check_points_),
           fmt::format("a check is worth at most 1,000,000 points, not {}", st.points),
           "a grade's points are a share of the assignment: scale them down");
    check_points_.reset();
  }
  if (exprs_.size() == 3) {
    st.approx = true;
    st.tolerance = pop().expr;
    st.expected = pop().expr;
  }
  st.value = pop().expr;
  finish(std::move(st));
}

void AstBuilder::sweep_var() {
  ast::SweepVar v;
  v.values = pop().expr;
  const Piece name = pop_piece();
  v.name = text(name);
  v.span = span(name);
  for (const auto& prev : sweep_vars_)
    if (prev.name == v.name) fail(codes::duplicate, v.span, fmt::format("`{}` is swept twice", v.name));
  sweep_vars_.push_back(std::move(v));
}

void AstBuilder::sweep_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Sweep, span(b, e));
  st.value = pop().expr;
  if (sweep_vars_.size() > 2)
    fail(codes::size_limit, sweep_vars_[2].span, "a sweep varies one or two inputs",
         "sweep a third input in a second sweep, or write a record per value");
  st.sweep_vars = std::move(sweep_vars_);
  sweep_vars_.clear();
  for (const Piece& c : pieces_) st.columns.push_back({std::string(text(c)), span(c)});
  pieces_.clear();
  finish(std::move(st));
}

// The record is `base` (its path, as text in `name`), the input and its
// bracket are the one sweep_var, and the goal ("where", "max", "min") is
// `record_kind`; the condition is `value`.
void AstBuilder::solve_stmt(Text b, Text e) {
  ast::Stmt st(ast::StmtKind::Solve, span(b, e));
  st.value = pop().expr;
  ast::SweepVar v;
  if (!exprs_.empty()) {
    v.values = pop().expr;
    if (v.values->items.size() != 2)
      fail(codes::syntax, v.values->span, "a bracket to solve in has two ends, `in [LOW, HIGH]`");
  }
  st.record_kind = "where";
  if (pieces_.size() == 3) st.record_kind = text(pop_piece());  // max or min
  const Piece input = pop_piece();
  const Piece record = pop_piece();
  v.name = text(input);
  v.span = span(input);
  st.name = text(record);
  st.name_span = span(record);
  st.base = path(record);
  st.sweep_vars.push_back(std::move(v));
  finish(std::move(st));
}

ast::Module AstBuilder::take_module() { return std::move(module_); }

ast::ExprPtr AstBuilder::take_expression() {
  ast::Stmt st(ast::StmtKind::Let, exprs_.back().expr->span);
  st.value = pop().expr;
  finish(std::move(st));
  return std::move(module_.statements.back().value);
}

}  // namespace napkin
