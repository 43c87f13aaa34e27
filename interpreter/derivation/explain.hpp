#pragma once
// `napkin explain`: the derivation of one value, then of every field it
// used, down to the inputs, as a tree.
#include <string>

#include "derivation.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct ExplainNode {
  std::string label;  // "decode.tokens_per_s", or a call: "kv_cache_bytes(llama3_8b, 131072 token)"
  Derivation derivation;
  Term flat;  // the root's derivation inlined to one line (flat_formula); empty below the root
  std::vector<ExplainNode> children;
  bool repeated = false;   // already explained above
  bool truncated = false;  // has inputs below the depth limit
};

// Evaluates `what` (a name such as `decode.tokens_per_s`, or any expression)
// in module `m` and builds its tree; depth < 0 means no limit.
ExplainNode explain(Interpreter& in, Module* m, const std::string& what, int depth);
struct ExplainTextOptions {
  bool flat = false;     // the root's one-line form instead of the tree
  bool sources = false;  // where each formula is written, after its result
};
std::string explain_text(const ExplainNode& root, const std::string& indent = "", const ExplainTextOptions& o = {});

// The trees of the fields a trace refers to: what a failing check shows.
std::vector<ExplainNode> explain_trace(const Interpreter& in, const Trace& trace, int depth);

}  // namespace napkin
