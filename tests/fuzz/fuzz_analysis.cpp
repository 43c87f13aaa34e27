// libFuzzer target: the analyses over one .napkin file, as the command line
// runs them: the file's `solve` statements (`napkin run` prints them), a
// `napkin solve` of the first record with fields (its first field searched,
// the max where its last field holds, in the bracket the field's own value
// gives, and again in a bracket written by hand), and `napkin sensitivity` of
// the first numeric fields, each printed as text and JSON. Ranges reach here
// through the file (`35% to 55%`, normal(), uniform()); their samples are
// kept few so a run stays fast. A napkin::Error is an answer to bad input;
// anything else (a crash, a sanitizer report, a hang, another exception) is
// a finding.
//
// The commands that check, grade and hand out a file are fuzz_check's.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "interpreter/output/sensitivity_output.hpp"
#include "interpreter/cli/guarded.hpp"
#include "interpreter/run/solve_statements.hpp"
#include "interpreter/output/solve_output.hpp"
#include "interpreter/output/report.hpp"

namespace {
constexpr std::size_t kMaxInput = 64 * 1024;
// Sensitivity evaluates a value a few times per input: three values suffice
// to reach every path and keep a run under a second.
constexpr int kMaxSensitivity = 3;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  using namespace napkin;
  Options opts = fuzz::options();
  opts.samples = 64;
  Interpreter in(std::move(opts));
  Module* m = nullptr;
  fuzz::answer(in, [&] {
    m = in.load_source("fuzz.napkin", std::string(reinterpret_cast<const char*>(data), size), fuzz::kNowhere);
  });
  if (!m) return 0;
  fuzz::answer(in, [&] {
    Report with_solves;
    with_solves.steps = StepDepth::One;
    with_solves.solves = solve_statements(in, m, 1);
    (void)solves_text(in, with_solves);
  });
  Report r;
  fuzz::answer(in, [&] { r = build_report(in, m, false, /*keep_going=*/true, Derivations::Results); });
  for (const Section& s : r.sections) {
    if (s.kind == SectionKind::lets || s.fields.size() < 2) continue;
    for (const bool given : {false, true}) {
      fuzz::answer(in, [&] {
        SolveSpec spec;
        spec.record = s.name;
        spec.input = s.fields.front().name;
        spec.goal = given ? SolveGoal::Min : SolveGoal::Max;
        spec.condition = s.fields.back().name;
        if (given) spec.lo = "1", spec.hi = "1000";
        const SolveResult res = solve(in, m, spec);
        (void)solve_text(in, solve_report(in, res, -1));
        (void)solve_json(in, solve_report(in, res, 1));
        (void)solve_brief_text(in, solve_report(in, res, 0));
      });
    }
    break;
  }
  int tried = 0;
  for (const Section& s : r.sections)
    for (const FieldReport& f : s.fields) {
      if (tried >= kMaxSensitivity) break;
      if (!f.ok || f.value.kind != Value::Kind::Quantity || s.kind == SectionKind::lets) continue;
      ++tried;
      fuzz::answer(in, [&] {
        const SensitivityResult res = sensitivity(in, m, f.qualified);
        (void)sensitivity_text(in, res);
        (void)sensitivity_json(in, res);
      });
    }
  return 0;
}
