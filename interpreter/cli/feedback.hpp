#pragma once
// What a failed check of `napkin grade` tells the student, and what it still
// earns: its first wrong steps, each explained once across the checks, its
// value in the unit the student wrote, and carried-forward credit when its
// answers are right by the reference's method from the student's own wrong
// earlier answers (docs/grading.md). Shared by cmd_grade.cpp and the fuzz
// target that grades as it does.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "interpreter/output/check_results.hpp"
#include "wrong_step.hpp"

namespace napkin::cli {

// What a failed check tells the student, and what it still earns.
struct Feedback {
  Comparison& cmp;
  const std::vector<Step>& answers;  // every answer the reference checks
  bool show_expected;  // the reference's values (--show-expected)
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
      std::vector<std::string> lines = cmp.explain(w, answers, show_expected);
      if (lines.empty()) continue;
      explained[w.name] = shown_name(ch);
      for (auto& line : lines) ch.feedback.push_back(std::move(line));
    }
  }

  // The check's name as the student reads it: an unnamed check's text holds
  // the expected value, so without it the check is named by its answer (disclose()).
  std::string shown_name(const CheckOutcome& ch) const {
    if (show_expected || ch.name != ch.source) return ch.name;
    return ch.answer.empty() ? "an earlier check" : ch.answer;
  }

  // The student's value in the unit the student wrote (`470.19 GiB`), not
  // only in the checker's (`504.9 GB`).
  void in_student_units(CheckOutcome& ch, const std::vector<Step>& mine, const CheckResult* r) {
    if (!r || r->relation.empty() || mine.size() != 1 || r->actual.kind != Value::Kind::Quantity) return;
    const Value* v = cmp.sub_value(mine[0]);
    const DisplayUnit* u = cmp.written_unit(mine[0]);
    if (!v || !u || v->kind != Value::Kind::Quantity || v->q.v != r->actual.q.v) return;
    Value shown = r->actual;
    shown.display = u;
    ch.actual_own = cmp.sub_show(shown);
    if (u == r->written_in) return;  // the checker's unit is the student's: `actual` says it already
    const std::string in_checker = ch.actual;
    ch.actual = ch.actual_own;
    // The checker's unit says which unit the question wants: shown only beside the expected value.
    if (show_expected && in_checker != ch.actual) ch.actual += " (" + in_checker + ")";
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

}  // namespace napkin::cli
