// The `napkin` command: parses arguments with CLI11 and hands each
// subcommand to a small function. Exit codes: 0 ok, 1 a check failed,
// 2 a usage, parse or evaluation error.
#include <CLI/CLI.hpp>
#include <cctype>
#include <csignal>
#include <functional>
#include <cstdio>
#include <fmt/format.h>

#include "interpreter/output/output.hpp"
#include "napkin/version.hpp"
#include "choices.hpp"
#include "commands.hpp"
#include "finish.hpp"
#include "host.hpp"
#include "diagnose.hpp"
#include "heap_pages.hpp"
#include "restricted.hpp"

namespace {

constexpr const char* kMoreHelp = "run with --help for more information";

// `napkin eval '-llama3_8b.params'`: an argument of `eval` that begins with
// a minus but names none of its options is the expression, which CLI11
// would read as an unknown option. It is moved behind a `--`, after which
// every argument is positional.
std::vector<std::string> with_expression_last(int argc, char** argv, const CLI::App& eval) {
  std::vector<std::string> args(argv, argv + argc);
  if (argc < 2 || args[1] != "eval") return args;
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") return args;  // the user ended the options already
    if (a.size() < 2 || a[0] != '-') continue;
    const std::string name = a.substr(0, a.find('='));
    if (name == "-h" || name == "--help" || eval.get_option_no_throw(name)) {
      if (a.find('=') == std::string::npos && eval.get_option_no_throw(name) &&
          eval.get_option_no_throw(name)->get_expected_min() > 0)
        ++i;  // its value follows
      continue;
    }
    std::string expr = a;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    args.push_back("--");
    args.push_back(std::move(expr));
    return args;
  }
  return args;
}

using namespace napkin::cli;

// One subcommand: its options (declared into the state below), what it
// needs settled before it runs, and how it runs.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<Result()> run;
  // The format of what stdout receives (printed, finish.hpp): the
  // command's --format, read after parsing; nullptr for a command that has
  // none (text). A document format is turned into json for the run.
  Format* format = nullptr;
  // Whether a stopped run prints a document in place of its output (restricted.hpp).
  std::function<bool(Format format)> document_when_stopped = [](Format) { return false; };
  // A usage error in the combination of options, or "", after setting what the run needs.
  std::function<std::string()> prepare = [] { return std::string(); };
};

// Every command's arguments: CLI11 writes into them while parsing, so they
// live as long as the parse and the run.
struct State {
  Common common;
  bool unrestricted = false;
  RunArgs run;
  RunWords run_words;  // --steps, --checks and --brief as written, settled into run
  ExplainArgs explain;
  CheckArgs check;
  GradeArgs grade;
  SweepArgs sweep;
  QuickArgs quick;
  EvalArgs eval;
  PlotArgs plot;
  DiffArgs diff;
  FmtArgs fmt;
  MeasureArgs measure;
  SolveArgs solve;
  SensitivityArgs sens;
  HandoutArgs handout;
  LayoutArgs layout;
  LspArgs lsp;
  Format fmt_format = Format::source;  // napkin fmt prints napkin source as it is
  CLI::App* eval_cmd = nullptr;  // its arguments are reordered before parsing
  std::vector<Subcommand> subcommands;
};

// One subcommand added to the table: its app, how it runs and, where it
// has one, its --format.
Subcommand& add(State& st, CLI::App* app, std::function<Result()> run, Format* format = nullptr) {
  Subcommand c;
  c.app = app;
  c.run = std::move(run);
  c.format = format;
  st.subcommands.push_back(std::move(c));
  return st.subcommands.back();
}

void add_common(CLI::App* sub, Common& common) {
  sub->add_option("--digits", common.digits, "significant digits shown (default 4)")->check(CLI::Range(1, 17));
  sub->add_option("--samples", common.samples, "samples per range, `a to b` (default 10,000; at most 1,000,000)")
      ->check(CLI::Range(std::size_t{2}, napkin::kMaxSamples));
  sub->add_option("--stdlib", common.stdlib_dir, "read std/NAME from this directory instead of the built-in copy")
      ->check(CLI::ExistingDirectory);
  sub->add_flag("--no-measure", common.no_measure, "measure(...) uses its fallback instead of running a probe");
  sub->add_flag("--remeasure", common.remeasure, "measure(...) runs its probe again instead of using the cache");
}

// --format: one of `allowed`, read into the command's Format; where json is
// allowed, every document format too (output_format.hpp), named in the help.
void add_format(CLI::App* sub, Format& format, const std::string& help, const std::vector<Format>& allowed) {
  const std::vector<Format> all = with_document_formats(allowed);
  std::string said = help;
  for (std::size_t i = allowed.size(); i < all.size(); ++i)
    said += fmt::format("{}{}", i == allowed.size() ? "; also " : ", ", format_name(all[i]));
  if (all.size() > allowed.size()) said += ", written from the json document";
  sub->add_option_function<std::string>(
         "--format", [&format](const std::string& v) { format = format_named(v).value_or(Format::text); }, said)
      ->check(CLI::IsMember(format_names(all)));
}

