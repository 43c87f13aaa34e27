#pragma once
// Ranges as values: an uncertain quantity is a set of samples of one
// dimension. `35% to 55%`, `normal(m, sd)` and `uniform(a, b)` each draw a
// fixed number of samples (Options::samples) from a generator seeded by
// where the range is written, so a file prints the same bytes on every run;
// arithmetic works sample by sample, so a range used twice is the same
// samples (`x - x` is exactly 0) and inputs keep their correlations.
//
// Sampling is stratified (Latin hypercube): a range of n samples holds the
// distribution's quantiles at (i + ½)/n, i = 0 … n−1, in an order shuffled
// by its own generator. Its percentiles are those of the distribution to
// within a sample's spacing, and two ranges are independent because their
// orders are.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "grammar/source.hpp"
#include "sample_buffer.hpp"
#include "value.hpp"

namespace napkin {

inline constexpr std::size_t kDefaultSamples = 10'000;
inline constexpr std::size_t kMaxSamples = 1'000'000;
// The samples of all ranges alive at once, in this process: past this (320
// MB of them) making a range is E0702 at the formula that makes it, before
// a file of many million-sample ranges takes the machine's memory.
inline constexpr std::size_t kMaxSamplesHeld = 40'000'000;
std::size_t samples_held();
// The z-score of the 95th percentile: `a to b` is a 90% interval.
inline constexpr double kZ95 = 1.6448536269514722;

struct RangeSummary {
  double p5 = 0, p50 = 0, p95 = 0, mean = 0, sd = 0;
};

struct Samples {
  SampleVector v;  // magnitudes in SI units
  std::size_t counted = 0;  // what this set adds to samples_held(), given back when it is freed

  Samples() = default;
  Samples(const Samples&) = delete;
  Samples& operator=(const Samples&) = delete;
  ~Samples();
  // Counts `n` samples about to be held, or throws E0702 at `at` when they
  // would pass kMaxSamplesHeld.
  void count(std::size_t n, Span at);

  // The summary and the sorted samples are computed on first use.
  const RangeSummary& summary() const;
  // The q-quantile, 0 ≤ q ≤ 1, interpolated between order statistics
  // (position q·(n−1), as R's and NumPy's default).
  double quantile(double q) const;

 private:
  mutable std::unique_ptr<RangeSummary> summary_;
  mutable std::vector<double> sorted_;
};

using SamplesPtr = std::shared_ptr<const Samples>;

// Is `v` a range (a quantity carrying samples)?
inline bool is_range(const Value& v) { return v.kind == Value::Kind::Quantity && v.samples != nullptr; }
// The summary of a range's samples; `v` must be a range.
inline const RangeSummary& range_summary(const Value& v) { return v.samples->summary(); }

// A generator's seed from where a range is written: the text of the
// expression, how many times that text occurs earlier in its file, and the
// file's base name (not its directory, so the same file run from anywhere
// gives the same samples; not its line, so an edit elsewhere moves nothing).
std::uint64_t range_seed(std::string_view file_name, std::string_view file_text, std::size_t begin,
                         std::string_view expr_text);

enum class Distribution { Normal, LogNormal, Uniform };
// n samples of a distribution: Normal(a = mean, b = sd), LogNormal(a = μ,
// b = σ of the logarithm), Uniform(a = low, b = high).
SampleVector draw(Distribution d, double a, double b, std::size_t n, std::uint64_t seed);

// The standard normal's quantile function, to about 1e-9 relative.
double normal_quantile(double p);

}  // namespace napkin
