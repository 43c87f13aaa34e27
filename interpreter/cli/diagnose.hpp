#pragma once
// What a command that stopped returns. Whatever stopped it becomes a
// Diagnostic in grammar/diagnostic.cpp (napkin::diagnose), the one place
// that gives a code to what a library or the machine throws; the renderer
// there prints it, so every message a user sees has a code.
#include <cstddef>
#include <exception>

#include "grammar/diagnose.hpp"
#include "commands.hpp"

namespace napkin::cli {

// napkin::diagnose, with a restricted run's memory bound: `memory_limit`
// MiB (0: none), which running out of memory is reported against (E0704)
// instead of as E0702.
Diagnostic diagnose(std::exception_ptr e, std::size_t memory_limit = 0);

// The rendered message, exit 2.
Result failed(const Diagnostic& d);

}  // namespace napkin::cli