// A restricted run, for grading (docs/grading.md): `check` and `run` take
// --restricted, `grade` is restricted unless told --unrestricted.
void add_restricted(CLI::App* sub, State& st, bool by_default) {
  if (by_default)
    sub->add_flag("--unrestricted", st.unrestricted,
                  "let the submission import outside its folder and run live probes (trusted files only)");
  else
    sub->add_flag("--restricted", st.common.restricted,
                  "for files you do not trust: imports stay in the file's folder, measure(...) runs no probe, "
                  "and the time and memory limits apply (docs/grading.md)");
  sub->add_option("--time-limit", st.common.time_limit, "restricted: seconds before the run is stopped (default 10)")
      ->check(CLI::Range(0.001, 86400.0));
  sub->add_option("--memory-limit", st.common.memory_limit, "restricted: MiB of memory the run may use (default 2048)")
      ->check(CLI::Range(std::size_t{64}, std::size_t{1} << 20));
}


// A command's own examples above the exit statuses: `napkin diff --help`
// shows how to call diff, not run.
void examples(CLI::App* cmd, const std::string& lines, const std::string& exit =
                  "0 ok, 1 a check failed, 2 a usage, parse or evaluation error.") {
  cmd->footer("Examples:\n" + lines + "\nExit status: " + exit);
}

void declare_run(CLI::App& app, State& st) {
  auto* run_cmd = app.add_subcommand("run", "evaluate a file: every field of every record, its lets and its checks");
  run_cmd->add_option("file", st.run.file, "a .napkin file")->required();
  run_cmd
      ->add_flag("--steps{factors}", st.run_words.steps,
                 "a solution sheet: each answer's formula, the formula with its numbers, and the result, "
                 "specialised to the file's inputs; "
                 "--steps=short as written (an answer that names another value shows only its name), "
                 "--steps=one opens such a name or call into the formula behind it, "
                 "--steps=factors (the default) opens it further into the product of named factors, "
                 "--steps=flat inlines it all on one line, "
                 "--steps=all is `one` with the library's general formula (every zero term and branch)")
      ->check(CLI::IsMember(kStepDepths));
  add_format(run_cmd, st.run.format, "text (default), json, toml, markdown or latex", kReportFormats);
  run_cmd
      ->add_option("--checks", st.run_words.checks,
                   "in a Markdown or LaTeX document: list (default) the checks after the answers, show a passing "
                   "check as a ✓ beside the answer it pins (beside), or leave them out (none)")
      ->check(CLI::IsMember(kCheckDisplays));
  run_cmd->add_flag("--all", st.run.all,
                    "show everything: the fields each record inherits from the standard library, and records that "
                    "only come in through imports (by default: the fields the file sets or defines, the headline "
                    "fields of its record types, and those its checks use)");
  run_cmd
      ->add_flag("--brief{lines}", st.run_words.brief,
                 "in JSON or TOML: each value with its display, formula and numbers, without the derivation "
                 "tree under it (what a page or an editor shows beside each field; explain gives the tree); "
                 "--brief=values: each value's figures and display alone, without its formula and numbers")
      ->check(CLI::IsMember(kBriefLevels));
  add_common(run_cmd, st.common);
  add_restricted(run_cmd, st, false);

  examples(run_cmd,
           "  napkin run examples/exercise1_size_a_model.napkin\n"
           "  napkin run examples/exercise1_size_a_model.napkin --steps --format latex --checks beside > solution.tex\n"
           "  napkin run examples/plan_70b_on_512_gpus.napkin --format json\n");
  Subcommand& c = add(st, run_cmd, [&st] { return cmd_run(st.run, st.common); }, &st.run.format);
  c.document_when_stopped = [](Format f) { return f == Format::json || f == Format::toml; };
  c.prepare = [&st] {
    st.common.root_file = st.run.file;
    return settle_run(st.run_words, st.run);
  };
}

