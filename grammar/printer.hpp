#pragma once
// An expression written back as source: the text of its token stream
// (tokens.hpp), with the fewest parentheses that keep its meaning.
// Diagnostics quote formulas with it, `napkin diff` and `explain` label
// with it.
#include <string>

#include "ast.hpp"

namespace napkin {

struct PrintOptions {
  bool pretty = false;  // `·` for `*` (derivations) instead of `*` (source)
};

std::string print_expr(const ast::Expr& e, const PrintOptions& opts = {});
// A string as a literal: quoted, with `"`, `\`, newline and tab escaped.
std::string quote_string(const std::string& s);
// `{ a = 1, b: count = 2 }`.
std::string print_fields_inline(const std::vector<ast::FieldDecl>& fields, const PrintOptions& opts = {});

}  // namespace napkin
