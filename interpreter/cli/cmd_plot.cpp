#include <fmt/format.h>

#include "interpreter/io/atomic_write.hpp"
#include "interpreter/plot/plot.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_plot(const PlotArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    std::string svg;
    if (a.kind == "roofline") {
      svg = roofline_svg(in, m, RooflineOptions{a.gpu, a.peak});
    } else {
      // A usage error: the command line names something the file lacks.
      auto sweeps = run_sweeps(in, m);
      if (sweeps.empty())
        fail(codes::usage, fmt::format("{} has no sweep; write one like `sweep decode over batch in [1, 8, 32] show tokens_per_s`", a.file));
      if (a.sweep < 1 || static_cast<std::size_t>(a.sweep) > sweeps.size())
        fail(codes::usage, fmt::format("--sweep {}: {} has {} sweep{}", a.sweep, a.file, sweeps.size(), sweeps.size() == 1 ? "" : "s"));
      throw_point_error(sweeps[static_cast<std::size_t>(a.sweep - 1)]);  // a plot with a hole would hide it
      svg = sweep_svg(in, sweeps[static_cast<std::size_t>(a.sweep - 1)]);
    }
    if (a.output.empty() || a.output == "-") return Result{svg, "", 0};
    const std::string note = write_output(a.output, svg);
    return Result{"", note.empty() ? "" : "note: " + note + "\n", 0};
  });
}

}  // namespace napkin::cli
