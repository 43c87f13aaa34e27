#include <fmt/format.h>

#include "guarded.hpp"
#include "interpreter/core/prelude.hpp"

namespace napkin::cli {
namespace {

// Whether an expression names anything (a let, a record, a function) that
// only the standard library could give it.
bool names_something(const ast::Expr& e) {
  bool found = e.kind == ast::ExprKind::Name;
  ast::for_each_child(e, [&](const ast::Expr& c) { found = found || names_something(c); });
  return found;
}

}  // namespace

Result cmd_eval(const EvalArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    const ast::Expr& e = in.parse_snippet("<eval>", a.expr);
    Trace trace;
    Value v;
    // A conversion such as `39.02 GB -> GiB` needs no standard library, and
    // loading it is most of the command's time. If such an expression fails
    // without it (a unit the library declares, such as `request`), it is
    // evaluated again with it, so the answer and any error are the same.
    // An expression that names something from the library needs the modules
    // that define it, not all fifteen; it is evaluated again with all of them
    // if it fails with those, for the same reason.
    bool done = false;
    try {
      if (Module* first = names_something(e) ? prelude_for(in, e) : in.load_source("<no imports>", "", "")) {
        v = in.eval_in(first, e, &trace);
        done = true;
      }
    } catch (const Error&) {
      trace = {};
    }
    if (!done) v = in.eval_in(in.prelude(), e, &trace);
    Result res;
    if (a.steps) {
      const Derivation d = derive(in, e, trace, v);
      for (const auto& line : derivation_text(d)) res.out += "= " + line + "\n";
      res.out.erase(0, 2);
      if (!d.note.empty()) res.out.insert(res.out.size() - 1, "  [" + d.note + "]");
    } else {
      res.out = in.show(v) + "\n";
    }
    return res;
  });
}

}  // namespace napkin::cli
