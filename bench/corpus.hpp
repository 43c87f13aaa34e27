#pragma once
// What the benchmarks read: the example files, and a large source made of
// the real corpus so parse throughput is measured on napkin as it is written.
#include <string>
#include <vector>

namespace napkin::bench {

std::string source_path(const std::string& relative);  // under the source tree
std::string read_text(const std::string& path);
std::vector<std::string> example_paths();  // examples/*.napkin, sorted

// The standard library and the examples, repeated to at least `bytes`.
std::string large_source(std::size_t bytes);

}  // namespace napkin::bench
