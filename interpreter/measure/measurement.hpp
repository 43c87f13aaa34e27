#pragma once
// What one probe run produced: the samples' summary, where and how it was
// measured, and anything about the run a reader should doubt.
#include <string>
#include <vector>

namespace napkin::measure {

struct Measurement {
  std::string probe;    // "cpu.copy_bandwidth"
  std::string variant;  // "threads=1", "dtype=bf16", or ""
  std::string unit;     // "B/s", "FLOP/s" or "s", in base units
  double value = 0;     // the median sample
  double min = 0, max = 0;
  int n = 0;
  std::string device;       // "AMD EPYC, 2 threads"
  std::string method;       // "STREAM copy, 2 × 1 GiB arrays, 1 thread"
  std::vector<std::string> warnings;  // "spread 7.1% (over 5%)"
  std::string measured_at;  // UTC, ISO 8601
  bool cached = false;      // read back from the cache rather than run now

  // "cpu.copy_bandwidth(threads=1)": the probe and its arguments, one string.
  std::string key() const { return variant.empty() ? probe : probe + "(" + variant + ")"; }
};

// Fills value, min, max, n and the spread warning from per-run samples.
void summarize(Measurement& m, std::vector<double> samples, double spread_limit = 0.05);

// "cpu.copy_bandwidth(threads=1) on AMD EPYC, 2 threads; STREAM copy ...;
// median of 10 (min 11.8 GB/s, max 12.4 GB/s)", and any warnings.
std::string provenance(const Measurement& m);

// "12.3 GB/s": the value in its unit with a decimal prefix.
std::string show(double value, const std::string& unit, int digits = 4);

std::string utc_now();

}  // namespace napkin::measure
