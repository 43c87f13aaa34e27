#pragma once
// `napkin sensitivity`: every input a value depends on, ranked by its
// elasticity, d ln y / d ln x: the percent change of the value per percent
// change of the input.
//
// How it is computed: the value is evaluated again with the input at x·2
// and x/2. When both come out exactly 2^k times the value (bit for bit,
// which scaling by two keeps for a formula that is a product of powers of
// the input: no sums, no max(), no branch), the elasticity is k, exactly.
// Otherwise it is a central difference in log space,
//   ln(y(x·(1+h)) / y(x/(1+h))) / (2·ln(1+h)),   h = 1e-4,
// exact for a power law up to rounding (about 1e-12) and within about h²
// of the derivative for a smooth formula.
//
// A range-valued input is varied the same way at its point value (its
// median: the elasticity is that of the value's point value), and is also
// fixed at its median, all else left uncertain, to see how much of the
// value's variance goes away: its variance share.
//
// Which inputs are ranked: by default those the file itself sets (its own
// declarations), so that a library's architecture constants do not fill the
// table; all of them with `all_inputs`; the ones named with `vary`; less
// the ones named with `except`. An input read only by conditions (`if
// experts > 1 then …`) on the way to the value is not ranked: along the
// branches taken, the value's formula does not contain it, so the value is
// the same until one of those conditions turns, and a one-sided slope at the
// turn (experts = 1 in a dense model) says nothing about the formula.
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct SensitivityInput {
  std::string label;      // "llama3_70b.layers": the record that sets it, and the field
  std::string path;       // "decode.model.layers": how the value's record reaches it
  Value value;
  std::string where_set;  // "examples/x.napkin:12", where its value is written
  bool varied = false;    // reached through the record's fields, so it can be changed
  bool ok = false;        // an elasticity was found
  double elasticity = 0;
  bool exact = false;     // a power law, verified at x·2 and x/2
  // Set where no value near x is in the input's domain (whole values
  // only): the elasticity is the arc's over this span, ln(y(b)/y(a))/ln(b/a).
  std::string arc;
  std::string note;       // why there is none: "zero", "reached by name", an error
  // A range-valued input (`35% to 55%`, normal(), uniform()): the share of
  // the value's variance it accounts for, 1 − Var(y | x at its median) /
  // Var(y), from the same samples (so the figure is the same every run).
  bool range = false;
  bool has_share = false;
  double variance_share = 0;
};

// An input found and not ranked, and why.
struct UnrankedInput {
  std::string path;       // "decode.model.layers"
  std::string label;      // "llama3_70b.layers"
  std::string where_set;  // "std/models:75"
  std::string why;        // "set outside the file", "left out (--except)", "read only by conditions"
};

struct SensitivityResult {
  std::string name;  // "decode.tokens_per_s"
  Value value;
  std::vector<SensitivityInput> inputs;  // largest |elasticity| first; inputs without one last
  bool has_ranges = false;               // some input is a range: the table shows variance shares
  std::string ranked;                    // which inputs: "the inputs examples/x.napkin sets", "every input", "the inputs named"
  std::string file;                      // by default: the file whose inputs are ranked; else empty
  std::vector<UnrankedInput> unranked;   // in the order found
};

struct SensitivityOptions {
  std::vector<std::string> vary;    // rank only these (a path, the path below the record, or RECORD.FIELD)
  std::vector<std::string> except;  // leave these out
  bool all_inputs = false;          // every input, not only the file's own
};

inline constexpr double kSensitivityStep = 1e-4;

// `name` is RECORD.FIELD (RECORD any expression naming a record) whose value
// is a number.
// A name in `vary` or `except` that is no input of the value is error E0800.
SensitivityResult sensitivity(Interpreter& in, Module* m, const std::string& name, const SensitivityOptions& options = {});

}  // namespace napkin
