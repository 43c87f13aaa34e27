#pragma once
// `napkin plot`: SVG pictures of a file's numbers, for notes and reviews.
#include <string>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin {

struct RooflineOptions {
  std::string gpu;                 // an expression naming a hardware record; empty: the file's own
  std::string peak = stdlib_names::peak_bf16;  // the hardware field that sets the compute ceiling
};

// A plot that cannot be drawn is a napkin::Error E0805 (cannot_plot): at its
// place where it has one (a --gpu that is not hardware, a bandwidth of 0, a
// sweep over something that is not a number), with none where nothing in
// the file is to blame (no GPU to draw a roofline for).

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
