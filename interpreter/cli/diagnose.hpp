#pragma once
// The one place where whatever stopped a command becomes a Diagnostic: a
// napkin::Error carries its own (code, place, notes, help), and everything
// else a library or the machine can throw is given its code here. The
// renderer (grammar/diagnostic.cpp) is the one thing that prints it, so
// every message a user sees has a code.
#include <cstddef>
#include <exception>

#include "grammar/diagnostic.hpp"
#include "commands.hpp"

namespace napkin::cli {

// `memory_limit`: the MiB a restricted run may use (0: none); running out of
// memory is reported against it (E0704) instead of as E0702.
Diagnostic diagnose(std::exception_ptr e, std::size_t memory_limit = 0);

// What a command that stopped on `d` returns: the rendered message, exit 2.
Result failed(const Diagnostic& d);

}  // namespace napkin::cli
