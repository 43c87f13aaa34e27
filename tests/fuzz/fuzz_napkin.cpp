// libFuzzer target: one input is one .napkin file, run as the command line
// runs it: parsed, evaluated (measure() answered by a fake prober, see
// fuzz_common.hpp), and printed in every format `napkin run` has (text with
// --steps, JSON, TOML, Markdown, LaTeX); its checks' failures explained; the
// first value explained as `napkin explain` would; and both plots drawn
// (`plot roofline`, and `plot sweep` of each sweep). A napkin::Error or a
// PlotError is a correct answer to bad input; anything else (a crash, a
// sanitizer report, a hang, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "interpreter/derivation/check_failure.hpp"
#include "interpreter/derivation/explain.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/output/report.hpp"
#include "interpreter/plot/plot.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace {
// Bigger inputs only make each run slower; the size limits have their own tests.
constexpr std::size_t kMaxInput = 64 * 1024;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  using namespace napkin;
  Interpreter in(fuzz::options());
  Module* m = nullptr;
  fuzz::answer(in, [&] {
    m = in.load_source("fuzz.napkin", std::string(reinterpret_cast<const char*>(data), size), fuzz::kNowhere);
  });
  if (!m) return 0;
  std::string first;  // the first value the report shows, for explain
  fuzz::answer(in, [&] {
    Report r = build_report(in, m, false, /*keep_going=*/true);
    for (const auto& s : r.sections)
      if (first.empty() && !s.fields.empty()) first = s.fields.front().qualified;
    (void)report_text(in, r, TextOptions{true});
    (void)report_json(in, r);
    (void)report_toml(in, r);
    (void)report_markdown(in, r);
    (void)report_latex(in, r);
    for (const auto& c : r.checks)
      if (!c.passed) (void)render(check_failure(in, c));
    for (const auto& d : r.errors) (void)render(d);
  });
  if (!first.empty())
    fuzz::answer(in, [&] {
      const ExplainNode root = explain(in, m, first, -1);
      (void)explain_text(root);
      (void)explain_markdown(root, false);
      (void)explain_latex(root, true);
      (void)explain_json(root);
      (void)explain_toml(root);
    });
  fuzz::answer(in, [&] { (void)roofline_svg(in, m, RooflineOptions{}); });
  fuzz::answer(in, [&] {
    for (const SweepResult& s : run_sweeps(in, m)) {
      (void)sweep_text(in, s);
      (void)sweep_csv(in, s);
      fuzz::answer(in, [&] { (void)sweep_svg(in, s); });
    }
  });
  return 0;
}
