#pragma once
// How a command's Result leaves the process: stdout and stderr written
// whole, and the exit status. Shared by `napkin` and the playground's entry.
#include <string>

#include "commands.hpp"

namespace napkin::cli {

// Writes r.out to stdout and r.err to stderr, each whole and flushed, and
// returns the exit status: r.code, or 2 when the output could not be
// written (a full disk; a closed pipe ends quietly, as other Unix tools do).
int finish(const Result& r);

}  // namespace napkin::cli
