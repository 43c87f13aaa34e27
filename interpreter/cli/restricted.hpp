#pragma once
// The bounds of a restricted run (napkin grade, --restricted): a time limit
// and a memory limit that end the run with a clear error (E0703, E0704)
// instead of a student file holding the grader's machine. Only the `napkin`
// process sets them (main.cpp): they act on the whole process.
#include <cstddef>
#include <string>

#include "grammar/diagnostic.hpp"

namespace napkin::cli {

// Past `seconds` of wall-clock time the process prints what on_time_out
// last gave it, then E0703 on stderr, and exits with status 2; past `mib`
// MiB of address space an allocation fails, which the commands report as
// E0704.
void bound_run(double seconds, std::size_t mib);

// What standard output receives if the time runs out (a document whose
// checks each carry E0703), so that an autograder still reads a result.
void on_time_out(std::string stdout_text);

Diagnostic time_out_diagnostic(double seconds);
Diagnostic memory_diagnostic(std::size_t mib);

}  // namespace napkin::cli
