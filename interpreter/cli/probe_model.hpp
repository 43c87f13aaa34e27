#pragma once
// `measure(cpu.decode_step, model = m)`: the model record's shape, read
// field by field through the interpreter (std/transformer's inputs and the
// defaults it derives), as the text the probe and its cache key take.
#include <string>

#include "interpreter/core/prober.hpp"

namespace napkin::measure {

struct ModelArg {
  std::string shape;  // ModelShape::text(), when the record could be read
  std::string wrong;  // the file's mistake on any machine: not a model record, a shape no model has
  std::string cannot; // a model the probe does not time (multi-head latent attention): the fallback applies
};

ModelArg model_arg(Interpreter& in, const Value& v, const Span& at);

}  // namespace napkin::measure
