#pragma once
// `import_toml("h200.toml")`: a hardware profile as a `hardware` record
// that extends std/hardware's `gpu`, each measured field carrying its
// provenance into derivations. The profile is named where it is used:
//   hardware mine = import_toml("h200.toml")
#include "interpreter/core/function.hpp"

namespace napkin::measure {

// Given to the interpreter through Options::builtins.
Function import_toml_builtin();

}  // namespace napkin::measure
