#pragma once
// The expression depth limit (kMaxNesting), counted level by level as the
// evaluator will recurse: each operand one level below its operator, and in
// a chain `a + b + c` or `r.a.b(x)` each operator a level, so the first
// operand of a long chain sits deepest (parentheses are no level: brackets
// have their own limit, nesting.hpp). The error points at the first node
// too deep, in reading order except that `a ^ b` and `a to b` look at their
// right operand first.
//
// The parser builds a statement bottom-up and only knows how deep a node is
// once the statement is complete, so it calls this on a statement that may
// be too deep (most never are).
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ast.hpp"

namespace napkin {

// Operators that chain at one level: `a + b - c` is one chain of two
// operators (1: + and -, 2: * and /, 3: comparisons, 4: and, 5: or); 0 for
// `^` and `to`, which do not chain.
int chain_group(ast::BinOp op);

// A call, a member or a `with`: the operators of a postfix chain `r.a(x).b`.
inline bool is_postfix(const ast::Expr& e) {
  return e.kind == ast::ExprKind::Call || e.kind == ast::ExprKind::Member || e.kind == ast::ExprKind::With;
}

class DepthCheck {
 public:
  // Each pair of parentheses around a node, by the node's id, innermost
  // first: a chain's text begins at its first operand's parenthesis.
  explicit DepthCheck(const std::vector<std::pair<std::uint32_t, Span>>& parens);

  // Throws E0700 at the first node of `e` deeper than the limit, when `e`
  // itself is `depth` levels down.
  void expr(const ast::Expr& e, std::size_t depth = 0) const;

 private:
  const std::vector<Span>* parens_of(const ast::Expr& e) const;
  Span written(const ast::Expr& e) const;  // the text of `e` without its own parentheses
  std::uint32_t outer_begin(const ast::Expr* e) const;
  std::uint32_t outer_end(const ast::Expr* e) const;

  std::unordered_map<std::uint32_t, std::vector<Span>> parens_;  // outermost first
};

// Frees a tree of any depth without recursing: a tree that failed the depth
// check may be far deeper than the stack allows destructors to go.
void dismantle(ast::ExprPtr e);

}  // namespace napkin
