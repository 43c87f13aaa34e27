// `napkin layout`: a training plan's layouts, ranked (analysis/layout_search.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "interpreter/output/layout_output.hpp"
#include "guarded.hpp"

namespace napkin::cli {

namespace {

// A list of values to try, as the search takes it: each a whole number from
// 1 to 1,000,000, each once (a value named again is the same layouts again),
// and at most kMaxListed of them: no number up to 1,000,000 has more
// divisors (720,720 has 240), so a longer list only names values that
// cannot divide the cluster.
constexpr std::size_t kMaxListed = 256;

std::vector<double> values_to_try(const char* option, const std::vector<double>& list, double lowest = 1,
                                  double highest = 1e6) {
  std::vector<double> out;
  for (double x : list) {
    if (!(x >= lowest && std::floor(x) == x && x <= highest))
      fail(codes::usage,
           fmt::format("each value of {} must be a whole number from {} to {}, but this is {}", option, lowest,
                       highest == 1e6 ? std::string("1,000,000") : fmt::format("{}", highest), x),
           // The example is drawn from the option's own range: `--zero 1,2,4,8`
           // would name two stages that do not exist.
           highest <= 3 ? fmt::format("write the values to try, each once: `{} {},{}`", option, lowest, lowest + 1)
                        : fmt::format("write the values to try, each once: `{} 1,2,4,8`", option));
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  if (out.size() > kMaxListed)
    fail(codes::usage,
         fmt::format("{} names {} different values; at most {} (no cluster of up to 1,000,000 GPUs has more divisors)",
                     option, out.size(), kMaxListed),
         fmt::format("name only the values that divide the cluster's GPUs, or leave {} out to try every one", option));
  return out;
}

}  // namespace

Result cmd_layout(const LayoutArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    LayoutSpec spec;
    spec.record = a.record;
    spec.tp = values_to_try("--tp", a.tp);
    spec.pp = values_to_try("--pp", a.pp);
    spec.cp = values_to_try("--cp", a.cp);
    spec.ep = values_to_try("--ep", a.ep);
    spec.micro_batch = values_to_try("--micro-batch", a.micro_batch);
    spec.vpp = values_to_try("--vpp", a.vpp);
    spec.zero_stage = values_to_try("--zero", a.zero_stage, 0, 3);
    for (const std::string& name : a.recompute) {
      const double level = name == "none" ? 0 : name == "selective" ? 1 : 2;
      if (std::find(spec.recompute.begin(), spec.recompute.end(), level) == spec.recompute.end())
        spec.recompute.push_back(level);
    }
    Module* m = in.load_file(a.file);
    LayoutResult r = search_layouts(in, m, spec);
    const int code = r.ranked.empty() ? 1 : 0;  // nothing fits: like a failed check
    std::optional<LayoutResult> other;
    if (!a.against.empty()) {
      spec.record = a.against;
      other = search_layouts(in, m, spec);
    }
    if (a.format == Format::json) return Result{layout_json(in, r, a.top, other ? &*other : nullptr), "", code};
    const std::string change = other ? layout_change_text(in, r, *other) + "\n" : "";
    if (a.format == Format::markdown) return Result{layout_markdown(in, r, a.top) + (other ? "\n" + change : ""), "", code};
    return Result{layout_text(in, r, a.top) + (other ? "\n" + change : ""), "", code};
  });
}

}  // namespace napkin::cli
