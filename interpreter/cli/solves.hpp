#pragma once
// `solve` statements and `napkin solve`, as the report holds their answers
// (cmd_analysis.cpp): analysis/ finds them; every format renders them.
#include <vector>

#include "interpreter/analysis/solve.hpp"
#include "interpreter/output/report.hpp"

namespace napkin::cli {

// A solve's answer as data: values and derivation trees (`depth` levels of
// the fields the condition read; < 0: all), nothing that points into the
// search.
SolveReport solve_report(Interpreter& in, const SolveResult& r, int depth);

// The file's `solve` statements, run after its records: what each found,
// or its error, for Report::solves.
std::vector<SolveReport> solve_statements(Interpreter& in, Module* m, int depth);

}  // namespace napkin::cli
