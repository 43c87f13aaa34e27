#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_explain(const ExplainArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    ExplainNode root = explain(in, m, a.name, a.depth);
    return Result{explain_text(root), "", 0};
  });
}

}  // namespace napkin::cli
