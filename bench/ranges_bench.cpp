// Ranges: exercise 1's decode rate with the MI300X's memory bandwidth as a
// range (4.7 TB/s to 5.9 TB/s, a 90% interval), at 1,000,000 samples, from
// loading the file to the median and the 90% interval; beside it, the same
// estimate written by hand in C++ (one loop over lognormal draws, then the
// three quantiles), the floor any interpreter of it works against.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "corpus.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/samples.hpp"

namespace napkin::bench {
namespace {

constexpr std::size_t kSamples = 1'000'000;

std::string decode_source() {
  return "import \"" + source_path("examples/exercise1_size_a_model.napkin") +
         "\"\n"
         "scenario uncertain = decode with { gpu = mi300x with { memory_bandwidth = 4.7 TB/s to 5.9 TB/s } }\n";
}

void ranges_decode(benchmark::State& state, const char* field) {
  const std::string text = decode_source();
  const auto samples = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    Options o;
    o.samples = samples;
    Interpreter in(o);
    in.set_tracing(false);
    Module* m = in.load_source("ranges_bench.napkin", text, "");
    const Value v = in.eval_in(m, in.parse_snippet("<bench>", std::string("uncertain.") + field));
    if (!v.samples) {
      state.SkipWithError("not a range");
      break;
    }
    const RangeSummary& s = v.samples->summary();
    benchmark::DoNotOptimize(s.p50);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

// The hand-written estimate: tokens/s = 1 token / (weight_bytes / bandwidth)
// for lognormal bandwidth draws (Box–Muller over a xorshift generator), then
// the 5th, 50th and 95th percentiles by selection.
void reference_decode(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const double weight_bytes = 39.0196e9;
  const double mu = (std::log(4.7e12) + std::log(5.9e12)) / 2;
  const double sigma = (std::log(5.9e12) - std::log(4.7e12)) / (2 * 1.6448536269514722);
  std::vector<double> rate(n);
  for (auto _ : state) {
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    auto uniform = [&] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return (static_cast<double>(x >> 11) + 0.5) * 0x1.0p-53;
    };
    for (std::size_t i = 0; i + 1 < n; i += 2) {
      const double r = std::sqrt(-2 * std::log(uniform())), t = 2 * M_PI * uniform();
      rate[i] = std::exp(mu + sigma * r * std::cos(t)) / weight_bytes;
      rate[i + 1] = std::exp(mu + sigma * r * std::sin(t)) / weight_bytes;
    }
    auto at = [&](double q) {
      auto k = rate.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(n - 1));
      std::nth_element(rate.begin(), k, rate.end());
      return *k;
    };
    benchmark::DoNotOptimize(at(0.5));
    benchmark::DoNotOptimize(at(0.05));
    benchmark::DoNotOptimize(at(0.95));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("BM_RangeDecode/tokens_per_s", ranges_decode, "tokens_per_s")
      ->Arg(10'000)
      ->Arg(kSamples)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_RangeDecode/tokens_per_s_with_kv", ranges_decode, "tokens_per_s_with_kv")
      ->Arg(kSamples)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_RangeDecodeReference", reference_decode)->Arg(kSamples)->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace napkin::bench
