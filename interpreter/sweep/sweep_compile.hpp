#pragma once
// Compiles the fields a sweep's inputs reach into a SweepProgram.
//
// A sweep's point differs from its base only in the swept inputs, and the
// fields that depend on them are known before the first point
// (dependent_fields). Those fields' formulas, and the functions they call,
// are compiled once into a straight-line program over doubles; everything
// else they name (a field of another record, a top-level let, a field that
// does not depend on the inputs) is a constant, evaluated once by the tree
// walker. Kinds, dimensions, display units and notes are settled here, once
// per sweep.
//
// The compiler takes what it can make exact: arithmetic, comparisons,
// `and`/`or`/`not`, `if`, `->`, fields, members of records made before the
// sweep, user functions (inlined) and the numeric builtins. Anything else
// (a record or list made per point, a string that depends on a point, a
// measurement, an error the formula would raise at every point) leaves the
// whole sweep to the tree walker, which gives the same table, more slowly.
#include <cstddef>
#include <memory>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "sweep_program.hpp"

namespace napkin {

struct CompiledSweep {
  SweepProgram program;
  // Per column: a value whose kind, dimension, display unit and note every
  // cell of the column has (only its number changes).
  std::vector<Value> outputs;
};

// `point`: the sweep's first point (its inputs set); `inputs`: the swept
// fields; `input_like`: per input, the kind, dimension, display and note
// all of its values share; `dependent`: dependent_fields of the inputs.
// Null when the compiler cannot take every column.
std::unique_ptr<CompiledSweep> compile_sweep(Interpreter& in, Module* m, Record* point,
                                             const std::vector<std::size_t>& inputs,
                                             const std::vector<Value>& input_like,
                                             const std::vector<bool>& dependent,
                                             const std::vector<std::size_t>& columns);

}  // namespace napkin
