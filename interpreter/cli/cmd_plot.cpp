#include <fmt/format.h>

#include "interpreter/io/atomic_write.hpp"
#include "interpreter/plot/plot.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_plot(const PlotArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    std::string svg;
    try {
      if (a.kind == "roofline") {
        svg = roofline_svg(in, m, RooflineOptions{a.gpu, a.peak});
      } else {
        auto sweeps = run_sweeps(in, m);
        if (sweeps.empty())
          return Result{"", fmt::format("{} has no sweep; write one like `sweep decode over batch in [1, 8, 32] show tokens_per_s`\n", a.file), 2};
        if (a.sweep < 1 || static_cast<std::size_t>(a.sweep) > sweeps.size())
          return Result{"", fmt::format("--sweep {}: {} has {} sweep{}\n", a.sweep, a.file, sweeps.size(), sweeps.size() == 1 ? "" : "s"), 2};
        svg = sweep_svg(in, sweeps[static_cast<std::size_t>(a.sweep - 1)]);
      }
    } catch (const PlotError& e) {
      const std::string what = e.what();  // a limit comes with its code already
      return Result{"", what.rfind("error[", 0) == 0 ? what + "\n" : fmt::format("error: {}\n", what), 2};
    }
    if (a.output.empty() || a.output == "-") return Result{svg, "", 0};
    write_output(a.output, svg);
    return Result{};
  });
}

}  // namespace napkin::cli
