#pragma once
// `import_toml("h200.toml")`: a hardware profile as a `hardware` record
// that extends std/hardware's `gpu`, each measured field carrying its
// provenance into derivations. The profile is named where it is used:
//   hardware mine = import_toml("h200.toml")
namespace napkin {
class Interpreter;
}

namespace napkin::measure {

void register_import_toml(Interpreter& in);

}  // namespace napkin::measure
