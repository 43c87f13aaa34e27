#include "derivation.hpp"

#include <cctype>
#include <functional>
#include <optional>

#include "grammar/printer.hpp"

namespace napkin {

bool is_literal(const ast::Expr& e) {
  using K = ast::ExprKind;
  // A measurement is not an input: its formula says which probe gave it.
  if (e.kind == K::Name || e.kind == K::Member || e.kind == K::Call || e.kind == K::With || e.kind == K::Measure)
    return false;
  for (const auto& c : e.items)
    if (!is_literal(*c)) return false;
  return true;
}

const TraceEntry* entry_of(const Trace& trace, const ast::Expr& node) {
  for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it)
    if (it->node == &node) return &*it;
  return nullptr;
}

Derivation derive_text(const Interpreter& in, const ast::Expr& formula, const Trace& trace, const Value& result) {
  Derivation d;
  d.result = in.show(result);
  if (result.note) d.note = *result.note;
  d.input = is_literal(formula);
  d.record = result.kind == Value::Kind::Record && formula.kind == ast::ExprKind::With;
  if (formula.span.file) d.origin = formula.span.where_line();
  PrintOptions plain;
  plain.pretty = true;
  d.formula = print_expr(formula, plain);
  PrintOptions sub = plain;
  std::function<std::optional<std::string>(const ast::Expr&, bool)> substitute;
  substitute = [&](const ast::Expr& node, bool in_arguments) -> std::optional<std::string> {
    if (node.kind != ast::ExprKind::Name && node.kind != ast::ExprKind::Member && node.kind != ast::ExprKind::If &&
        node.kind != ast::ExprKind::Measure && node.kind != ast::ExprKind::Call)
      return std::nullopt;
    for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it) {
      if (it->node != &node) continue;
      // A call of a user function shows its value (its formula opens below
      // it); a builtin's call keeps its arguments' values, so `max(3 ms, 5 ms)`.
      if (node.kind == ast::ExprKind::Call) {
        if (!it->call || !it->call->decl) return std::nullopt;
        return in.show(it->value);
      }
      if (node.kind == ast::ExprKind::If) {
        // The branch that was taken, substituted in turn.
        PrintOptions branch;
        branch.pretty = true;
        branch.substitute = substitute;
        return print_expr(*node.items[it->value.b ? 1 : 2], branch);
      }
      if (it->value.kind == Value::Kind::Function) return std::nullopt;  // keep the function's name
      std::string text = in.show(it->value);
      // A whole-formula measurement's note follows the result line instead.
      if (node.kind == ast::ExprKind::Measure && it->value.note && &node != &formula)
        text += " [" + *it->value.note + "]";
      // In `f(1, 6,144)` a grouping comma reads as a separator: write 6_144.
      if (in_arguments)
        for (std::size_t i = 1; i + 1 < text.size(); ++i)
          if (text[i] == ',' && std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
              std::isdigit(static_cast<unsigned char>(text[i + 1])))
            text[i] = '_';
      return text;
    }
    return std::nullopt;
  };
  sub.substitute = substitute;
  d.substituted = print_expr(formula, sub);
  return d;
}

std::vector<std::string> derivation_lines(const Derivation& d) {
  std::vector<std::string> lines;
  if (d.input) {
    lines.push_back(d.result);
    return lines;
  }
  lines.push_back(d.formula);
  if (d.record) return lines;  // `drill with { ... }`: the formula says it all
  if (d.substituted != d.formula) lines.push_back(d.substituted);
  if (d.result != lines.back()) lines.push_back(d.result);
  return lines;
}

}  // namespace napkin
