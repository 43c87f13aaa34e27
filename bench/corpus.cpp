#include "corpus.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "interpreter/core/stdlib_files.hpp"

namespace napkin::bench {

std::string source_path(const std::string& relative) { return std::string(NAPKIN_SOURCE_DIR) + "/" + relative; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> example_paths() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(source_path("examples")))
    if (e.path().extension() == ".napkin") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string large_source(std::size_t bytes) {
  std::string corpus;
  for (std::size_t i = 0; i < kStdlibCount; ++i) corpus.append(kStdlib[i].text, kStdlib[i].size).append("\n");
  for (const auto& p : example_paths()) corpus += read_text(p) + "\n";
  std::string out;
  out.reserve(bytes + corpus.size());
  while (out.size() < bytes) out += corpus;
  return out;
}

}  // namespace napkin::bench
