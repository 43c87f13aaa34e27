// `napkin layout`: a training plan's layouts, ranked (analysis/layout_search.hpp).
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "interpreter/analysis/layout_search.hpp"
#include "guarded.hpp"

namespace napkin::cli {

Result cmd_layout(const LayoutArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    for (const auto* list : {&a.tp, &a.pp, &a.cp, &a.micro_batch})
      for (double x : *list)
        if (!(x >= 1 && std::floor(x) == x && x <= 1e6))
          fail(codes::usage, fmt::format("a degree or micro-batch must be a whole number from 1 to 1,000,000, not {}", x));
    Module* m = in.load_file(a.file);
    LayoutSpec spec;
    spec.record = a.record;
    spec.tp = a.tp, spec.pp = a.pp, spec.cp = a.cp, spec.micro_batch = a.micro_batch;
    LayoutResult r = search_layouts(in, m, spec);
    const int code = r.ranked.empty() ? 1 : 0;  // nothing fits: like a failed check
    std::optional<LayoutResult> other;
    if (!a.against.empty()) {
      spec.record = a.against;
      other = search_layouts(in, m, spec);
    }
    if (a.format == "json") return Result{layout_json(in, r, a.top, other ? &*other : nullptr), "", code};
    const std::string change = other ? layout_change_text(in, r, *other) + "\n" : "";
    if (a.format == "markdown") return Result{layout_markdown(in, r, a.top) + (other ? "\n" + change : ""), "", code};
    return Result{layout_text(in, r, a.top) + (other ? "\n" + change : ""), "", code};
  });
}

}  // namespace napkin::cli
