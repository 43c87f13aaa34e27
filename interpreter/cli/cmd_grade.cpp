// `napkin grade REFERENCE SUBMISSION`: the reference's checks run against the
// submission's names, each with its name and points; for each failed check,
// the first step where the submission parts from the reference, and the
// share of its points carried forward when it is right from wrong earlier
// answers (feedback.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "interpreter/derivation/check_failure.hpp"
#include "interpreter/io/read_source.hpp"
#include "graded.hpp"
#include "guarded.hpp"
#include "restricted.hpp"
#include "feedback.hpp"
#include "wrong_step.hpp"

namespace napkin::cli {

namespace {

GradedFile grade(Interpreter& ref, Module* ref_m, const GradeArgs& a, const Common& c) {
  GradedFile g;
  g.file = a.submission;
  Common sc = c;
  sc.root_file = a.submission;
  Diagnostic stopped;  // what stopped the submission, if the body did not catch it (I/O, internal)
  const Result r = guarded(sc, [&](Interpreter& sub) {
    Module* sub_m = nullptr;
    try {
      sub_m = sub.load_file(a.submission);
    } catch (const Error& e) {
      // The reference's checks, each errored with the submission's error.
      g = unrunnable(a.submission, std::string(ref_m->file->text), e.diagnostic());
      for (auto& ch : g.checks) ch.file = a.reference;
      return Result{};
    }
    try {
      const Report report = build_report(sub, sub_m, false, /*keep_going=*/true, Derivations::Results);
      // The checks see the submission's answers and nothing else of it.
      Module* scope = sub.grading_scope(*ref_m, sub_m);
      g.checks = graded_checks(sub, ref_m->ast, scope);
      add_file_errors(g, report.errors);
      Comparison cmp(sub, sub_m, ref, ref_m);
      g.notes = cmp.changed_inputs(a.disclosure.expected);
      // Every answer the reference checks, for "N answers depend on it".
      std::vector<Step> answers;
      std::vector<std::vector<Step>> per_check;
      std::vector<std::optional<CheckResult>> results;
      for (const auto& st : ref_m->ast.statements) {
        if (st.kind != ast::StmtKind::Check) continue;
        std::vector<Step> mine;
        std::optional<CheckResult> r;
        try {
          r = sub.run_check(st, scope);
          mine = Comparison::answers_of(r->trace);
        } catch (const Error&) {
        }
        for (const Step& s : mine)
          if (std::none_of(answers.begin(), answers.end(), [&](const Step& o) { return o.name == s.name; }))
            answers.push_back(s);
        per_check.push_back(std::move(mine));
        results.push_back(std::move(r));
      }
      Feedback fb{cmp, answers, a.disclosure.expected, a.carried_forward, scope, {}};
      for (std::size_t i = 0; i < g.checks.size() && i < per_check.size(); ++i)
        if (g.checks[i].status == CheckOutcome::Status::failed)
          fb.failed(g.checks[i], per_check[i], results[i] ? &*results[i] : nullptr);
    } catch (const std::bad_alloc&) {
      g = unrunnable(a.submission, std::string(ref_m->file->text),
                     diagnose(std::current_exception(), c.restricted ? c.memory_limit : 0));
    }
    return Result{};
  }, &stopped);
  if (g.checks.empty() && !r.err.empty()) g = unrunnable(a.submission, std::string(ref_m->file->text), stopped);
  return g;
}

}  // namespace

Result cmd_grade(const GradeArgs& a, const Common& c) {
  // The reference is the grader's own file: not restricted, but it measures
  // nothing live either, so that both sides take the same `else`.
  Common rc = c;
  rc.restricted = false;
  rc.no_measure = c.no_measure || c.restricted;
  rc.root_file = a.reference;
  Disclosure shown = a.disclosure;
  shown.secret_files = {a.reference};
  return guarded(rc, [&](Interpreter& ref) {
    Module* ref_m = ref.load_file(a.reference);
    if (c.restricted && c.process_ends)
      on_stop([&, shown](const Diagnostic& d) {
        GradedFile out = unrunnable(a.submission, std::string(ref_m->file->text), d);
        for (auto& ch : out.checks) ch.file = a.reference;
        return render_graded({out}, a.format, "napkin grade", shown);
      }, a.format);
    // The reference must pass its own checks: a grade against a wrong
    // reference would be wrong.
    for (const auto& st : ref_m->ast.statements) {
      if (st.kind != ast::StmtKind::Check) continue;
      const CheckResult self = ref.run_check(st);
      if (!self.passed) {
        Diagnostic d = check_failure(ref, self);
        d.message = "the reference fails its own check: " + d.message;
        d.help = "fix the reference first: `napkin check " + a.reference + "`";
        throw Error(std::move(d));
      }
    }
    const GradedFile g = grade(ref, ref_m, a, c);
    Result res;
    res.out = render_graded({g}, a.format, "napkin grade", shown);
    res.code = graded_status({g});
    return res;
  });
}

}  // namespace napkin::cli