void declare_explain(CLI::App& app, State& st) {
  auto* explain_cmd = app.add_subcommand("explain", "print the derivation tree of one value, down to its inputs");
  explain_cmd->add_option("file", st.explain.file, "a .napkin file")->required();
  explain_cmd->add_option("name", st.explain.name, "a value such as decode.tokens_per_s, or any expression")->required();
  explain_cmd->add_option("--depth", st.explain.depth, "levels of inputs to expand (default: all; -1: all, as solve reads it)")->check(CLI::Validator(
                      [](std::string& v) {
                        if (v.starts_with("--")) return "needs a number of levels, but the next word is the option " + v;
                        return (!v.empty() && v[0] != '-') || v == "-1"
                                   ? std::string()
                                   : std::string("a depth is 0 or more levels, or -1 for all, but this is ") + v;
                      },
                      "N", "depth"));
  add_format(explain_cmd, st.explain.format, "text (default), json, toml, markdown or latex", kReportFormats);
  explain_cmd->add_flag("--flat", st.explain.flat,
                        "one line: every field and call inlined down to literals and inputs, as a textbook writes it");
  explain_cmd->add_flag("--sources", st.explain.sources, "show where each formula is written (file:line)");
  add_common(explain_cmd, st.common);

  examples(explain_cmd,
           "  napkin explain examples/exercise1_size_a_model.napkin decode.tokens_per_s\n"
           "  napkin explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --flat\n"
           "  napkin explain examples/plan_70b_on_512_gpus.napkin plan.step_time --depth 2\n",
           "0 ok, 2 a usage, parse or evaluation error.");
  add(st, explain_cmd, [&st] { return cmd_explain(st.explain, st.common); }, &st.explain.format);
}

// What students read of a graded run (docs/grading.md, What students see).
void add_disclosure(CLI::App* sub, napkin::Disclosure& d) {
  sub->add_flag("--show-expected", d.expected,
                "show the expected values, the checks as written and the reference's values (hidden by default)");
  sub->add_flag("--show-reference", d.reference, "show each check's path:line and the lines an error there quotes");
  sub->add_option("--visibility", d.visibility,
                  "Gradescope: when students see the whole result: visible (default), hidden, after_due_date "
                  "or after_published")
      ->check(CLI::IsMember(napkin::kVisibilities));
  sub->add_option_function<std::vector<std::string>>(
         "--test-visibility",
         [&d](const std::vector<std::string>& all) {
           for (const auto& v : all) {
             const auto eq = v.rfind('=');
             if (eq == std::string::npos) d.test_visibility = v;
             else d.per_test[v.substr(0, eq)] = v.substr(eq + 1);
           }
         },
         "Gradescope: when students see each test, VISIBILITY or \"CHECK NAME=VISIBILITY\" for one (repeatable)")
      ->check([](const std::string& v) {
        const std::string vis = v.substr(v.rfind('=') == std::string::npos ? 0 : v.rfind('=') + 1);
        for (const auto& k : napkin::kVisibilities)
          if (vis == k) return std::string();
        return "the visibility must be hidden, after_due_date, after_published or visible, not `" + vis + "`";
      });
}

void declare_check(CLI::App& app, State& st) {
  auto* check_cmd = app.add_subcommand("check", "run the checks of one or more files; exit 1 if any fails");
  check_cmd->add_option("files", st.check.files, "one or more .napkin files")->required();
  check_cmd->add_flag("-v,--verbose", st.check.verbose, "list passing checks too");
  add_format(check_cmd, st.check.format, "text (default), json, junit (JUnit XML) or gradescope (results.json): every check with its "
                        "points, values and message", {Format::text, Format::json, Format::junit, Format::gradescope});
  add_common(check_cmd, st.common);
  add_restricted(check_cmd, st, false);
  add_disclosure(check_cmd, st.check.disclosure);

  examples(check_cmd,
           "  napkin check examples/*.napkin\n"
           "  napkin check examples/exercise1_size_a_model.napkin --format junit > results.xml\n");
  Subcommand& c = add(st, check_cmd, [&st] { return cmd_check(st.check, st.common); }, &st.check.format);
  c.document_when_stopped = [](Format f) { return f != Format::text; };
}

void declare_grade(CLI::App& app, State& st) {
  auto* grade_cmd = app.add_subcommand(
      "grade", "run a reference's checks against a submission, and trace each failed answer to its first wrong step");
  grade_cmd->add_option("reference", st.grade.reference, "the reference solution, with named checks and points")->required();
  grade_cmd->add_option("submission", st.grade.submission, "the student's file, with the same records")->required();
  add_format(grade_cmd, st.grade.format, "text (default), json, junit or gradescope", {Format::text, Format::json, Format::junit, Format::gradescope});
  add_common(grade_cmd, st.common);
  add_restricted(grade_cmd, st, true);
  add_disclosure(grade_cmd, st.grade.disclosure);
  grade_cmd
      ->add_option_function<std::string>(
          "--carried-forward",
          [&st](const std::string& v) {
            const bool percent = !v.empty() && v.back() == '%';
            st.grade.carried_forward = std::stod(v.substr(0, v.size() - percent)) / (percent ? 100 : 1);
          },
          "the share of its points an answer earns that is right from the student's own wrong earlier answers: "
          "50% (default), 0 for none, 100% for all")
      ->check([](const std::string& v) {
        const bool percent = !v.empty() && v.back() == '%';
        const std::string n = v.substr(0, v.size() - percent);
        std::size_t used = 0;
        double x = -1;
        try {
          x = std::stod(n, &used);
        } catch (...) {
        }
        if (n.empty() || used != n.size() || !(x >= 0 && x <= (percent ? 100 : 1)))
          return "a share is a fraction from 0 to 1 or a percentage from 0% to 100%, not `" + v + "`";
        return std::string();
      });

  examples(grade_cmd,
           "  napkin grade examples/grading/reference.napkin examples/grading/submission_kv.napkin\n"
           "  napkin grade examples/grading/reference.napkin submission.napkin --format gradescope > results.json\n",
           "0 every check passed, 1 one failed, 2 a usage, parse or evaluation error.");
  Subcommand& c = add(st, grade_cmd, [&st] { return cmd_grade(st.grade, st.common); }, &st.grade.format);
  c.document_when_stopped = [](Format) { return true; };
  c.prepare = [&st] {
    st.common.restricted = !st.unrestricted;
    return std::string();
  };
}

