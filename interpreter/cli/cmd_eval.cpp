#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_eval(const EvalArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* prelude = in.prelude();
    const ast::Expr& e = in.parse_snippet("<eval>", a.expr);
    Trace trace;
    Value v = in.eval_in(prelude, e, &trace);
    Result res;
    if (a.steps) {
      const Derivation d = derive_text(in, e, trace, v);
      for (const auto& line : derivation_lines(d)) res.out += "= " + line + "\n";
      res.out.erase(0, 2);
      if (!d.note.empty()) res.out.insert(res.out.size() - 1, "  [" + d.note + "]");
    } else {
      res.out = in.show(v) + "\n";
    }
    return res;
  });
}

}  // namespace napkin::cli
