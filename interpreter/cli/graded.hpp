#pragma once
// What `napkin check --format` and `napkin grade` share: a file's checks
// run one by one (a file that cannot be loaded is a result too), the formats,
// the exit status, and what a run that runs out of time prints.
#include <string>

#include "output_format.hpp"
#include <vector>

#include "interpreter/output/check_results.hpp"
#include "commands.hpp"

namespace napkin::cli {

// The formats a graded run writes, showing what `d` discloses.
std::string render_graded(std::vector<GradedFile> files, Format format, const std::string& title,
                          const Disclosure& d = Disclosure{});

// 0 when every check passed, 1 when one failed, 2 when one errored or the
// file met an error outside its checks.
int graded_status(const std::vector<GradedFile>& files);

// Each file's checks (found by parsing it alone) errored with `d`: what is
// printed if the run is stopped (the time limit), or cannot start. A
// restricted run reads each as it would have run it (a link is refused).
std::vector<GradedFile> all_errored(const std::vector<std::string>& files, const Diagnostic& d, bool restricted);

// Errors of `errors` that no check of `g` already carries.
void add_file_errors(GradedFile& g, const std::vector<Diagnostic>& errors);

}  // namespace napkin::cli
