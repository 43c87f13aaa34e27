#include "derivation.hpp"

#include "specialise.hpp"

namespace napkin {

std::vector<CallStep> call_steps(const Interpreter& in, const Trace& trace, int digits) {
  std::vector<CallStep> out;
  for (const auto& e : trace.entries) {
    if (!e.call || !e.call->decl) continue;
    CallStep step;  // the function as declared: `fits(bytes, capacity)`
    step.label = e.call->name + "(";
    for (std::size_t i = 0; i < e.call->decl->params.size(); ++i)
      step.label += (i ? ", " : "") + e.call->decl->params[i].name;
    step.label += ")";
    step.derivation = std::make_shared<const Derivation>(derive(in, *e.call->decl->value, e.call->trace, e.value, digits));
    out.push_back(std::move(step));
  }
  return out;
}

const TraceEntry* entry_of(const Trace& trace, const ast::Expr& node) {
  for (auto it = trace.entries.rbegin(); it != trace.entries.rend(); ++it)
    if (it->node == &node) return &*it;
  return nullptr;
}

std::vector<CallStep> specialised_call_steps(const Interpreter& in, const ast::Expr& shown_in, const Trace& trace) {
  const auto shown = shown_calls(in, shown_in, trace);
  std::vector<CallStep> out;
  for (const auto& e : trace.entries) {
    if (!e.call || !e.call->decl || !shown.count(e.node)) continue;
    CallStep step;
    step.label = e.call->name + "(";
    for (std::size_t i = 0; i < e.call->decl->params.size(); ++i)
      step.label += (i ? ", " : "") + e.call->decl->params[i].name;
    step.label += ")";
    step.derivation = std::make_shared<const Derivation>(derive(in, *e.call->decl->value, e.call->trace, e.value, 0, true));
    out.push_back(std::move(step));
  }
  return out;
}

Derivation derive(const Interpreter& in, const ast::Expr& formula, const Trace& trace, const Value& result,
                  int digits, bool specialise) {
  Derivation d;
  d.result = value_term(in, result, digits);
  if (result.note) d.note = *result.note;
  d.input = is_literal(formula);
  d.record = result.kind == Value::Kind::Record && formula.kind == ast::ExprKind::With;
  if (formula.span.file) {
    d.origin = formula.span.where_line();
    d.origin_at = formula.span;
  }
  d.formula = specialise ? term_of(formula, specialising(in, trace, {})) : term_of(formula);
  const ast::Expr* root_call = &formula;
  while (root_call->kind == ast::ExprKind::Convert) root_call = root_call->items[0].get();
  if (root_call->kind != ast::ExprKind::Call) root_call = nullptr;
  TermOptions sub;
  sub.substitute = [&](const ast::Expr& node) -> std::optional<Term> {
    if (node.kind != ast::ExprKind::Name && node.kind != ast::ExprKind::Member && node.kind != ast::ExprKind::If &&
        node.kind != ast::ExprKind::Measure && node.kind != ast::ExprKind::Call)
      return std::nullopt;
    const TraceEntry* it = entry_of(trace, node);
    if (!it) return std::nullopt;
    // A call of a user function shows its value (its formula opens below
    // it); a builtin's call keeps its arguments' values, so `max(3 ms, 5 ms)`.
    // A call the whole formula is (`training_days(...) -> day`) keeps its
    // arguments' values too: the result line gives its value.
    if (node.kind == ast::ExprKind::Call) {
      if (!it->call || !it->call->decl || &node == root_call) return std::nullopt;
      return value_term(in, it->value, digits);
    }
    // An `if`: the branch that was taken, substituted in turn.
    if (node.kind == ast::ExprKind::If) return term_of(*node.items[it->value.b ? 1 : 2], sub);
    if (it->value.kind == Value::Kind::Function) return std::nullopt;  // keep the function's name
    Term t = value_term(in, it->value, digits);
    // A whole-formula measurement's note follows the result line instead.
    if (node.kind == ast::ExprKind::Measure && it->value.note && &node != &formula)
      return noted(std::move(t), *it->value.note);
    return t;
  };
  d.substituted = specialise ? term_of(formula, specialising(in, trace, sub)) : term_of(formula, sub);
  return d;
}

namespace {

// `x -> unit` where x prints as `result`.
bool conversion_of(const Term& t, const std::string& result) {
  const Tokens& k = t.tokens;
  for (std::size_t i = k.size(); i-- > 0;)
    if (k[i].kind == Token::Kind::Operator && k[i].text == "->" && k[i].depth == 0)
      return token_text(k.data(), k.data() + i) == result;
  return false;
}

// Which of formula (0), substituted (1) and result (2) a derivation prints,
// without repeats; `text` gets their plain text.
std::vector<int> printed(const Derivation& d, std::vector<std::string>* text) {
  if (d.input) {
    if (text) text->push_back(napkin::text(d.result));
    return {2};
  }
  const std::string formula = napkin::text(d.formula);
  if (d.record) {  // `drill with { ... }`: the formula says it all
    if (text) text->push_back(formula);
    return {0};
  }
  std::string substituted = napkin::text(d.substituted), result = napkin::text(d.result);
  // `time -> day` substitutes to `5.771 day -> day`: the result says it once.
  const bool converted_only = conversion_of(*d.substituted, result);
  std::vector<int> which{0};
  const std::string* last = &formula;
  if (substituted != formula && !converted_only) {
    which.push_back(1);
    last = &substituted;
  }
  const bool result_too = result != *last;
  if (result_too) which.push_back(2);
  if (text) {
    text->push_back(formula);
    if (which.size() > 1 && which[1] == 1) text->push_back(std::move(substituted));
    if (result_too) text->push_back(std::move(result));
  }
  return which;
}

}  // namespace

std::vector<Term> derivation_lines(const Derivation& d) {
  std::vector<Term> lines;
  if (!d.written.empty() && !d.input) lines.push_back(*d.written);
  for (int i : printed(d, nullptr)) lines.push_back(i == 0 ? *d.formula : i == 1 ? *d.substituted : *d.result);
  return lines;
}

std::vector<std::string> derivation_text(const Derivation& d) {
  std::vector<std::string> out;
  if (!d.written.empty() && !d.input) out.push_back(text(d.written));
  printed(d, &out);
  return out;
}

}  // namespace napkin
