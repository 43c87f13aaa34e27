// `napkin grade REFERENCE SUBMISSION`: the reference's checks run against the
// submission's names, each with its name and points; for each failed check,
// the first step where the submission parts from the reference.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "interpreter/derivation/check_failure.hpp"
#include "interpreter/io/read_source.hpp"
#include "graded.hpp"
#include "guarded.hpp"
#include "restricted.hpp"
#include "wrong_step.hpp"

namespace napkin::cli {

namespace {

// What a failed check tells the student, and what it still earns.
struct Feedback {
  Comparison& cmp;
  const std::vector<Step>& answers;  // every answer the reference checks
  bool show_reference;
  double share;  // of its points, for an answer right from wrong earlier ones
  Module* scope;
  std::map<std::string, std::string> explained;  // each wrong step, by the check that explains it

  void failed(CheckOutcome& ch, const std::vector<Step>& mine, const CheckResult* r) {
    in_student_units(ch, mine, r);
    std::vector<Step> wrong;
    if (!carry(ch, mine, r, wrong))
      for (const Step& s : mine)
        for (const Step& w : cmp.first_wrong(s)) wrong.push_back(w);
    std::set<std::string> said;
    for (const Step& w : wrong) {
      if (!said.insert(w.name).second) continue;
      if (auto it = explained.find(w.name); it != explained.end()) {
        ch.feedback.push_back(fmt::format("first wrong step: {}, explained under \"{}\"", w.name, it->second));
        continue;
      }
      std::vector<std::string> lines = cmp.explain(w, answers, show_reference);
      if (lines.empty()) continue;
      explained[w.name] = ch.name;
      for (auto& line : lines) ch.feedback.push_back(std::move(line));
    }
  }

  // The student's value in the unit the student wrote (`470.19 GiB`), not
  // only in the checker's (`504.9 GB`).
  void in_student_units(CheckOutcome& ch, const std::vector<Step>& mine, const CheckResult* r) {
    if (!r || r->relation.empty() || mine.size() != 1 || r->actual.kind != Value::Kind::Quantity) return;
    const Value* v = cmp.sub_value(mine[0]);
    const DisplayUnit* u = cmp.written_unit(mine[0]);
    if (!v || !u || u == r->written_in || v->kind != Value::Kind::Quantity || v->q.v != r->actual.q.v) return;
    Value shown = r->actual;
    shown.display = u;
    const std::string in_checker = ch.actual;
    ch.actual = ch.actual_own = cmp.sub_show(shown);
    // The checker's unit says which unit the question wants: shown only beside the expected value.
    if (show_reference && in_checker != ch.actual) ch.actual += " (" + in_checker + ")";
    if (!ch.answer.empty()) ch.message = failed_message(ch, true);
  }

  // Each answer the check reads is what the reference's formula gives from
  // the student's own earlier answers, and those are wrong: the check earns
  // `share` of its points. `wrong`: the student's wrong earlier answers.
  bool carry(CheckOutcome& ch, const std::vector<Step>& mine, const CheckResult* r, std::vector<Step>& wrong) {
    if (mine.empty() || !r) return false;
    bool from_wrong = false;
    std::vector<std::string> inputs;
    std::vector<Step> wrong_inputs;
    for (const Step& s : mine) {
      Value right;
      std::vector<Step> read;
      const Value* v = cmp.sub_value(s);
      if (!v || !cmp.carried(s, scope, right, read) || !agrees(*v, right, mine.size() == 1 ? r : nullptr)) return false;
      if (cmp.differs_from_reference(s.name, right) == 1) from_wrong = true;
      for (const Step& in : read)
        if (cmp.differs(in) == 1 && std::find(inputs.begin(), inputs.end(), in.name) == inputs.end()) {
          inputs.push_back(in.name);
          wrong_inputs.push_back(in);
        }
    }
    if (!from_wrong || inputs.empty()) return false;
    for (const Step& in : wrong_inputs)
      for (const Step& w : cmp.first_wrong(in)) wrong.push_back(w);
    ch.carried_forward = share > 0;
    ch.score = ch.points * share;
    std::string names;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      names += (i == 0 ? "" : i + 1 == inputs.size() ? " and " : ", ") + inputs[i];
    const std::string what = mine.size() == 1 ? mine[0].name : "the answer";
    const std::string is = inputs.size() == 1 ? "is" : "are";
    ch.feedback.push_back(
        share > 0 ? fmt::format("carried forward: {} is right by the reference's method from your own {}, which {} "
                                "wrong: {} of {} points",
                                what, names, is, show_points(ch.score), show_points(ch.points))
                  : fmt::format("{} is right by the reference's method from your own {}, which {} wrong; no "
                                "credit is carried forward",
                                what, names, is));
    return true;
  }

  // The student's value and the one carried forward agree: within a ≈
  // check's own tolerance, else to one part in 10⁹.
  static bool agrees(const Value& mine, const Value& right, const CheckResult* r) {
    if (mine.kind != right.kind) return false;
    if (mine.kind == Value::Kind::Bool) return mine.b == right.b;
    if (mine.kind != Value::Kind::Quantity || mine.q.dim != right.q.dim) return false;
    const double diff = std::fabs(mine.q.v - right.q.v);
    if (r && r->relation == "≈" && r->tolerance.kind == Value::Kind::Quantity) {
      const Quantity& t = r->tolerance.q;
      if (t.dim.dimensionless()) return diff <= t.v * std::fabs(right.q.v) * (1 + 1e-12);
      if (t.dim == mine.q.dim) return diff <= t.v;
    }
    return diff <= 1e-9 * std::max(std::fabs(mine.q.v), std::fabs(right.q.v));
  }
};

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
