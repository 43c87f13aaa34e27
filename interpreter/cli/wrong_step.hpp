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

  // Lines for the student about one failed answer: the first wrong step of
  // each mistake under it, how many of `all_answers` depend on it, and the
  // student's own derivation of it. Empty when the answer agrees with the
  // reference (a failed check whose answers all agree says nothing more).
  std::vector<std::string> explain(const Step& answer, const std::vector<Step>& all_answers);

  // The given inputs (the reference's own fields written as literals) that
  // the submission gives another value.
  std::vector<std::string> changed_inputs();

 private:
  Interpreter& sub_;
  Module* sub_m_;
  Interpreter& ref_;
  Module* ref_m_;

  std::vector<Step> deps(const Step& s);
  std::set<Step> closure(const Step& s);
  // 1: differs from the reference; 0: agrees; -1: nothing to compare with.
  int differs(const Step& s);
  bool tainted(const Step& s, std::set<Step>& seen);
  const Value* sub_value(const Step& s);
  bool ref_value(const std::string& dotted, Value& out);
  std::string derivation(const Step& s);
};

}  // namespace napkin::cli
