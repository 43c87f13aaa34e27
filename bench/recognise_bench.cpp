// The grammar alone: the benchmark corpus matched by the rules with no
// action and no tree, the floor any parser built on them can reach.
#include <benchmark/benchmark.h>

#include <tao/pegtl.hpp>

#include "corpus.hpp"
#include "grammar/rules.hpp"

namespace napkin::bench {
namespace {

struct SkipState {
  const char* sp_from = nullptr;
  const char* sp_to = nullptr;
};

void BM_RecogniseLarge(benchmark::State& state) {
  const std::string text = large_source(4u << 20);
  for (auto _ : state) {
    tao::pegtl::memory_input<tao::pegtl::tracking_mode::lazy, tao::pegtl::eol::lf_crlf, const char*> in(text, "large");
    SkipState s;
    const bool ok = tao::pegtl::parse<rules::file>(in, s);
    if (!ok) state.SkipWithError("the corpus did not match");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_RecogniseLarge)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace napkin::bench
