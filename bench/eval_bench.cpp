// `napkin run FILE` for each example, in process: read, parse, load the
// imported standard modules, evaluate every field and check, and format the
// text output. Process start-up is left to bench/compare.sh.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "corpus.hpp"
#include "interpreter/cli/commands.hpp"

namespace napkin::bench {
namespace {

void run(benchmark::State& state, const std::string& path, bool steps) {
  cli::RunArgs args;
  args.file = path;
  // BM_RunSteps: `--steps` as the command line gives it, factors.
  if (steps) args.steps = StepDepth::Factors;
  for (auto _ : state) {
    cli::Result r = cli::cmd_run(args, cli::Common{});
    if (r.code == 2) {
      state.SkipWithError(r.err.c_str());
      break;
    }
    benchmark::DoNotOptimize(r.out.data());
  }
}

[[maybe_unused]] const bool registered = [] {
  for (const auto& path : example_paths()) {
    const std::string name = std::filesystem::path(path).stem().string();
    benchmark::RegisterBenchmark(("BM_Run/" + name).c_str(), run, path, false)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_RunSteps/" + name).c_str(), run, path, true)->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
}  // namespace napkin::bench
