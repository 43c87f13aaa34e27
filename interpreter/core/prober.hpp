#pragma once
// `measure(probe, args...)`: what the language asks of a probe, and what
// comes back. The probes themselves live outside the core, behind
// `Options::prober` (the command line binds measure/'s).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "grammar/source.hpp"
#include "value.hpp"

namespace napkin {

class Interpreter;

struct MeasureRequest {
  std::string probe;  // "gpu.copy_bandwidth"
  std::vector<std::pair<std::string, Value>> args;
  Span span;
};

struct MeasureResult {
  bool ok = false;
  Value value;             // a quantity, when ok
  std::string provenance;  // "NVIDIA H200, 2 GiB buffers, median of 30 (min …, max …)"
  std::string reason;      // why it could not run, when !ok ("no GPU: …")
  bool unknown_probe = false;
  bool bad_argument = false;  // the file's arguments are wrong on any machine: an error, fallback or not
};

using Prober = std::function<MeasureResult(Interpreter&, const MeasureRequest&)>;

}  // namespace napkin
