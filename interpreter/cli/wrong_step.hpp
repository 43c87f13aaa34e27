#pragma once
// Where a submission parts from the reference (`napkin grade`): a field of
// the submission is compared with the reference's field of the same name
// (`q6.kv_per_token`), following what each of the submission's formulas
// used, inputs first; the first step that differs while every step it uses
// agrees is where the work went wrong. The reference is asked for values
// only: its formulas are never shown.
#include <set>
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"

namespace napkin::cli {

// A field of a record, or a top-level let, of the submission.
struct Step {
  Record* rec = nullptr;
  std::size_t idx = 0;
  Binding* binding = nullptr;
  std::string name;  // "q6.kv_per_token", or the let's name; "" for a record with no name
  bool operator<(const Step& o) const {
    return rec != o.rec ? rec < o.rec : binding != o.binding ? binding < o.binding : idx < o.idx;
  }
};

class Comparison {
 public:
  // `sub`, `sub_m`: the submission, loaded; `ref`, `ref_m`: the reference.
  Comparison(Interpreter& sub, Module* sub_m, Interpreter& ref, Module* ref_m)
      : sub_(sub), sub_m_(sub_m), ref_(ref), ref_m_(ref_m) {}

  // The fields and lets a check's trace used directly: its answers.
  static std::vector<Step> answers_of(const Trace& check_trace);

  // The first wrong steps under an answer, inputs first: each differs from
  // the reference while every step it uses agrees. The answer itself, when
  // nothing under it differs.
  std::vector<Step> first_wrong(const Step& answer);

  // Lines for the student about one first wrong step: both values (with
  // `show_reference`; else only the student's), how many of `all_answers`
  // depend on it, and the student's own derivation of it.
  std::vector<std::string> explain(const Step& wrong, const std::vector<Step>& all_answers, bool show_reference);

  // The reference's formula for `answer`, evaluated in `scope` (the grading
  // scope: the submission's own values, the reference's functions) with
  // the submission's record as its own: what the answer would be, right,
  // from the student's earlier answers. `inputs`: the submission's steps
  // it read. False when the reference has no formula for it, or the
  // formula cannot be evaluated there.
  bool carried(const Step& answer, Module* scope, Value& out, std::vector<Step>& inputs);

  // 1: `v` differs from the reference's value of `name`; 0: it agrees;
  // -1: nothing to compare with.
  int differs_from_reference(const std::string& name, const Value& v);
  // 1: the step differs from the reference; 0: agrees; -1: nothing to compare with.
  int differs(const Step& s);

  // The unit the student wrote a step's value in (`-> GiB`, or a literal's
  // `470.19 GiB`); null when none.
  const DisplayUnit* written_unit(const Step& s);
  const Value* sub_value(const Step& s);
  std::string sub_show(const Value& v) const { return sub_.show(v); }

  // The given inputs (the reference's own fields written as literals) that
  // the submission gives another value; with `show_reference`, the
  // reference's value too.
  std::vector<std::string> changed_inputs(bool show_reference);

 private:
  Interpreter& sub_;
  Module* sub_m_;
  Interpreter& ref_;
  Module* ref_m_;

  std::vector<Step> deps(const Step& s);
  std::set<Step> closure(const Step& s);
  bool tainted(const Step& s, std::set<Step>& seen);
  std::string shown_mine(const Step& s, const Value& v);
  bool ref_value(const std::string& dotted, Value& out);
  std::string derivation(const Step& s);
};

}  // namespace napkin::cli
