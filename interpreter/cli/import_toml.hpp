#pragma once
// `import_toml("h200.toml")`: a hardware profile as a `hardware` record
// that extends std/hardware's `gpu`, each measured field carrying its
// provenance into derivations. The profile is named where it is used:
//   hardware mine = import_toml("h200.toml")
#include "interpreter/core/function.hpp"

namespace napkin::measure {

// Given to the interpreter through Options::builtins.
Function import_toml_builtin();

// The builtin `import_toml(path)` with `body` behind it: what every host
// that names it gives the language (a host without profiles gives an error
// at the call), without linking the profile reader.
inline Function import_toml_function(Function::Builtin body) {
  Function f;
  f.name = "import_toml";
  f.builtin = body;
  f.min_args = 1;
  f.max_args = 1;
  f.signature = "import_toml(path)";
  return f;
}

}  // namespace napkin::measure
