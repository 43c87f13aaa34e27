// `napkin layout` over every layout of a 4,096-GPU cluster: Llama 3 70B
// on 512 DGX H100 nodes, tp every divisor up to a node, pp every divisor
// up to the 80 layers, 1, 2, 3, 4, 6 or 8 virtual stages, cp 1, 2, 4 or
// 8, micro-batches 1 to 16, every ZeRO stage and recomputation mode (the
// search's defaults: 34,200 candidates, 25,500 of them refused by the
// plan's layout_ok with a reason); and as wide as the search goes,
// DeepSeek-V3 on the same cluster with every ep too. The target is under
// 100 ms; the plan's formulas run as a compiled sweep program.
#include <benchmark/benchmark.h>

#include "corpus.hpp"
#include "interpreter/analysis/layout_search.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin::bench {
namespace {

const char* kPlan =
    "import \"std/plans\"\n"
    "import \"std/models\"\n"
    "scenario plan = training_plan with {\n"
    "  model = llama3_70b\n"
    "  cluster = dgx_h100 with { domains = 512 }\n"
    "  global_batch = 4096\n"
    "  tokens_to_train = 15 Ttoken\n"
    "}\n"
    "scenario moe = plan with { model = deepseek_v3 }\n";

void layout(benchmark::State& state, bool compile, bool wide = false, bool prune = true) {
  std::size_t tried = 0;
  for (auto _ : state) {
    // A fresh interpreter each time, so no field is remembered from the
    // last search; loading the plan and the library is not counted.
    state.PauseTiming();
    auto in = std::make_unique<Interpreter>();
    Module* m = in->load_source("plan.napkin", kPlan, "");
    state.ResumeTiming();
    LayoutSpec spec;
    spec.record = wide ? "moe" : "plan";
    spec.cp = {1, 2, 4, 8};
    spec.compile = compile;
    spec.prune = prune;
    LayoutResult r = search_layouts(*in, m, spec);
    tried = r.tried;
    benchmark::DoNotOptimize(r.ranked.data());
    state.PauseTiming();
    in.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * tried));
  state.counters["layouts"] = static_cast<double>(tried);
}

void BM_Layout4096(benchmark::State& state) { layout(state, true); }
BENCHMARK(BM_Layout4096)->Unit(benchmark::kMillisecond);

// The same layouts through the tree walker alone.
void BM_Layout4096Walked(benchmark::State& state) { layout(state, false); }
BENCHMARK(BM_Layout4096Walked)->Unit(benchmark::kMillisecond);

// Every degree the search has, for a mixture of experts: tp, pp, virtual
// stages, cp, ep, micro-batch, ZeRO stage and recomputation.
void BM_Layout4096Wide(benchmark::State& state) { layout(state, true, true); }
BENCHMARK(BM_Layout4096Wide)->Unit(benchmark::kMillisecond);

// The same, pricing every candidate, even in a group the plan's validity
// rules out: what the pruning saves.
void BM_Layout4096WideUnpruned(benchmark::State& state) { layout(state, true, true, false); }
BENCHMARK(BM_Layout4096WideUnpruned)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace napkin::bench
