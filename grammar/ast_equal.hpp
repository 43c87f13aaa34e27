#pragma once
// Structural equality of syntax trees, spans ignored: two texts that parse
// to equal trees mean the same program. `napkin fmt` relies on it to prove
// that a new layout changed nothing else.
#include <string>

#include "ast.hpp"

namespace napkin {

// "" when equal; otherwise where the first difference is, e.g.
// "statement 3 (decode), field tokens_per_s: text `x` vs `y`".
std::string ast_difference(const ast::Module& a, const ast::Module& b);
std::string ast_difference(const ast::Expr& a, const ast::Expr& b);

inline bool ast_equal(const ast::Module& a, const ast::Module& b) { return ast_difference(a, b).empty(); }

}  // namespace napkin
