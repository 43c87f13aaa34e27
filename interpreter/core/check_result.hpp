#pragma once
// One `check` statement run (Interpreter::run_check): whether it held, what
// it compared, and the trace of what it used, for reports and graders.
#include <string>

#include "grammar/ast.hpp"
#include "record.hpp"
#include "value.hpp"

namespace napkin {

struct CheckResult {
  const ast::Stmt* stmt = nullptr;
  bool passed = false;
  std::string source;  // the check as written
  int line = 0;
  Trace trace;
  Value actual, expected;  // for ≈ checks, and a comparison's two sides
  std::string detail;      // "off by 2.3% (allowed 1%)"
  // What a grader reads: the relation ("≈", "==", "<", ...; "" for another
  // condition), the tolerance as the checker wrote it, the name and points.
  std::string relation;
  Value tolerance;
  const DisplayUnit* written_in = nullptr;  // the unit the expected side is written in, if any
  std::string name;
  double points = 1;
};

}  // namespace napkin
