#pragma once
// How an interpreter is made: fixed for its life. Derivation recording is
// not here: it is switched while the interpreter runs (Interpreter::set_tracing).
#include <cstddef>
#include <string>
#include <vector>

#include "interpreter/io/import_policy.hpp"
#include "function.hpp"
#include "prober.hpp"
#include "samples.hpp"

namespace napkin {

// The fields of all records made, counted once per record that holds them
// (a record holds every field it inherits): past this, making a record is
// E0702. A report shows every one, at about 0.9 KB and 2 µs each: 249,571
// fields (a 705-deep chain adding one per level) take 0.6 s and 223 MB in
// `napkin run`. Real files hold under 1,400 (docs/reliability.md).
inline constexpr std::size_t kMaxFieldsHeld = 250'000;

struct Options {
  Prober prober;  // null: every probe is unavailable and fallbacks are used
  int digits = 4;
  std::size_t samples = kDefaultSamples;  // samples per range (samples.hpp)
  std::string stdlib_dir;  // read std/ from here instead of the embedded copy
  // Which files an import may read; restricted for grading (import_policy.hpp).
  ImportPolicy imports;
  // Builtins the program embedding the interpreter adds (the command line
  // binds `import_toml` this way, so the core never includes measure/).
  std::vector<Function> builtins;
};

}  // namespace napkin
