// `napkin layout`: a training plan's layouts, ranked (analysis/layout_search.hpp).
#include <fmt/format.h>

#include <cmath>

#include "interpreter/analysis/layout_search.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_layout(const LayoutArgs& a, const Common& c) {
  for (const auto* list : {&a.tp, &a.pp, &a.cp, &a.micro_batch})
    for (double x : *list)
      if (!(x >= 1 && std::floor(x) == x && x <= 1e6))
        return Result{"", fmt::format("error[{}]: a degree or micro-batch must be a whole number from 1 to 1,000,000, not {}\n", codes::usage, x), 2};
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    LayoutSpec spec;
    spec.record = a.record;
    spec.tp = a.tp, spec.pp = a.pp, spec.cp = a.cp, spec.micro_batch = a.micro_batch;
    LayoutResult r = search_layouts(in, m, spec);
    const int code = r.ranked.empty() ? 1 : 0;  // nothing fits: like a failed check
    if (a.format == "json") return Result{layout_json(in, r, a.top), "", code};
    if (a.format == "markdown") return Result{layout_markdown(in, r, a.top), "", code};
    return Result{layout_text(in, r, a.top), "", code};
  });
}

}  // namespace napkin::cli
