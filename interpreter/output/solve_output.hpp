#pragma once
// A `solve` statement's answer (SolveReport) as each format shows it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report.hpp"

namespace napkin {

// The solution, how it was searched, the condition on both sides of it, and
// the derivation of every field the condition read (as deep as the report
// was filled): what `napkin solve` and a solution sheet print. A statement
// that found nothing prints its brief form.
std::string solve_text(const Interpreter& in, const SolveReport& s);
// The statement, the solution and the condition on both sides of it; or the
// statement and its error.
std::string solve_brief_text(const Interpreter& in, const SolveReport& s);
// The same lines as data: `level` steps of indentation, the text.
struct SolveLine {
  int level = 0;
  std::string text;
};
std::vector<SolveLine> solve_brief_lines(const Interpreter& in, const SolveReport& s);
// Every solve of the report, each after a blank line: brief, or on a
// solution sheet (Report::steps) in full.
std::string solves_text(const Interpreter& in, const Report& r);
// As JSON and TOML carry it; with `statement`, the statement as written
// first (the report's solves; `napkin solve` has none).
nlohmann::ordered_json solve_tree(const Interpreter& in, const SolveReport& s, bool statement);
std::string solve_json(const Interpreter& in, const SolveReport& s);

}  // namespace napkin
