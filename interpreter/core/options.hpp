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
