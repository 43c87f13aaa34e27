#pragma once
// A failed `check` as a diagnostic (E0500), pointing at the check in its
// file: what the command line prints on stderr, beside the report.
#include "grammar/diagnostic.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {

Diagnostic check_failure(const Interpreter& in, const CheckResult& c);

// The significant digits a failed check needs so that its two sides print
// differently (`39.0196 GB == 39.02 GB`), from the usual precision up to 17.
int digits_to_differ(const Interpreter& in, const CheckResult& c);

}  // namespace napkin
