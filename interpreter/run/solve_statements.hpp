#pragma once
// Running a file's `solve` statements, and a solve's answer as data: what
// every face that runs a file needs (run, check, diff, grade, the language
// server), so it lives below them all rather than in one command.
#include <vector>

#include "interpreter/analysis/solve.hpp"
#include "interpreter/output/report.hpp"

namespace napkin {

// A solve's answer as data: values and derivation trees (`depth` levels of
// the fields the condition read; < 0: all), nothing that points into the
// search.
SolveReport solve_report(Interpreter& in, const SolveResult& r, int depth);

// The file's `solve` statements, run after its records: what each found,
// or its error, for Report::solves.
std::vector<SolveReport> solve_statements(Interpreter& in, Module* m, int depth);

}  // namespace napkin
