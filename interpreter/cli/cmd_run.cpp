#include <algorithm>

#include "interpreter/derivation/check_failure.hpp"
#include "guarded.hpp"
#include "host.hpp"
#include "restricted.hpp"
#include "interpreter/run/solve_statements.hpp"

namespace napkin::cli {
namespace {

}  // namespace

Result cmd_run(const RunArgs& a, const Common& c) {
  // A run stopped by a limit prints the document of a file that could not be run.
  if (c.restricted && c.process_ends && (a.format == Format::json || a.format == Format::toml))
    on_stop([&](const Diagnostic& d) { return a.format == Format::json ? unloaded_report_json(d) : toml_writers(c).unloaded_report(d); },
            a.format);
  return guarded(c, [&](Interpreter& in) {
    Module* m = nullptr;
    try {
      m = in.load_file(a.file);
    } catch (const Error& e) {
      if (a.format != Format::json && a.format != Format::toml) throw;
      const Diagnostic& d = e.diagnostic();
      return Result{a.format == Format::json ? unloaded_report_json(d) : toml_writers(c).unloaded_report(d), render(d), 2};
    }
    const std::optional<StepDepth> steps = a.steps;
    // Plain text without --steps shows results only: no formula is printed.
    // --brief keeps each formula's two lines but no derivation tree;
    // --brief=values keeps neither (a page's first look, a grader's figures).
    const Derivations derivations = (!steps && a.format == Format::text) || a.brief == Brief::Values ? Derivations::Results
                                    : a.brief == Brief::Lines                                   ? Derivations::Lines
                                                                                                : Derivations::Trees;
    // Nor is what a field's formula saw kept: a check keeps its own, for its failure.
    if (derivations == Derivations::Results) in.set_tracing(false);
    Report r = build_report(in, m, a.all, /*keep_going=*/true, derivations, steps);
    if (!a.all) keep_own_fields(r);
    // `solve` statements: part of the report before any format renders it
    // (a solution sheet opens what each condition read one level).
    r.solves = solve_statements(in, m, steps ? 1 : 0);
    Result res;
    if (a.format == Format::json) res.out = report_json(in, r);
    else if (a.format == Format::toml) res.out = toml_writers(c).report(in, r);
    else if (a.format == Format::markdown) res.out = report_markdown(in, r, a.checks);
    else if (a.format == Format::latex) res.out = report_latex(in, r, a.checks);
    else res.out = report_text(in, r, TextOptions{steps.has_value()});
    res.code = r.failed() ? 1 : 0;
    // stdout may be JSON or a file; stderr says, for a person, which check failed and where.
    for (const auto& ch : r.checks)
      if (!ch.passed) res.err += render(check_failure(in, ch));
    // Every value that could be computed is on stdout; every error, with its
    // place, on stderr: the report's, then each solve's that found nothing.
    for (const auto& d : r.errors) res.err += render(d);
    for (const auto& s : r.solves)
      if (s.error) res.err += render(*s.error);
    if (!r.errors.empty() || std::any_of(r.solves.begin(), r.solves.end(), [](const SolveReport& s) { return !s.ok; }))
      res.code = 2;
    return res;
  });
}

}  // namespace napkin::cli
