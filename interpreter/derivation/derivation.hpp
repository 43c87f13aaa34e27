#pragma once
// A derivation: a value's formula as written, the same formula with every
// name replaced by its value, and the result, each a term (term.hpp) that
// every output format walks.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "term.hpp"

namespace napkin {

struct Derivation;
struct CallStep {
  std::string label;  // the call as written: "kv_cache_bytes(model, context)"
  std::shared_ptr<const Derivation> derivation;  // its body's, with the arguments bound
};

struct Derivation {
  // The formula as written, where the lines below open what it names (a
  // solution sheet's `train_flops(drill.params, 1.5 Ttoken)`, followed by
  // the function's body); empty otherwise.
  SharedTerm written;
  SharedTerm formula;      // batch · 1 token / weight_read_time
  SharedTerm substituted;  // 1 · 1 token / 7.362 ms
  SharedTerm result;       // 135.8 token/s
  std::string note;  // "measured: ..." or "fallback: ..." for measured values
  bool input = false;       // a literal: nothing to derive
  bool record = false;      // a record made with `with`: the formula is the whole story
  std::string origin;       // where the formula is written: "std/models:41", "drills.napkin:12"
  Span origin_at;           // the same place as data, for a document that carries file and line as fields
  std::vector<CallStep> calls;  // the user functions it calls, each opened one level (call_steps)
};

// `digits`: significant digits of the values shown (0: the interpreter's).
// `specialise`: both lines show the formula that applies to these inputs
// (specialise.hpp), as a solution sheet does.
Derivation derive(const Interpreter& in, const ast::Expr& formula, const Trace& trace, const Value& result,
                  int digits = 0, bool specialise = false);

// The whole derivation on one line, as a textbook writes it: every field and
// function call the formula used is replaced by its own formula, down to
// literals, inputs and measurements, whose values are shown.
//   2 · 8 · 128 · 2 B/value · 32 · 131,072 token
Term flat_formula(const Interpreter& in, const ast::Expr& formula, const Trace& trace);

// The same inlining, stopped at products (factors.cpp): each name whose
// formula is a product of factors opens, a sum only while it stays short,
// and the line is written twice, in names and in numbers.
struct FactorLines {
  Term names;    // 2 · layers · kv_heads · head_dim · bytes_per_value
  Term numbers;  // 2 · 94 · 4 · 128 · 2 B/value/token
  std::vector<CallStep> calls;  // the user functions left unopened, each opened one level
};
// `home`: the answer's file, whose own values stay names.
FactorLines factor_lines(const Interpreter& in, const ast::Expr& formula, const Trace& trace,
                         const SourceFile* home);

// Each user function a trace called, opened one level: the function as
// declared and its body's derivation with the arguments bound. What
// `run --steps` prints under a formula; `explain` opens calls all the way.
// Specialised, a solution sheet's: only the calls the specialised formula
// `shown_in` still shows, each body specialised too.
std::vector<CallStep> call_steps(const Interpreter& in, const Trace& trace, int digits = 0);
std::vector<CallStep> specialised_call_steps(const Interpreter& in, const ast::Expr& shown_in, const Trace& trace);

// The trace entry recorded for `node`, the last one if it was seen twice.
const TraceEntry* entry_of(const Trace& trace, const ast::Expr& node);

// How far `run --steps` opens each answer on a solution sheet.
enum class StepDepth : std::uint8_t {
  All,    // One, unspecialised: the library's general formula, every term and branch as written
  Short,  // the formula as written, with its numbers, and each function it calls one level down
  One,    // the same, but an answer that names another value or calls a function shows that formula:
          // `d_head = drill.head_dim` prints as `d_model / heads = 6,144 / 48 = 128`
  Factors,  // One, then each named factor opened into the product it is made of, down to inputs, named,
            // then the same with numbers: `2 · layers · kv_heads · head_dim · bytes = 2 · 94 · 4 · 128 · 2 B`
  Flat,   // the formula inlined to literals and inputs on one line (flat_formula)
};
// The derivation a solution sheet shows for a value at `depth`.
Derivation solution_steps(const Interpreter& in, const ast::Expr& formula, const Trace& trace, const Value& result,
                          StepDepth depth);

// The lines a derivation prints, without repeats: written, formula, substituted, result.
std::vector<Term> derivation_lines(const Derivation& d);
// The same, as plain text.
std::vector<std::string> derivation_text(const Derivation& d);

// True when the expression refers to no name (grammar/ast.hpp).
using ast::is_literal;

}  // namespace napkin
