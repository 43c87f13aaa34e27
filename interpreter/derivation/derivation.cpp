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

std::vector<CallStep> call_steps(const Interpreter& in, const Trace& trace, int digits) {
  std::vector<CallStep> out;
  for (const auto& e : trace.entries) {
    if (!e.call || !e.call->decl) continue;
    CallStep step;  // the function as declared: `fits(bytes, capacity)`
    step.label = e.call->name + "(";
    for (std::size_t i = 0; i < e.call->decl->params.size(); ++i)
      step.label += (i ? ", " : "") + e.call->decl->params[i].name;
    step.label += ")";
    step.derivation =
        std::make_shared<const Derivation>(derive_text(in, *e.call->decl->value, e.call->trace, e.value, digits));
    out.push_back(std::move(step));
  }
  return out;
}

const TraceEntry* entry_of(const Trace& trace, const ast::Expr& node) {
  for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it)
    if (it->node == &node) return &*it;
  return nullptr;
}

Derivation derive_text(const Interpreter& in, const ast::Expr& formula, const Trace& trace, const Value& result,
                       int digits) {
  const auto show = [&](const Value& v) { return digits > 0 ? in.show(v, digits) : in.show(v); };
  Derivation d;
  d.result = show(result);
  if (result.note) d.note = *result.note;
  d.input = is_literal(formula);
  d.record = result.kind == Value::Kind::Record && formula.kind == ast::ExprKind::With;
  if (formula.span.file) d.origin = formula.span.where_line();
  PrintOptions plain;
  plain.pretty = true;
  d.formula = print_expr(formula, plain);
  PrintOptions sub = plain;
  const ast::Expr* root_call = &formula;
  while (root_call->kind == ast::ExprKind::Convert) root_call = root_call->items[0].get();
  if (root_call->kind != ast::ExprKind::Call) root_call = nullptr;
  std::function<std::optional<std::string>(const ast::Expr&, bool)> substitute;
  substitute = [&](const ast::Expr& node, bool in_arguments) -> std::optional<std::string> {
    if (node.kind != ast::ExprKind::Name && node.kind != ast::ExprKind::Member && node.kind != ast::ExprKind::If &&
        node.kind != ast::ExprKind::Measure && node.kind != ast::ExprKind::Call)
      return std::nullopt;
    for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it) {
      if (it->node != &node) continue;
      // A call of a user function shows its value (its formula opens below
      // it); a builtin's call keeps its arguments' values, so `max(3 ms, 5 ms)`.
      // A call the whole formula is (`training_days(...) -> day`) keeps its
      // arguments' values too: the result line gives its value.
      if (node.kind == ast::ExprKind::Call) {
        if (!it->call || !it->call->decl || &node == root_call) return std::nullopt;
        return show(it->value);
      }
      if (node.kind == ast::ExprKind::If) {
        // The branch that was taken, substituted in turn.
        PrintOptions branch;
        branch.pretty = true;
        branch.substitute = substitute;
        return print_expr(*node.items[it->value.b ? 1 : 2], branch);
      }
      if (it->value.kind == Value::Kind::Function) return std::nullopt;  // keep the function's name
      std::string text = show(it->value);
      // A whole-formula measurement's note follows the result line instead.
      if (node.kind == ast::ExprKind::Measure && it->value.note && &node != &formula)
        text += " [" + *it->value.note + "]";
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
  // `time -> day` substitutes to `5.771 day -> day`: the result says it once.
  const std::size_t arrow = d.substituted.rfind(" -> ");
  const bool converted_only = arrow != std::string::npos && d.substituted.compare(0, arrow, d.result) == 0;
  if (d.substituted != d.formula && !converted_only) lines.push_back(d.substituted);
  if (d.result != lines.back()) lines.push_back(d.result);
  return lines;
}

}  // namespace napkin
