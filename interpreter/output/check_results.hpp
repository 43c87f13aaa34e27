#pragma once
// Check results as a grader reads them (`napkin check --format`, `napkin
// grade`): every check of a file, passed, failed or errored, with its name,
// points, place, the actual and expected values and the tolerance in the
// checker's units, and a message; a file that could not be loaded is a
// result too, its checks errored with its diagnostic. Rendered as text,
// JSON, JUnit XML and Gradescope's results.json (check_formats.cpp).
#include <optional>
#include <string>
#include <vector>

#include "grammar/diagnostic.hpp"
#include "disclosure.hpp"
#include "error_info.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {


struct CheckOutcome {
  enum class Status { passed, failed, errored };
  Status status = Status::errored;
  std::string name;    // as the checker named it, or the check as written
  std::string source;  // the check as written
  std::string file;
  int line = 0;
  double points = 1;  // what it is worth
  double score = 0;   // what it earned: `points` when passed, else 0
  // As shown, in the unit the checker wrote the expected value in; empty
  // where the check has none (a condition that is not a comparison).
  std::string relation, actual, expected, tolerance;
  // The actual value as shown on its own, not in the checker's unit (which
  // may tell which unit the question wants): what students read without
  // the expected value.
  std::string actual_own;
  std::string message;  // one line: why it failed or errored; "" when passed
  std::optional<ErrorInfo> error;
  std::vector<std::string> feedback;  // more lines for the student (napkin grade)
  // A failed check's account as `napkin check` prints it under the check:
  // the comparison, then the derivation of what it compared (it shows the
  // expected value, so only with Disclosure::expected).
  std::vector<std::string> derivation;
  // The answer a comparison checks, when its left side is a name
  // (`q1.kv_per_token`): what a student may read of a check whose text
  // holds the expected value.
  std::string answer;
  std::string detail;  // a failed ≈'s "off by 2.3% (allowed 1%)"
  // Earned as an answer right from the student's own wrong earlier answers
  // (napkin grade's carried-forward credit): `score` is a share of `points`.
  bool carried_forward = false;
  std::string visibility = "visible";  // Gradescope's, for this test
};

struct GradedFile {
  std::string file;
  std::vector<CheckOutcome> checks;
  std::vector<ErrorInfo> errors;  // errors met outside the checks (a field no check uses)
  std::vector<std::string> notes;  // about the whole file (napkin grade: the given inputs it changed)
  double score() const;
  double max_score() const;
};

// Runs every check of `m`, in order, each on its own: an error in one is
// that check's result.
std::vector<CheckOutcome> graded_checks(Interpreter& in, Module* m);
// The checks written in `checks` (another interpreter's module, which must
// outlive the results) run in `in` against the names of `scope`.
std::vector<CheckOutcome> graded_checks(Interpreter& in, const ast::Module& checks, Module* scope);

// The outcome of one check already run.
CheckOutcome outcome_of(const Interpreter& in, const CheckResult& r);

// A comparison's two sides and an ≈'s tolerance as a grader reads them: in
// the unit the checker wrote the expected value in, shown with `digits`
// (enough to tell a failed check's sides apart).
struct CheckValues {
  Value actual, expected, tolerance;
  int digits = 0;
};
CheckValues check_values(const Interpreter& in, const CheckResult& r);

// A file that could not be run: the checks written in `top` (the file named
// on the command line, if it parses on its own) each errored with `d`, or,
// when none can be found, one result worth nothing that carries `d`.
GradedFile unrunnable(const std::string& file, const std::string& text, const Diagnostic& d);

// "check failed: q1.kv_per_token is 262,144 B/token", and with
// `with_expected` what it was expected to be.
std::string failed_message(const CheckOutcome& c, bool with_expected);

// What students may read of the results (disclosure.hpp): the expected
// values and the checks as written taken out unless shown, the places in
// the checker's files too, and each test's Gradescope visibility.
void disclose(std::vector<GradedFile>& files, const Disclosure& d);

// The formats. `title` names the run ("napkin check", "napkin grade").
std::string graded_json(const std::vector<GradedFile>& files);
std::string graded_junit(const std::vector<GradedFile>& files, const std::string& title);
// `visibility`: Gradescope's for the whole result.
std::string graded_gradescope(const std::vector<GradedFile>& files, const std::string& visibility = "visible");
std::string graded_text(const std::vector<GradedFile>& files);

// "2", "0.5": a score as JSON and text show it.
std::string show_points(double p);

}  // namespace napkin
