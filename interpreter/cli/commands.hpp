#pragma once
// One function per subcommand. Each returns what to print and the exit
// code, so tests can call them without a process.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/derivation/derivation.hpp"
#include "interpreter/output/disclosure.hpp"
#include "interpreter/output/output.hpp"
#include "output_format.hpp"

namespace napkin::cli {

struct Result {
  std::string out;
  std::string err;
  int code = 0;
};

struct Host;

struct Common {
  // What the program around the commands binds into each interpreter
  // (host.hpp): napkin's main sets kCommandLineHost.
  const Host* host = nullptr;
  int digits = 4;
  std::size_t samples = 10'000;  // samples per range (kDefaultSamples)
  std::string stdlib_dir;
  bool no_measure = false;  // `measure(...)` uses its fallback
  bool remeasure = false;   // `measure(...)` runs its probe even when the cache has it
  // The process ends once this command's output is written (the `napkin`
  // command sets it): its interpreter need not be taken apart first.
  bool process_ends = false;
  // The command writes JSON (--format json, or a format written from it):
  // an error that stops it is a document too, {"errors": [...]}, on stdout
  // beside its text on stderr (dispatch sets it).
  bool json_document = false;
  // A restricted run (docs/grading.md): imports stay in the folder of
  // `root_file`, `measure(...)` runs no probe; main.cpp sets the bounds.
  bool restricted = false;
  std::string root_file;
  double time_limit = 10;          // seconds
  std::size_t memory_limit = 2048;  // MiB
};

// How much of each value a JSON or TOML report keeps (--brief).
enum class Brief : std::uint8_t {
  Trees,   // each value's derivation tree (no --brief)
  Lines,   // its formula and numbers, no tree
  Values,  // its figures and display alone
};

struct RunArgs {
  std::string file;
  std::optional<StepDepth> steps;  // nothing: results only in text
  CheckDisplay checks = CheckDisplay::List;  // in a document
  bool all = false;
  Brief brief = Brief::Trees;
  Format format = Format::text;
};

// --steps, --checks and --brief as written, before settle_run (choices.hpp)
// reads them into RunArgs: CLI11 and the playground's entry both fill it.
struct RunWords {
  std::string steps;  // "": no --steps
  std::string checks = "list";
  std::string brief;  // "": no --brief
};

struct ExplainArgs {
  std::string file;
  std::string name;
  int depth = -1;
  Format format = Format::text;
  bool flat = false;     // one line, inlined to literals and inputs
  bool sources = false;  // where each formula is written
};

struct CheckArgs {
  std::vector<std::string> files;
  bool verbose = false;
  Format format = Format::text;  // text, json, junit, gradescope
  Disclosure disclosure;        // what students read of json, junit and gradescope
};

// `napkin grade REFERENCE SUBMISSION`: the reference's checks run against
// the submission, and each failed answer traced to its first wrong step.
struct GradeArgs {
  std::string reference;
  std::string submission;
  Format format = Format::text;  // text, json, junit, gradescope
  Disclosure disclosure;        // what students read, in every format
  // The share of its points an answer earns that is right from the
  // student's own wrong earlier answers (docs/grading.md).
  double carried_forward = 0.5;
};

Result cmd_grade(const GradeArgs& a, const Common& c);

struct EvalArgs {
  std::string expr;
  bool steps = false;
};

struct SweepArgs {
  std::string file;
  Format format = Format::text;
};

struct QuickArgs {
  std::string model;
  std::string config;  // a Hugging Face config.json, read through std/hf, instead of --model
  std::string gpu;
  double batch = 1;
  double context = 2048;
  std::optional<double> prompt;  // none: the whole context
  double price = 2;
  double mfu = 50;
  bool steps = false;
  Format format = Format::text;
};

Result cmd_run(const RunArgs& a, const Common& c);
Result cmd_quick(const QuickArgs& a, const Common& c);
Result cmd_sweep(const SweepArgs& a, const Common& c);
Result cmd_explain(const ExplainArgs& a, const Common& c);
Result cmd_check(const CheckArgs& a, const Common& c);
Result cmd_eval(const EvalArgs& a, const Common& c);

struct PlotArgs {
  std::string kind;    // roofline or sweep
  std::string file;
  std::string output;  // empty or "-": standard output
  std::string gpu;
  std::string peak = stdlib_names::peak_bf16;
  int sweep = 1;
};

Result cmd_plot(const PlotArgs& a, const Common& c);

struct DiffArgs {
  std::vector<std::string> files;  // OLD NEW; with `git`, the seven arguments git gives an external diff
  std::string explain;             // show this value's two derivations instead
  Format format = Format::text;
  std::string threshold;  // "0.1%": hide smaller moves
  std::string base_dir;   // resolve both versions' imports here
  bool git = false;
};

struct FmtArgs {
  std::vector<std::string> files;  // "-": standard input
  bool check = false;
  bool write = false;
};

Result cmd_diff(const DiffArgs& a, const Common& c);
Result cmd_fmt(const FmtArgs& a, const Common& c);

struct MeasureArgs {
  std::vector<std::string> probes;  // "": every probe
  std::string out;                  // the hardware profile to write, if any
};

Result cmd_measure(const MeasureArgs& a, const Common& c);

// `napkin solve FILE RECORD --for INPUT (--where 'A == B' | --max C | --min C)`
struct SolveArgs {
  std::string file;
  std::string record;
  std::string input;
  std::string where, max, min;  // exactly one
  std::string lo, hi;           // the bracket, or neither
  int depth = 1;
  Format format = Format::text;
};

// `napkin sensitivity FILE RECORD.FIELD [--vary N,... | --except N,...] [--all-inputs]`
struct SensitivityArgs {
  std::string file;
  std::string name;
  std::vector<std::string> vary, except;  // --vary NAME,...  --except NAME,...
  bool all_inputs = false;
  Format format = Format::text;
};

Result cmd_solve(const SolveArgs& a, const Common& c);
Result cmd_sensitivity(const SensitivityArgs& a, const Common& c);

// `napkin handout FILE [--format text|markdown|latex]`: the student's sheet.
struct HandoutArgs {
  std::string file;
  Format format = Format::text;
};
Result cmd_handout(const HandoutArgs& a, const Common& c);

// `napkin layout FILE PLAN [--top N]`
struct LayoutArgs {
  std::string file;
  std::string record;
  std::size_t top = 5;
  std::vector<double> tp, pp, cp, ep, micro_batch, vpp, zero_stage;  // empty: every candidate
  std::vector<std::string> recompute;                            // none, selective, full; empty: all three
  std::string against;                          // another plan of the file: does its best layout differ?
  Format format = Format::text;
};

Result cmd_layout(const LayoutArgs& a, const Common& c);

// `napkin lsp`: the language server, speaking over standard input and output.
struct LspArgs {
  std::string std_dir;  // where std/ modules are written for go-to-definition ("": the cache folder)
};
Result cmd_lsp(const LspArgs& a, const Common& c);

}  // namespace napkin::cli
