#include <fmt/format.h>

#include "interpreter/derivation/check_failure.hpp"
#include "guarded.hpp"

namespace napkin::cli {
namespace {

// `--steps`'s value (main.cpp has checked it), or nothing without --steps.
std::optional<StepDepth> step_depth(const std::string& steps) {
  if (steps.empty()) return std::nullopt;
  if (steps == "short") return StepDepth::Short;
  if (steps == "flat") return StepDepth::Flat;
  return StepDepth::One;
}

CheckDisplay check_display(const std::string& checks) {
  if (checks == "beside") return CheckDisplay::Beside;
  if (checks == "none") return CheckDisplay::None;
  return CheckDisplay::List;
}

}  // namespace

Result cmd_run(const RunArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = nullptr;
    try {
      m = in.load_file(a.file);
    } catch (const Error& e) {
      if (a.format != "json" && a.format != "toml") throw;
      const std::string document = unloaded_report_json(e.diagnostic());
      return Result{a.format == "json" ? document : toml_from_json(document), render(e.diagnostic()), 2};
    }
    const std::optional<StepDepth> steps = step_depth(a.steps);
    // Plain text without --steps shows results only: no formula is printed.
    const bool derivations = steps || a.format != "text";
    // Nor is what a field's formula saw kept: a check keeps its own, for its failure.
    if (!derivations) in.set_tracing(false);
    Report r = build_report(in, m, a.all, /*keep_going=*/true, derivations, steps);
    if (!a.all) keep_own_fields(r);
    Result res;
    // JSON and TOML: one document, to which the solves are added below.
    std::string document;
    if (a.format == "json") document = report_json(in, r);
    else if (a.format == "toml") document = report_toml_json(in, r);
    else if (a.format == "markdown") res.out = report_markdown(in, r, check_display(a.checks));
    else if (a.format == "latex") res.out = report_latex(in, r, check_display(a.checks));
    else res.out = report_text(in, r, TextOptions{steps.has_value()});
    res.code = r.failed() ? 1 : 0;
    // stdout may be JSON or a file; stderr says, for a person, which check failed and where.
    for (const auto& ch : r.checks)
      if (!ch.passed) res.err += render(check_failure(in, ch));
    // Every value that could be computed is on stdout; every error, with its
    // place, on stderr.
    for (const auto& d : r.errors) res.err += render(d);
    if (!r.errors.empty()) res.code = 2;
    // `solve` statements: after everything else, in every format.
    const SolveStatements solves = run_solve_statements(in, m, steps.has_value());
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
