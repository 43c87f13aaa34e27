#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "guarded.hpp"

namespace napkin::cli {

namespace {

// A record has no derivation of its own: `train = train` says nothing.
// Its fields do, and the error names the ones worth asking for.
void refuse_record(Interpreter& in, Module* m, const std::string& name) {
  const ast::Expr& e = in.parse_snippet("<explain>", name);
  const Value v = in.eval_in(m, e);
  if (v.kind != Value::Kind::Record) return;
  std::vector<std::string> fields = headline_fields(in, m, v.rec);
  if (fields.empty())
    for (const Slot& s : v.rec->slots())
      if (fields.size() < 5 && s.decl && s.decl->span.file == v.rec->span.file) fields.push_back(s.name);
  // `plan with { tp = 8 }` is no prefix for a field: parenthesised.
  const bool path = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  const std::string prefix = path ? name : "(" + name + ")";
  std::string listed;
  for (const auto& f : fields) listed += (listed.empty() ? "" : ", ") + fmt::format("{}.{}", prefix, f);
  Diagnostic d;
  d.code = codes::usage;
  d.message = fmt::format("`{}` is a record: napkin explain explains one value, a field of it", name);
  d.labels.push_back({e.span, "a record", true});
  if (!listed.empty()) d.help = fmt::format("name a field, such as {}", listed);
  throw Error(std::move(d));
}

}  // namespace

Result cmd_explain(const ExplainArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    // An error is thrown; with --format json, guarded writes it as a document.
    Module* m = in.load_file(a.file);
    refuse_record(in, m, a.name);
    const ExplainNode root = explain(in, m, a.name, a.depth);
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
