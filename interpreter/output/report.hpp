#pragma once
// Everything `napkin run` shows, evaluated once and then printed by one of
// the output formats: the fields of each record a file defines, its lets,
// and its checks.
#include <string>
#include <vector>

#include "interpreter/derivation/derivation.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin {

struct FieldReport {
  std::string qualified;  // "decode.tokens_per_s", or "x" for a let
  std::string name;
  bool ok = false;
  Value value;
  Derivation derivation;
  std::string needs;        // the missing input, when !ok
  std::string declared_at;  // where that input is declared ("std/hardware:12")
};

struct Section {
  std::string kind;  // model, hardware, scenario, record; "let" for a top-level value
  std::string name;
  std::string base;    // what it extends, if anything
  std::string origin;  // for `NAME = EXPR` records, the expression
  std::vector<FieldReport> fields;
};

struct Report {
  std::vector<Section> sections;
  std::vector<SweepResult> sweeps;
  std::vector<CheckResult> checks;
  int failed() const;
};

// Evaluates every field of every record defined in `m` (and, with `all`, in
// the files it imports). A field that needs a missing input is reported as
// such; any other error is thrown.
Report build_report(Interpreter& in, Module* m, bool all);

// Run the checks of `m` only.
std::vector<CheckResult> run_checks(Interpreter& in, Module* m);

}  // namespace napkin
