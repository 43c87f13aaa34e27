#pragma once
// Parse napkin source into an AST. Throws napkin::Error (code E01xx) with the
// position where the input stopped making sense and what was expected there.
#include "ast.hpp"

namespace napkin {

ast::Module parse_module(const SourceFile& file);
ast::ExprPtr parse_expression(const SourceFile& file);

// Limits that keep malformed input from exhausting the stack.
inline constexpr std::size_t kMaxSourceBytes = 16u << 20;
inline constexpr std::size_t kMaxNesting = 256;
inline constexpr std::size_t kMaxListItems = 100000;

}  // namespace napkin
