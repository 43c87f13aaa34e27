#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_explain(const ExplainArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    ExplainNode root;
    try {
      root = explain(in, in.load_file(a.file), a.name, a.depth);
    } catch (const Error& e) {
      // JSON is a document even so: the error as data, for a notebook to lay out in its own places.
      if (a.format != Format::json) throw;
      return Result{explain_failed_json(e.diagnostic()), render(e.diagnostic()), 2};
    }
    if (a.format == Format::json) return Result{explain_json(root), "", 0};
    if (a.format == Format::toml) return Result{toml_writers(c).explain(root), "", 0};
    if (a.format == Format::markdown) return Result{explain_markdown(root, a.flat), "", 0};
    if (a.format == Format::latex) return Result{explain_latex(root, a.flat), "", 0};
    ExplainTextOptions o;
    o.flat = a.flat;
    o.sources = a.sources;
    return Result{explain_text(root, "", o), "", 0};
  });
}

}  // namespace napkin::cli