void declare_sweep_quick_eval(CLI::App& app, State& st) {
  auto* sweep_cmd = app.add_subcommand("sweep", "print a file's sweeps as tables");
  sweep_cmd->add_option("file", st.sweep.file, "a .napkin file with `sweep` statements")->required();
  add_format(sweep_cmd, st.sweep.format, "text (default), markdown, csv or json", {Format::text, Format::markdown, Format::csv, Format::json});
  add_common(sweep_cmd, st.common);

  auto* quick_cmd = app.add_subcommand(
      "quick", "the standard serving report for a catalog model on a catalog GPU (std/serving's `serving`)");
  quick_cmd->add_option("--model", st.quick.model, "a model from std/models, e.g. llama3_8b");
  quick_cmd->add_option("--config", st.quick.config, "a Hugging Face config.json instead of --model (std/hf reads it)");
  quick_cmd->add_option("--gpu", st.quick.gpu, "a GPU from std/hardware, e.g. h100_sxm")->required();
  quick_cmd->add_option("--batch", st.quick.batch, "sequences decoded together (default 1)");
  quick_cmd->add_option("--context", st.quick.context, "tokens held per sequence (default 2048)");
  quick_cmd->add_option("--prompt", st.quick.prompt, "tokens prefilled before the first output (default: the context)");
  quick_cmd->add_option("--price", st.quick.price, "USD per GPU-hour (default 2)");
  quick_cmd->add_option("--mfu", st.quick.mfu, "percent of peak FLOP/s that prefill reaches (default 50)");
  quick_cmd->add_flag("--steps", st.quick.steps, "show each value's derivation");
  add_format(quick_cmd, st.quick.format, "text (default) or json", {Format::text, Format::json});
  add_common(quick_cmd, st.common);

  auto* eval_cmd = app.add_subcommand("eval", "evaluate one expression, with the standard library imported");
  eval_cmd->add_option("expr", st.eval.expr, "e.g. '2 * 80 * 8 * 128 * 32768 * 2 B -> GiB'")->required();
  eval_cmd->add_flag("--steps", st.eval.steps, "show the formula and its substitution");
  add_common(eval_cmd, st.common);

  st.eval_cmd = eval_cmd;
  examples(sweep_cmd,
           "  napkin sweep examples/decode_batch_sweep.napkin\n"
           "  napkin sweep examples/decode_batch_sweep.napkin --format json\n",
           "0 ok, 2 a usage, parse or evaluation error.");
  add(st, sweep_cmd, [&st] { return cmd_sweep(st.sweep, st.common); }, &st.sweep.format);
  examples(quick_cmd,
           "  napkin quick --model llama3_8b --gpu h100_sxm --batch 32 --context 8192\n"
           "  napkin quick --config config.json --gpu h200 --price 3.5\n",
           "0 ok, 1 the weights and KV cache do not fit, 2 a usage, parse or evaluation error.");
  add(st, quick_cmd, [&st] { return cmd_quick(st.quick, st.common); }, &st.quick.format);
  examples(eval_cmd,
           "  napkin eval '39.02 GB / (5.3 TB/s) -> ms'\n"
           "  napkin eval 'llama3_70b.params'\n",
           "0 ok, 2 a usage, parse or evaluation error.");
  add(st, eval_cmd, [&st] { return cmd_eval(st.eval, st.common); });
}

