#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_explain(const ExplainArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    // An error is thrown; with --format json, guarded writes it as a document.
    const ExplainNode root = explain(in, in.load_file(a.file), a.name, a.depth);
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
