// libFuzzer target: the commands that grade and hand out a file. One input
// is a reference file, or a reference and a submission split at the first
// NUL byte (without one, the file is its own submission). The reference is
// checked as `napkin check --format text|json|junit|gradescope` checks it,
// handed out as `napkin handout` in text, Markdown and LaTeX, and printed as
// a solution sheet (`run --steps=one|flat` in Markdown and LaTeX, its checks
// beside the answers or left out); the submission is graded against it as
// `napkin grade` grades it (cli/cmd_grade.cpp: each check, the first wrong
// step under a failed one, the given inputs it changed), in every format.
// measure() is answered by the fake prober (fuzz_common.hpp). A napkin::Error
// is an answer to bad input; anything else (a crash, a sanitizer report, a
// hang, another exception, a JSON format that does not parse) is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_common.hpp"
#include "interpreter/cli/graded.hpp"
#include "interpreter/cli/guarded.hpp"
#include "interpreter/cli/feedback.hpp"
#include "interpreter/cli/wrong_step.hpp"
#include "interpreter/output/check_results.hpp"
#include "interpreter/output/handout.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/output/report.hpp"

namespace {
constexpr std::size_t kMaxInput = 64 * 1024;

using namespace napkin;

// Every format a graded run writes, as students read it by default and with
// everything shown; the two JSON ones must parse.
void render_all(const std::vector<GradedFile>& files, const char* title) {
  Disclosure all;
  all.expected = all.reference = true;
  using cli::Format;
  for (Format format : {Format::text, Format::json, Format::junit, Format::gradescope})
    for (const Disclosure& d : {Disclosure{}, all}) {
      const std::string out = cli::render_graded(files, format, title, d);
      if ((format == Format::json || format == Format::gradescope) && !nlohmann::json::accept(out)) {
        std::fprintf(stderr, "napkin %s --format %s wrote what is not JSON:\n%s\n", title,
                     std::string(cli::format_name(format)).c_str(), out.c_str());
        std::abort();
      }
    }
}

// `napkin check --format`: cli/cmd_check.cpp's graded_file, on text.
GradedFile check_file(const std::string& file, const std::string& text) {
  GradedFile g;
  g.file = file;
  Interpreter in(fuzz::options());
  Module* m = nullptr;
  try {
    m = in.load_source(file, text, fuzz::kNowhere);
  } catch (const Error& e) {
    return unrunnable(file, text, e.diagnostic());
  }
  fuzz::answer(in, [&] {
    const Report report = build_report(in, m, false, /*keep_going=*/true, Derivations::Results);
    g.checks = graded_checks(in, m);
    cli::add_file_errors(g, report.errors);
  });
  return g;
}

// `napkin handout` and `napkin run --steps=one|factors|flat|all --format markdown|latex --checks beside|none`.
void sheets(const std::string& text) {
  {
    Interpreter in(fuzz::options());
    fuzz::answer(in, [&] {
      Module* m = in.load_source("fuzz.napkin", text, fuzz::kNowhere);
      const Handout h = build_handout(in, m, "fuzz");
      (void)handout_text(h);
      (void)handout_markdown(h);
      (void)handout_latex(h);
    });
  }
  for (const StepDepth depth : {StepDepth::One, StepDepth::Factors, StepDepth::Flat, StepDepth::All}) {
    Interpreter in(fuzz::options());
    fuzz::answer(in, [&] {
      Module* m = in.load_source("fuzz.napkin", text, fuzz::kNowhere);
      Report r = build_report(in, m, false, /*keep_going=*/true, Derivations::Trees, depth);
      keep_own_fields(r);
      const bool one = depth == StepDepth::One || depth == StepDepth::Factors;
      (void)report_text(in, r, TextOptions{true});
      (void)report_markdown(in, r, one ? CheckDisplay::Beside : CheckDisplay::None);
      (void)report_latex(in, r, one ? CheckDisplay::None : CheckDisplay::Beside);
    });
  }
}

// `napkin grade`: cli/cmd_grade.cpp, on texts.
void grade(const std::string& reference, const std::string& submission) {
  Interpreter ref(fuzz::options());
  Module* ref_m = nullptr;
  bool fit = true;  // the reference passes its own checks (else grade refuses it)
  fuzz::answer(ref, [&] {
    ref_m = ref.load_source("reference.napkin", reference, fuzz::kNowhere);
    for (const auto& st : ref_m->ast.statements)
      if (st.kind == ast::StmtKind::Check && !ref.run_check(st).passed) fit = false;
  });
  if (!ref_m || !fit) return;
  GradedFile g;
  g.file = "submission.napkin";
  Interpreter sub(fuzz::options());
  Module* sub_m = nullptr;
  try {
    sub_m = sub.load_source("submission.napkin", submission, fuzz::kNowhere);
  } catch (const Error& e) {
    g = unrunnable(g.file, reference, e.diagnostic());
  }
  if (sub_m)
    fuzz::answer(sub, [&] {
      const Report report = build_report(sub, sub_m, false, /*keep_going=*/true, Derivations::Results);
      g.checks = graded_checks(sub, ref_m->ast, sub_m);
      cli::add_file_errors(g, report.errors);
      cli::Comparison cmp(sub, sub_m, ref, ref_m);
      g.notes = cmp.changed_inputs(/*show_reference=*/true);
      std::vector<cli::Step> answers;
      std::vector<std::vector<cli::Step>> per_check;
      std::vector<std::optional<CheckResult>> results;
      for (const auto& st : ref_m->ast.statements) {
        if (st.kind != ast::StmtKind::Check) continue;
        std::vector<cli::Step> mine;
        std::optional<CheckResult> r;
        try {
          r = sub.run_check(st, sub_m);
          mine = cli::Comparison::answers_of(r->trace);
        } catch (const Error&) {
        }
        for (const cli::Step& s : mine)
          if (std::none_of(answers.begin(), answers.end(), [&](const cli::Step& o) { return o.name == s.name; }))
            answers.push_back(s);
        per_check.push_back(std::move(mine));
        results.push_back(std::move(r));
      }
      // Carried-forward credit too: the reference's formulas on the submission's values.
      cli::Feedback fb{cmp, answers, true, 0.5, sub_m, {}};
      for (std::size_t i = 0; i < g.checks.size() && i < per_check.size(); ++i)
        if (g.checks[i].status == CheckOutcome::Status::failed)
          fb.failed(g.checks[i], per_check[i], results[i] ? &*results[i] : nullptr);
    });
  render_all({g}, "grade");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string reference = input.substr(0, nul);
  const std::string submission = nul == std::string::npos ? input : input.substr(nul + 1);
  render_all({check_file("fuzz.napkin", reference)}, "check");
  sheets(reference);
  grade(reference, submission);
  return 0;
}