void declare_plot(CLI::App& app, State& st) {
  auto* plot_cmd = app.add_subcommand("plot", "draw a roofline or a sweep as SVG");
  plot_cmd->require_subcommand(1);
  auto* roofline_cmd = plot_cmd->add_subcommand("roofline", "the GPU's roofline with every FLOP/B field of the file as a point");
  roofline_cmd->add_option("file", st.plot.file, "a .napkin file")->required();
  roofline_cmd->add_option("--gpu", st.plot.gpu, "the hardware, e.g. h100_sxm or decode.gpu (default: the file's own)");
  roofline_cmd->add_option("--peak", st.plot.peak, "the compute ceiling's field (default peak_bf16)");
  roofline_cmd->add_option("-o,--output", st.plot.output, "the SVG file to write (default: standard output)");
  add_common(roofline_cmd, st.common);
  auto* plot_sweep_cmd = plot_cmd->add_subcommand("sweep", "a sweep's numeric columns against its first input");
  plot_sweep_cmd->add_option("file", st.plot.file, "a .napkin file with `sweep` statements")->required();
  plot_sweep_cmd->add_option("--sweep", st.plot.sweep, "which sweep, counting from 1 (default 1)")
      ->check(CLI::Range(1, 1000000));
  plot_sweep_cmd->add_option("-o,--output", st.plot.output, "the SVG file to write (default: standard output)");
  add_common(plot_sweep_cmd, st.common);
  const std::string plots = "  napkin plot roofline examples/exercise1_size_a_model.napkin --gpu h100_sxm -o roofline.svg\n"
                            "  napkin plot sweep examples/decode_batch_sweep.napkin -o sweep.svg\n";
  for (CLI::App* cmd : {plot_cmd, roofline_cmd, plot_sweep_cmd})
    examples(cmd, plots, "0 ok, 2 a usage, parse or evaluation error.");

  add(st, plot_cmd, [&st, roofline_cmd] {
    st.plot.kind = *roofline_cmd ? "roofline" : "sweep";
    return cmd_plot(st.plot, st.common);
  });
}

void declare_diff_fmt_measure(CLI::App& app, State& st) {
  auto* diff_cmd = app.add_subcommand(
      "diff", "what moved between two versions of a file: changed inputs, then every value, largest change first");
  diff_cmd->add_option("files", st.diff.files, "OLD NEW (with --git: the arguments git passes an external diff)")
      ->required();
  diff_cmd->add_option("--explain", st.diff.explain, "show this value's old and new derivations side by side");
  add_format(diff_cmd, st.diff.format, "text (default), markdown or json", {Format::text, Format::markdown, Format::json});
  diff_cmd->add_option("--threshold", st.diff.threshold, "hide values that moved less than this, e.g. 0.1%");
  diff_cmd->add_option("--base-dir", st.diff.base_dir,
                       "resolve imports of both versions in this directory (for `<(git show REV:FILE)`)");
  diff_cmd->add_flag("--git", st.diff.git, "called by git as diff.napkin.command or GIT_EXTERNAL_DIFF; always exits 0");
  add_common(diff_cmd, st.common);

  auto* fmt_cmd = app.add_subcommand("fmt", "print files in the canonical layout, or rewrite them (-w)");
  fmt_cmd->add_option("files", st.fmt.files, "one or more .napkin files, or - for standard input")->required();
  auto* fmt_check = fmt_cmd->add_flag("--check", st.fmt.check, "list the files that are not formatted; exit 1 if any");
  fmt_cmd->add_flag("-w,--write", st.fmt.write, "rewrite the files in place")->excludes(fmt_check);

  auto* measure_cmd = app.add_subcommand(
      "measure", "run this machine's probes (CPU, and GPU where there is one), print them beside the spec sheet");
  measure_cmd->add_option("--probe", st.measure.probes, "only this probe, e.g. gpu.copy_bandwidth (repeatable)");
  measure_cmd->add_option("--out", st.measure.out, "write a hardware profile, for import_toml(\"FILE.toml\")");
  add_common(measure_cmd, st.common);

  examples(diff_cmd,
           "  napkin diff examples/exercise1_size_a_model.napkin examples/review/exercise1_48_kv_heads.napkin\n"
           "  napkin diff --threshold 1% --base-dir . <(git show HEAD~1:plan.napkin) plan.napkin\n"
           "  napkin diff OLD NEW --explain plan.step_time\n",
           "0 no value moved (past the threshold), 1 one did, 2 a usage, parse or evaluation error.");
  add(st, diff_cmd, [&st] { return cmd_diff(st.diff, st.common); }, &st.diff.format);
  examples(fmt_cmd,
           "  napkin fmt --check examples/*.napkin\n"
           "  napkin fmt -w plan.napkin\n",
           "0 ok, 1 --check found a file that is not formatted, 2 a parse error.");
  add(st, fmt_cmd, [&st] { return cmd_fmt(st.fmt, st.common); }, &st.fmt_format);
  examples(measure_cmd,
           "  napkin measure\n"
           "  napkin measure --probe gpu.copy_bandwidth --out my_gpu.toml\n",
           "0 ok, 2 a usage error or a probe that cannot run.");
  add(st, measure_cmd, [&st] { return cmd_measure(st.measure, st.common); });
}

