// Sweep throughput in scenario points per second on one core: exercise 1's
// decode scenario over 100 batch sizes × 100 context lengths, two columns.
#include <benchmark/benchmark.h>

#include "corpus.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin::bench {
namespace {

void sweep(benchmark::State& state, bool text) {
  const std::string path = source_path("bench/decode_sweep.napkin");
  std::size_t points = 0;
  for (auto _ : state) {
    // A fresh interpreter each time, so memoised fields are not reused; the
    // load (parsing the 10,000 values included) is not counted.
    state.PauseTiming();
    auto in = std::make_unique<Interpreter>();
    Module* m = in->load_file(path);
    state.ResumeTiming();
    std::vector<SweepResult> sweeps = run_sweeps(*in, m);
    points = sweeps.at(0).rows.size();
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

}  // namespace
}  // namespace napkin::bench
