#pragma once
// `napkin explain`: the derivation of one value, then of every field it
// used, down to the inputs, as a tree.
#include <string>

#include "derivation.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct ExplainNode {
  std::string label;  // "decode.tokens_per_s"
  Derivation derivation;
  std::vector<ExplainNode> children;
  bool repeated = false;   // already explained above
  bool truncated = false;  // has inputs below the depth limit
};

// Evaluates `what` (a name such as `decode.tokens_per_s`, or any expression)
// in module `m` and builds its tree; depth < 0 means no limit.
ExplainNode explain(Interpreter& in, Module* m, const std::string& what, int depth);
std::string explain_text(const ExplainNode& root, const std::string& indent = "");

// The trees of the fields a trace refers to: what a failing check shows.
std::vector<ExplainNode> explain_trace(const Interpreter& in, const Trace& trace, int depth);

}  // namespace napkin
