#pragma once
// The one place where whatever was thrown becomes a Diagnostic: a
// napkin::Error carries its own; out of memory is E0702 (or `out_of_memory`
// when given: a restricted run's bound), a system error E0602, anything
// else E0000, a bug. The command line (cli/diagnose.hpp) and the language
// server both report through it; grammar/diagnostic.cpp defines it beside
// the renderer.
#include <exception>

#include "grammar/diagnostic.hpp"

namespace napkin {

Diagnostic diagnose(std::exception_ptr e, const Diagnostic* out_of_memory = nullptr);

}  // namespace napkin
