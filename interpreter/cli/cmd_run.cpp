#include <fmt/format.h>

#include "interpreter/derivation/check_failure.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_run(const RunArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    // Plain text without --steps shows results only: no formula is printed.
    const bool derivations = a.steps || a.format != "text";
    // Nor is what a field's formula saw kept: a check keeps its own, for its failure.
    if (!derivations) in.set_tracing(false);
    Report r = build_report(in, m, a.all, /*keep_going=*/true, derivations);
    if (!a.all) keep_own_fields(r);
    Result res;
    // JSON and TOML: one document, to which the solves are added below.
    std::string document;
    if (a.format == "json") document = report_json(in, r);
    else if (a.format == "toml") document = report_toml_json(in, r);
    else if (a.format == "markdown") res.out = report_markdown(in, r);
    else if (a.format == "latex") res.out = report_latex(in, r);
    else res.out = report_text(in, r, TextOptions{a.steps});
    res.code = r.failed() ? 1 : 0;
    // stdout may be JSON or a file; stderr says, for a person, which check failed and where.
    for (const auto& ch : r.checks)
      if (!ch.passed) res.err += render(check_failure(in, ch));
    // Every value that could be computed is on stdout; every error, with its
    // place, on stderr.
    for (const auto& d : r.errors) res.err += render(d);
    if (!r.errors.empty()) res.code = 2;
    // `solve` statements: after everything else, in every format.
    const SolveStatements solves = run_solve_statements(in, m, a.steps);
    if (solves.count > 0) {
      if (a.format == "text") res.out += solves.text;
      else if (a.format == "markdown") res.out += "\n## solve\n\n```" + solves.text + "```\n";
      else if (a.format == "latex") res.out = with_latex_section(res.out, solves_latex(solves.brief));
      else if (!solves.json.empty()) document = with_json_array(document, "solves", solves.json);
      res.err += solves.err;
      if (solves.errors) res.code = 2;
    }
    if (a.format == "json") res.out = std::move(document);
    else if (a.format == "toml") res.out = toml_from_json(document);
    return res;
  });
}

}  // namespace napkin::cli