void declare_solve_sensitivity(CLI::App& app, State& st) {
  auto* solve_cmd = app.add_subcommand(
      "solve", "find the value of one input of a record at which a condition holds (bisection; docs/language.md)");
  solve_cmd->add_option("file", st.solve.file, "a .napkin file")->required();
  solve_cmd->add_option("record", st.solve.record, "the record, e.g. decode")->required();
  solve_cmd->add_option("--for", st.solve.input, "the input to find, e.g. batch")->required();
  solve_cmd->add_option("--where", st.solve.where, "an equation in the record's fields, e.g. 'tokens_per_s == 2000 token/s'");
  solve_cmd->add_option("--max", st.solve.max, "the largest value at which this holds, e.g. memory_fits");
  solve_cmd->add_option("--min", st.solve.min, "the smallest value at which this holds");
  solve_cmd->add_option("--lo", st.solve.lo, "the bracket's low end (with --hi; default: widened from the input's value)");
  solve_cmd->add_option("--hi", st.solve.hi, "the bracket's high end");
  solve_cmd->add_option("--depth", st.solve.depth, "levels of the derivation shown at the solution (default 1; -1: all)");
  add_format(solve_cmd, st.solve.format, "text (default) or json", {Format::text, Format::json});
  add_common(solve_cmd, st.common);

  auto* sens_cmd = app.add_subcommand(
      "sensitivity", "rank the inputs a value depends on by elasticity, d ln y / d ln x (default: those the file sets)");
  sens_cmd->add_option("file", st.sens.file, "a .napkin file")->required();
  sens_cmd->add_option("name", st.sens.name, "a record's field, e.g. decode.tokens_per_s")->required();
  auto* vary_opt = sens_cmd->add_option("--vary", st.sens.vary,
                       "rank only these inputs, e.g. batch,model.layers (a path below the record, the full path, or RECORD.FIELD)")
      ->delimiter(',');
  sens_cmd->add_option("--except", st.sens.except, "leave these inputs out of the ranking")->delimiter(',')->excludes(vary_opt);
  sens_cmd->add_flag("--all-inputs", st.sens.all_inputs,
                     "rank every input, the library's too (default: the inputs the file itself sets)")
      ->excludes(vary_opt);
  add_format(sens_cmd, st.sens.format, "text (default) or json", {Format::text, Format::json});
  add_common(sens_cmd, st.common);

  examples(solve_cmd,
           "  napkin solve examples/uncertain_decode.napkin decode --for batch --max fits\n"
           "  napkin solve FILE decode --for batch --where 'tokens_per_s == 2000 token/s'\n",
           "0 solved, 2 no solution in the bracket, or a usage, parse or evaluation error.");
  add(st, solve_cmd, [&st] { return cmd_solve(st.solve, st.common); }, &st.solve.format);
  examples(sens_cmd,
           "  napkin sensitivity examples/exercise1_size_a_model.napkin decode.tokens_per_s\n"
           "  napkin sensitivity examples/uncertain_decode.napkin decode.tokens_per_s --all-inputs\n",
           "0 ok, 2 a usage, parse or evaluation error.");
  add(st, sens_cmd, [&st] { return cmd_sensitivity(st.sens, st.common); }, &st.sens.format);
}

void declare_handout(CLI::App& app, State& st) {
  auto* handout_cmd = app.add_subcommand(
      "handout", "the student's sheet: the file's questions and givens, a blank with its unit for every answer");
  handout_cmd->add_option("file", st.handout.file, "a .napkin file (the solution)")->required();
  add_format(handout_cmd, st.handout.format, "text (default), markdown, latex or json",
             {Format::text, Format::markdown, Format::latex, Format::json});
  add_common(handout_cmd, st.common);

  examples(handout_cmd,
           "  napkin handout examples/exercise1_size_a_model.napkin\n"
           "  napkin handout examples/exercise1_size_a_model.napkin --format latex > handout.tex\n",
           "0 ok, 2 a usage, parse or evaluation error.");
  add(st, handout_cmd, [&st] { return cmd_handout(st.handout, st.common); }, &st.handout.format);
}

