#include <fmt/format.h>

#include "interpreter/output/output.hpp"
#include "interpreter/sweep/sweep.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_sweep(const SweepArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    auto sweeps = run_sweeps(in, m);
    if (sweeps.empty())
      fail(codes::usage, fmt::format("{} has no sweep; write one like `sweep decode over batch in [1, 8, 32] show tokens_per_s`", a.file));
    Result res;
    // A point whose value is an error shows its code in the table; the error
    // itself, with the point, goes to stderr, and the exit status is 2.
    for (const SweepResult& s : sweeps) res.err += point_error_text(s);
    if (!res.err.empty()) res.code = 2;
    if (a.format == Format::json) {
      res.out = sweeps_json_text(in, sweeps);
      return res;
    }
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      if (i) res.out += "\n";
      if (a.format == Format::markdown) res.out += sweep_markdown(in, sweeps[i]);
      else if (a.format == Format::csv) res.out += sweep_csv(in, sweeps[i]);
      else res.out += sweep_text(in, sweeps[i]);
    }
    return res;
  });
}

}  // namespace napkin::cli
