// Sweep throughput in scenario points per second on one core: exercise 1's
// decode scenario over 100 batch sizes × 100 context lengths, two columns.
#include <benchmark/benchmark.h>

#include "corpus.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin::bench {
namespace {

void sweep(benchmark::State& state, bool text, bool compile = true) {
  const std::string path = source_path("bench/decode_sweep.napkin");
  std::size_t points = 0;
  for (auto _ : state) {
    // A fresh interpreter each time, so memoised fields are not reused; the
    // load (parsing the 10,000 values included) is not counted.
    state.PauseTiming();
    auto in = std::make_unique<Interpreter>();
    Module* m = in->load_file(path);
    state.ResumeTiming();
    std::vector<SweepResult> sweeps = run_sweeps(*in, m, compile);
    points = sweeps.at(0).row_count();
    if (text) {
      std::string out = sweep_text(*in, sweeps[0]);
      benchmark::DoNotOptimize(out.data());
    }
    state.PauseTiming();
    in.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
  state.counters["points"] = static_cast<double>(points);
}

void BM_SweepDecode(benchmark::State& state) { sweep(state, false); }
BENCHMARK(BM_SweepDecode)->Unit(benchmark::kMillisecond);

// The same with the table formatted as `napkin sweep` prints it.
void BM_SweepDecodeText(benchmark::State& state) { sweep(state, true); }
BENCHMARK(BM_SweepDecodeText)->Unit(benchmark::kMillisecond);

// The same points through the tree walker alone, as before sweeps were
// compiled: what the compiled program is measured against.
void BM_SweepDecodeWalked(benchmark::State& state) { sweep(state, false, false); }
BENCHMARK(BM_SweepDecodeWalked)->Unit(benchmark::kMillisecond);

// A million points (1,000 batch sizes x 1,000 context lengths), evaluation
// alone: compiling the formulas and running the program, no table.
void BM_SweepMillion(benchmark::State& state) {
  std::string source = "import \"" + source_path("examples/exercise1_size_a_model.napkin") +
                       "\"\nsweep decode\n  over batch in [";
  for (int i = 1; i <= 1000; ++i) source += (i > 1 ? ", " : "") + std::to_string(i);
  source += "],\n       context in [";
  for (int i = 1; i <= 1000; ++i) source += (i > 1 ? ", " : "") + std::to_string(64 * i) + " token";
  source += "]\n  show tokens_per_s, tokens_per_s_with_kv\n";
  std::size_t points = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto in = std::make_unique<Interpreter>();
    Module* m = in->load_source("million.napkin", source, "");
    state.ResumeTiming();
    std::vector<SweepResult> sweeps = run_sweeps(*in, m);
    points = sweeps.at(0).row_count();
    if (!sweeps[0].compiled) state.SkipWithError("the decode sweep was not compiled");
    state.PauseTiming();
    sweeps.clear();
    in.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
  state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_SweepMillion)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace napkin::bench