void declare_layout(CLI::App& app, State& st) {
  auto* layout_cmd = app.add_subcommand(
      "layout", "rank a training plan's parallel layouts by step time, dropping those that do not fit (docs/language.md)");
  layout_cmd->add_option("file", st.layout.file, "a .napkin file")->required();
  layout_cmd->add_option("plan", st.layout.record, "a std/plans training_plan, e.g. plan")->required();
  layout_cmd->add_option("--top", st.layout.top, "layouts shown (default 5)")->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  layout_cmd->add_option("--tp", st.layout.tp, "tensor-parallel degrees to try, e.g. 4,8 (default: every divisor inside a domain)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--pp", st.layout.pp, "pipeline degrees to try (default: every divisor of the GPUs up to the layers; stages may be uneven)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--cp", st.layout.cp, "context-parallel degrees to try (default: the plan's cp)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--ep", st.layout.ep, "expert-parallel degrees to try (default: for a mixture of experts, every divisor of the experts and dp·cp; else the plan's ep)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--micro-batch", st.layout.micro_batch, "micro-batch sizes to try (default 1,2,4,8,16)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--vpp", st.layout.vpp, "virtual stages per GPU to try (default 1,2,3,4,6,8)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--zero", st.layout.zero_stage, "ZeRO stages to try, 0 to 3 (default: all four)")->delimiter(',')->type_name("N");
  layout_cmd->add_option("--recompute", st.layout.recompute, "recomputation to try: none, selective, full (default: all three)")->delimiter(',')->type_name("MODE")->check(CLI::IsMember({"none", "selective", "full"}));
  layout_cmd->add_option("--against", st.layout.against, "another plan of the file (a new model or cluster): say whether its best layout differs");
  add_format(layout_cmd, st.layout.format, "text (default), markdown or json", {Format::text, Format::markdown, Format::json});
  add_common(layout_cmd, st.common);

  layout_cmd->footer(
      "Examples:\n"
      "  napkin layout examples/plan_70b_on_512_gpus.napkin run\n"
      "  napkin layout examples/plan_70b_on_512_gpus.napkin run --zero 1 --recompute selective --top 10\n"
      "  napkin layout examples/plan_70b_on_512_gpus.napkin run --tp 4,8 --pp 1,2,4 --format json\n"
      "\nExit status: 0 layouts ranked; 1 no layout is valid, or none fits the plan's memory_capacity;\n"
      "2 a usage, parse or evaluation error.");
  add(st, layout_cmd, [&st] { return cmd_layout(st.layout, st.common); }, &st.layout.format);
}

void declare_lsp(CLI::App& app, State& st) {
  auto* lsp_cmd = app.add_subcommand(
      "lsp", "the language server for editors, over standard input and output (docs/editors.md)");
  lsp_cmd->add_option("--digits", st.common.digits, "significant digits shown (default 4)")->check(CLI::Range(1, 17));
  lsp_cmd->add_option("--stdlib", st.common.stdlib_dir, "read std/NAME from this directory instead of the built-in copy")
      ->check(CLI::ExistingDirectory);
  lsp_cmd->add_option("--std-dir", st.lsp.std_dir,
                      "where the standard library's modules are written for go-to-definition "
                      "(default $XDG_CACHE_HOME/napkin/std/VERSION)");

  add(st, lsp_cmd, [&st] { return cmd_lsp(st.lsp, st.common); });
}

// CLI11 says "--zero: 1 required N missing" of an option given no value:
// said instead in the option's own words, with how to write it.
napkin::Diagnostic missing_value(const CLI::App& app, const std::string& what) {
  const std::size_t colon = what.find(": ");
  const bool missing = what.ends_with(" missing") && what.find(" required ") != std::string::npos;
  if (colon == std::string::npos || !missing) return napkin::unplaced(napkin::codes::usage, what, kMoreHelp);
  const std::string name = what.substr(0, colon);
  const CLI::Option* opt = nullptr;
  for (const CLI::App* sub : app.get_subcommands())
    if (!opt) opt = sub->get_option_no_throw(name);
  if (!opt) opt = app.get_option_no_throw(name);
  if (!opt) return napkin::unplaced(napkin::codes::usage, what, kMoreHelp);
  // A choice's type reads "TEXT:{text,json,...}": its first choice is the example.
  std::string value = opt->get_type_name();
  if (const std::size_t set = value.find(":{"); set != std::string::npos)
    value = value.substr(set + 2, value.find_first_of(",}", set + 2) - set - 2);
  else if (const std::size_t colon = value.find(':'); colon != std::string::npos)
    value = value.substr(colon + 1);  // "INT:N": the validator's name
  return napkin::unplaced(napkin::codes::usage, fmt::format("{} needs a value: {}", name, opt->get_description()),
                          fmt::format("write `{} {}`, or leave {} out", name, value, name));
}

// How a command's arguments are written: `napkin layout FILE.napkin PLAN`.
std::string usage_of(const CLI::App& sub) {
  std::string out = "napkin " + sub.get_name();
  for (const CLI::Option* o : sub.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    const std::string& n = o->get_name();
    std::string word = n;
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (n == "file" || n == "reference" || n == "submission") word += ".napkin";
    if (n == "files") word = sub.get_name() == "diff" ? "OLD.napkin NEW.napkin" : "FILE.napkin ...";
    out += " " + word;
  }
  return out;
}

// CLI11 says "files is required" of a command given no file.
napkin::Diagnostic missing_argument(const CLI::App& app, const std::string& what) {
  const std::size_t end = what.find(" is required");
  if (end == std::string::npos || what.size() != end + 12) return napkin::unplaced(napkin::codes::usage, what, kMoreHelp);
  const std::string name = what.substr(0, end);
  for (const CLI::App* sub : app.get_subcommands())
    if (const CLI::Option* opt = sub->get_option_no_throw(name); opt && opt->get_positional())
      return napkin::unplaced(napkin::codes::usage,
                              fmt::format("napkin {} needs {}", sub->get_name(), opt->get_description()),
                              fmt::format("write `{}`; `napkin {} --help` says more", usage_of(*sub), sub->get_name()));
  return napkin::unplaced(napkin::codes::usage, what, kMoreHelp);
}

