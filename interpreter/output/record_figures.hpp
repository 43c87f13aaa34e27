#pragma once
// The figures of a record that evaluating a file read: what a handout lists
// under `gpu = h200` and what `napkin diff` lists under `node.gpu h200 →
// mi300x`. A figure is a field that a block of the record, or of one it
// extends, declares as a literal (a spec's own number, never a computed
// value, which may be an answer), and not the kind at the root of its chain
// (`transformer`, `gpu`), whose defaults (`sliding_window = 0 token`) are no
// figure of this one. `figures_read` takes a figure as read when its value
// was computed (the field's memo holds it: a formula, a function's body or
// a check used it), which holds for a record the file only names; `napkin
// diff` asks the versions' traces instead, since a record the file defines
// has every field computed for the report.
#include <cstddef>
#include <vector>

#include "interpreter/core/record.hpp"
#include "interpreter/derivation/derivation.hpp"

namespace napkin {

inline bool is_figure(const Record& r, std::size_t i) {
  const Slot& slot = r.slots()[i];
  return slot.super && slot.decl && slot.decl->value && is_literal(*slot.decl->value);  // super: a block with a base
}

inline std::vector<std::size_t> figures_read(const Record& r) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.slots().size() && i < r.state.size(); ++i)
    if (r.state[i].status == FieldState::Status::Done && r.state[i].value.kind == Value::Kind::Quantity &&
        is_figure(r, i))
      out.push_back(i);
  return out;
}

}  // namespace napkin
