#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_run(const RunArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    Report r = build_report(in, m, a.all);
    Result res;
    res.out = a.format == "json" ? report_json(in, r) : report_text(in, r, TextOptions{a.steps});
    res.code = r.failed() ? 1 : 0;
    return res;
  });
}

}  // namespace napkin::cli
