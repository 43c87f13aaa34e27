#pragma once
// What students may read of a graded run (`napkin grade`, `napkin check
// --format json|junit|gradescope`): on a course that allows resubmission,
// one wrong submission must not hand out every answer. By default neither
// the expected values nor the checks' places in the reference are shown;
// the author opens them with --show-expected and --show-reference, and sets
// Gradescope's visibility for the whole result and per test.
#include <map>
#include <string>
#include <vector>

namespace napkin {

// Gradescope's visibility settings (its autograder specification).
inline const std::vector<std::string> kVisibilities = {"hidden", "after_due_date", "after_published", "visible"};

struct Disclosure {
  bool expected = false;   // expected values, the checks as written, the reference's values in feedback
  bool reference = false;  // path:line of each check, and the lines an error there quotes
  std::string visibility = "visible";       // the whole result's (Gradescope)
  std::string test_visibility = "visible";  // each test's, unless named below
  std::map<std::string, std::string> per_test;  // by check name
  // The files that hold the expected values: the reference, or the checkers.
  std::vector<std::string> secret_files;
};

}  // namespace napkin