void describe(CLI::App& app) {
  app.footer(
      "Examples:\n"
      "  napkin run examples/exercise1_size_a_model.napkin --steps\n"
      "  napkin run examples/exercise1_size_a_model.napkin --steps --format latex --checks beside > solution.tex\n"
      "  napkin explain examples/exercise1_size_a_model.napkin decode.tokens_per_s\n"
      "  napkin check examples/*.napkin\n"
      "  napkin grade examples/grading/reference.napkin examples/grading/submission_kv.napkin\n"
      "  napkin diff <(git show HEAD~1:plan.napkin) plan.napkin\n"
      "  napkin fmt --check examples/*.napkin\n"
      "  napkin eval '39.02 GB / (5.3 TB/s) -> ms'\n"
      "  napkin quick --model llama3_8b --gpu h100_sxm --batch 32 --context 8192\n"
      "\nExit status: 0 ok, 1 a check failed (diff: a value moved; fmt --check: a file is not formatted),\n"
      "2 a usage, parse or evaluation error.\n"
      "The language is described in docs/language.md.");
  app.set_version_flag("--version", std::string("napkin ") + napkin::kVersion);
  app.require_subcommand(1);
}

// Runs the one subcommand parsed, within the limits of a restricted run.
int dispatch(State& st) {
  const Subcommand* chosen = nullptr;
  for (const auto& c : st.subcommands)
    if (*c.app) chosen = &c;
  if (!chosen) return finish(napkin::cli::failed(napkin::unplaced(napkin::codes::usage, "no command", kMoreHelp)));
  // A closed pipe is an error to report (EPIPE), not a signal that kills napkin.
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (`ulimit -f`) makes a write fail with EFBIG, which
  // io/atomic_write reports, leaving the original whole: not a signal that
  // kills napkin half-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string conflict = chosen->prepare();
  if (!conflict.empty()) return finish(napkin::cli::failed(napkin::unplaced(napkin::codes::usage, conflict, kMoreHelp)));
  const Format format = chosen->format ? *chosen->format : Format::text;
  // A document format: the command writes its JSON, and the format's
  // function writes the page from it.
  const napkin::DocumentFormatter from_document = document_formatter(format);
  const std::string title = fmt::format("napkin {}", chosen->app->get_name());
  if (from_document) {
    *chosen->format = Format::json;
    stop_documents_as(from_document, title, format);
  }
  Common& common = st.common;
  common.json_document = chosen->format && *chosen->format == Format::json;
  if (common.restricted)
    bound_run(common.time_limit, common.memory_limit,
              chosen->document_when_stopped(from_document ? Format::json : format));
  Result r;
  try {
    r = chosen->run();
    if (from_document && !r.out.empty()) r.out = from_document(title, r.out);
    // What goes to stdout cannot drive the terminal (ESC, BEL, CSI), each
    // format escaping in its own syntax.
    r.out = printed(std::move(r.out), format);
  } catch (...) {  // a result too big to render in the memory left, or what no command caught
    r = napkin::cli::failed(napkin::cli::diagnose(std::current_exception(), common.restricted ? common.memory_limit : 0));
  }
  if (common.restricted) r = settled(std::move(r));
  return finish(r);
}

}  // namespace

int main(int argc, char** argv) {
  heap_on_huge_page();
  CLI::App app{"napkin: back-of-the-envelope performance arithmetic for large models, with units and derivations",
               "napkin"};
  describe(app);
  State st;
  st.common.host = &kCommandLineHost;
  st.common.process_ends = true;
  declare_run(app, st);
  declare_explain(app, st);
  declare_check(app, st);
  declare_grade(app, st);
  declare_sweep_quick_eval(app, st);
  declare_plot(app, st);
  declare_diff_fmt_measure(app, st);
  declare_solve_sensitivity(app, st);
  declare_handout(app, st);
  declare_layout(app, st);
  declare_lsp(app, st);
  try {
    std::vector<std::string> args = with_expression_last(argc, argv, *st.eval_cmd);
    std::vector<char*> arg_pointers;
    for (auto& s : args) arg_pointers.push_back(s.data());
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ArgumentMismatch& e) {
    return finish(napkin::cli::failed(missing_value(app, e.what())));
  } catch (const CLI::RequiredError& e) {
    return finish(napkin::cli::failed(missing_argument(app, e.what())));
  } catch (const CLI::ParseError& e) {  // what CLI11 found wrong, with napkin's code for it
    return finish(napkin::cli::failed(napkin::unplaced(napkin::codes::usage, e.what(), kMoreHelp)));
  }
  return dispatch(st);
}
