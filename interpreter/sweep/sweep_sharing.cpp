#include "sweep_sharing.hpp"

namespace napkin {
namespace {

void names_in(const ast::Expr& e, std::vector<const std::string*>& out) {
  if (e.kind == ast::ExprKind::Name) out.push_back(&e.text);
  ast::for_each_child(e, [&](const ast::Expr& c) { names_in(c, out); });
}

}  // namespace

std::vector<bool> dependent_fields(const Record& r, const std::vector<std::size_t>& inputs) {
  const auto& slots = r.slots();
  const auto& index = r.index();
  // users[i]: the fields whose formulas name field i
  std::vector<std::vector<std::size_t>> users(slots.size());
  std::vector<const std::string*> names;
  for (std::size_t j = 0; j < slots.size(); ++j) {
    if (!slots[j].decl || !slots[j].decl->value) continue;
    names.clear();
    names_in(*slots[j].decl->value, names);
    for (const std::string* n : names)
      if (auto it = index.find(*n); it != index.end()) users[it->second].push_back(j);
  }
  std::vector<bool> dependent(slots.size(), false);
  std::vector<std::size_t> todo(inputs.begin(), inputs.end());
  for (std::size_t i : inputs) dependent[i] = true;
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    for (std::size_t j : users[i])
      if (!dependent[j]) {
        dependent[j] = true;
        todo.push_back(j);
      }
  }
  return dependent;
}

std::vector<std::size_t> independent_fields(const std::vector<bool>& dependent) {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < dependent.size(); ++j)
    if (!dependent[j]) out.push_back(j);
  return out;
}

void share_independent_fields(Record& to, const Record& from, const std::vector<std::size_t>& independent) {
  for (std::size_t j : independent) {
    if (j >= to.state.size() || j >= from.state.size()) break;
    const FieldState& src = from.state[j];
    FieldState& dst = to.state[j];
    if (src.status == FieldState::Status::Done && dst.status == FieldState::Status::Unevaluated) {
      dst.value = src.value;
      dst.status = FieldState::Status::Done;
    }
  }
}

}  // namespace napkin
