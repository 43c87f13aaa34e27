#pragma once
// `napkin solve`: the value of one input of a record at which a condition
// holds. `where A == B` finds where A crosses B; `max where C` the largest
// value for which C holds, `min where C` the smallest. The condition is
// assumed monotone in the input over the bracket, and found by bisection;
// an input whose value is a whole number with no unit (batch, layers) is
// searched over whole numbers. What bisection ends on is verified before it
// is reported: a sign change of A - B across a jump or a pole is an error
// (E0504), not a solution.
#include <optional>
#include <string>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/solve_goal.hpp"

namespace napkin {

struct SolveSpec {
  std::string record;     // an expression naming the record: "decode", "plan.serving"
  std::string input;      // the field to find: "batch"
  SolveGoal goal = SolveGoal::Equal;
  std::string condition;  // Equal: "A == B"; Max and Min: a boolean; both in the record's scope
  std::string lo, hi;     // the bracket, as expressions in the file's scope; both empty: found from the input's value
  // A `solve` statement gives its condition and bracket as nodes of the
  // file (used instead of `condition`, `lo` and `hi`, so errors point into
  // the file), and its place, which errors without one of their own get.
  const ast::Expr* condition_node = nullptr;
  const ast::Expr* lo_node = nullptr;
  const ast::Expr* hi_node = nullptr;
  Span at;
  Span record_at;  // the statement's record, where it names one
  Span input_at;   // the statement's input
};

struct SolveResult {
  std::string record;  // "decode"
  std::string input;   // "batch"
  SolveGoal goal = SolveGoal::Equal;
  std::string condition;
  const ast::Expr* condition_expr = nullptr;
  bool integer = false;          // searched over whole numbers
  Value solution;                // the input's value
  Value lo, hi;                  // the bracket searched
  bool at_bracket_end = false;   // max/min: the condition holds at the end of a given bracket
  Record* at = nullptr;          // the record with the input set to the solution
  Value value;                   // the condition at the solution: a boolean, or A for Equal
  Value target;                  // Equal: B at the solution
  Trace trace;                   // what the condition saw at the solution, for its derivation
  // Whole-number inputs: the next whole number past the solution (max: +1,
  // min and Equal: -1) and the condition there, which does not hold.
  std::optional<Value> beyond;
  Value beyond_value;
  Value beyond_target;
  int evaluations = 0;
  std::string where_set;         // where the input is declared: "file:line"
};

// The largest number of evaluations one solve may make.
inline constexpr int kMaxSolveEvaluations = 400;

SolveResult solve(Interpreter& in, Module* m, const SolveSpec& spec);

// "max where memory_fits", "where tokens_per_s == 2000 token/s"
std::string goal_text(SolveGoal g, const std::string& condition);

}  // namespace napkin
