#include "depth_check.hpp"

#include <fmt/format.h>

#include "diagnostic.hpp"
#include "parser.hpp"

namespace napkin {
namespace {

using ast::BinOp;
using ast::ExprKind;

[[noreturn]] void too_deep(Span at) {
  fail(codes::nesting_limit, at, fmt::format("expression nested deeper than {} levels", kMaxNesting),
       "split it into named fields; in a chain such as `a + b + c`, each operator is a level");
}

}  // namespace

int chain_group(BinOp op) {
  switch (op) {
    case BinOp::Add: case BinOp::Sub: return 1;
    case BinOp::Mul: case BinOp::Div: return 2;
    case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge: return 3;
    case BinOp::And: return 4;
    case BinOp::Or: return 5;
    case BinOp::Pow: case BinOp::To: return 0;
  }
  return 0;
}

DepthCheck::DepthCheck(const std::vector<std::pair<std::uint32_t, Span>>& parens) {
  for (const auto& [id, span] : parens) {
    auto& layers = parens_[id];
    layers.insert(layers.begin(), span);
  }
}

const std::vector<Span>* DepthCheck::parens_of(const ast::Expr& e) const {
  if (parens_.empty()) return nullptr;
  auto it = parens_.find(e.id);
  return it == parens_.end() ? nullptr : &it->second;
}

std::uint32_t DepthCheck::outer_begin(const ast::Expr* e) const {
  for (;;) {
    if (const auto* p = parens_of(*e)) return p->front().begin;
    const bool leftmost_operand = e->kind == ExprKind::Binary || is_postfix(*e) || e->kind == ExprKind::Convert;
    if (!leftmost_operand) return e->span.begin;
    e = e->items.front().get();
  }
}

std::uint32_t DepthCheck::outer_end(const ast::Expr* e) const {
  for (;;) {
    if (const auto* p = parens_of(*e)) return p->front().end;
    if (e->kind != ExprKind::Binary) return e->span.end;
    e = e->items.back().get();
  }
}

Span DepthCheck::written(const ast::Expr& e) const {
  Span s = e.span;
  if (e.kind == ExprKind::Binary) {
    s.begin = outer_begin(e.items[0].get());
    s.end = outer_end(e.items[1].get());
  } else if (is_postfix(e) || e.kind == ExprKind::Convert) {
    s.begin = outer_begin(e.items[0].get());
  }
  return s;
}

void DepthCheck::expr(const ast::Expr& e, std::size_t depth) const {
  if (depth > kMaxNesting) too_deep(written(e));
  const std::size_t d = depth + 1;

  if (e.kind == ExprKind::Binary && chain_group(e.op) != 0) {
    // The chain's operators, from the last written back to the first.
    std::vector<const ast::Expr*> ops{&e};
    const int group = chain_group(e.op);
    for (const ast::Expr* c = e.items[0].get();
         c->kind == ExprKind::Binary && chain_group(c->op) == group && !parens_of(*c); c = c->items[0].get())
      ops.push_back(c);
    const std::size_t k = ops.size();
    expr(*ops.back()->items[0], d + k);
    for (std::size_t i = 1; i <= k; ++i) expr(*ops[k - i]->items[1], d + k - i);
    return;
  }
  if (is_postfix(e)) {
    std::vector<const ast::Expr*> ops{&e};
    for (const ast::Expr* c = e.items[0].get(); is_postfix(*c) && !parens_of(*c); c = c->items[0].get())
      ops.push_back(c);
    const std::size_t k = ops.size();
    expr(*ops.back()->items[0], d + k);
    for (std::size_t i = 1; i <= k; ++i) {
      const ast::Expr& op = *ops[k - i];
      const std::size_t level = d + k - i;
      if (op.kind == ExprKind::Call)
        for (std::size_t a = 1; a < op.items.size(); ++a) expr(*op.items[a], level);
      if (op.kind == ExprKind::With)
        for (const auto& f : op.fields)
          if (f.value) expr(*f.value, level);
    }
    return;
  }
  if (e.kind == ExprKind::Binary) {  // `a ^ b`, `a to b`: the right operand first, as the parser always has
    expr(*e.items[1], d);
    expr(*e.items[0], d);
    return;
  }
  for (const auto& c : e.items) expr(*c, d);
  if (e.fallback) expr(*e.fallback, d);
}

void dismantle(ast::ExprPtr root) {
  std::vector<ast::ExprPtr> work;
  work.push_back(std::move(root));
  while (!work.empty()) {
    ast::ExprPtr e = std::move(work.back());
    work.pop_back();
    if (!e) continue;
    for (auto& c : e->items) work.push_back(std::move(c));
    if (e->fallback) work.push_back(std::move(e->fallback));
    for (auto& f : e->fields) work.push_back(std::move(f.value));
  }
}

}  // namespace napkin
