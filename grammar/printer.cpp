#include "printer.hpp"

#include "tokens.hpp"

namespace napkin {

std::string quote_string(const std::string& s) {
  std::string t = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') t += '\\';
    if (c == '\n') {
      t += "\\n";
      continue;
    }
    if (c == '\t') {
      t += "\\t";
      continue;
    }
    t += c;
  }
  return t + "\"";
}

std::string print_expr(const ast::Expr& e, const PrintOptions& opts) {
  TokenOptions o;
  o.pretty = opts.pretty;
  return token_text(expression_tokens(e, o));
}

std::string print_fields_inline(const std::vector<ast::FieldDecl>& fields, const PrintOptions& opts) {
  TokenOptions o;
  o.pretty = opts.pretty;
  return token_text(fields_tokens(fields, o));
}

}  // namespace napkin
