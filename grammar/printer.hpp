#pragma once
// Print an expression back as source, with the fewest parentheses that keep
// its meaning. Derivations print formulas with it, and with a substitution
// that replaces each name by its value; the formatter prints files with it.
#include <functional>
#include <optional>
#include <string>

#include "ast.hpp"

namespace napkin {

struct PrintOptions {
  bool pretty = false;  // `·` for `*` (derivations) instead of `*` (source)
  // Replace a node by a text: a name by its value, an `if` by its branch.
  // `in_arguments` is true inside a call's argument list.
  std::function<std::optional<std::string>(const ast::Expr&, bool in_arguments)> substitute;
};

std::string print_expr(const ast::Expr& e, const PrintOptions& opts = {});
// A string as a literal: quoted, with `"`, `\`, newline and tab escaped.
std::string quote_string(const std::string& s);
std::string print_fields_inline(const std::vector<ast::FieldDecl>& fields, const PrintOptions& opts = {});

}  // namespace napkin
