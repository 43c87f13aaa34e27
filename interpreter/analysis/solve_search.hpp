#pragma once
// The pieces of a solve, in the order they run: the condition seen at one
// value of the input (Search), the bracket that holds the answer (given, or
// widened from the input's value), bisection inside it, and verification
// that what bisection ended on meets the condition. Private to solve.cpp.
#include <string>

#include "solve.hpp"

namespace napkin::solve_detail {

// Whole numbers beyond 2^53 are not all doubles: the search stops there.
inline constexpr double kMaxWhole = 9007199254740992.0;

// Bisection of a real input stops at this width, relative to the ends.
inline constexpr double kBisectionWidth = 1e-12;

// An equation holds at a real solution when |A - B| is at most this share
// of the largest |A| or |B| at the two ends of the bracket searched.
inline constexpr double kEqualTolerance = 1e-9;

[[noreturn]] void no_solution(std::string message, std::string help);
[[noreturn]] void usage(std::string message, std::string help = {});

struct Search {
  Interpreter& in;
  Module* m;
  Record* base;
  std::size_t slot;
  Dim dim;
  const SolveSpec& spec;
  const ast::Expr& cond;
  bool integer = false;
  int evaluations = 0;

  Value at(double x) const { return Value::quantity(x, dim); }
  Record* point(double x) { return in.with_values(base, {{slot, at(x)}}); }

  // The condition at one value of the input.
  struct Seen {
    bool holds = false;  // max/min: the condition
    double f = 0;        // ==: A - B
    Value a, b;          // ==: A and B; max/min: the condition's value in a
  };
  Seen see(Record* r, Trace* trace);
  // The same at x, in a point that gives its fields back afterwards.
  Seen see(double x);
};

// The bracket: two values of the input, and the condition at each.
struct Bracket {
  double lo = 0, hi = 0;
  Search::Seen slo, shi;
  bool given = false;  // written by the user, not widened
};

// `in [LO, HI]` or --lo and --hi; each end in the file's scope.
Bracket given_bracket(Search& s);
// From the input's value `first` (where the condition is `seen`), doubling
// and halving until the condition changes.
Bracket widened_bracket(Search& s, double first, const Search::Seen& seen);

// Narrows the bracket to a crossing: for ==, a sign change of A - B (or a
// zero, then lo == hi); for max/min, where the condition stops (starts)
// holding. Whole numbers stop at neighbours, other values at
// kBisectionWidth.
void bisect(Search& s, Bracket& b);

}  // namespace napkin::solve_detail
