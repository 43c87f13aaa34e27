#pragma once
// `napkin plot`: SVG pictures of a file's numbers, for notes and reviews.
#include <stdexcept>
#include <string>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin {

// A plot that cannot be drawn where nothing in the file is to blame: no GPU
// to draw a roofline for (E0805, with no place). Anything with a place (a
// --gpu that is not hardware, a bandwidth of 0, a sweep over something that
// is not a number, too many points) is a napkin::Error at that place.
struct PlotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RooflineOptions {
  std::string gpu;                 // an expression naming a hardware record; empty: the file's own
  std::string peak = stdlib_names::peak_bf16;  // the hardware field that sets the compute ceiling
};

// The GPU's roofline, log–log, with a labelled point for every operation the
// file gives an intensity for: every field in FLOP/B of its records and lets
// (hardware records and fields named `ridge` or `ridge_point` aside), and
// every row of a sweep that shows such a field. docs/output.md (`napkin plot
// roofline`) says more.
std::string roofline_svg(Interpreter& in, Module* m, const RooflineOptions& o);

// A sweep's numeric columns against its first input, one panel per unit,
// and its text columns (such as `bound`) as a strip below.
// A sweep plot draws at most this many points (E0702 at the sweep, beyond).
inline constexpr std::size_t kMaxPlotPoints = 20'000;
std::string sweep_svg(const Interpreter& in, const SweepResult& s);

}  // namespace napkin
