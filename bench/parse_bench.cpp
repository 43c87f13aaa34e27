// Parse throughput: source text to AST, in bytes per second.
#include <benchmark/benchmark.h>

#include "corpus.hpp"
#include "grammar/parser.hpp"

namespace napkin::bench {
namespace {

void parse(benchmark::State& state, const SourceFile& file) {
  for (auto _ : state) {
    ast::Module m = parse_module(file);
    benchmark::DoNotOptimize(m.statements.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.text.size()));
}

// About 4 MB: the standard library and every example, over and over.
void BM_ParseLarge(benchmark::State& state) {
  const SourceFile file{"large.napkin", large_source(4u << 20), ""};
  parse(state, file);
}
BENCHMARK(BM_ParseLarge)->Unit(benchmark::kMillisecond);

// One ordinary file, where fixed costs per parse show.
void BM_ParseExercise(benchmark::State& state) {
  const SourceFile file{"exercise1_size_a_model.napkin",
                        read_text(source_path("examples/exercise1_size_a_model.napkin")), ""};
  parse(state, file);
}
BENCHMARK(BM_ParseExercise)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace napkin::bench
