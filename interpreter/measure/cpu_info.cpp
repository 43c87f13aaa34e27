#include "cpu_info.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "interpreter/measure/platform/platform.hpp"

namespace napkin::measure {

namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// "32768K", "1M": the format of /sys/.../cache/indexN/size.
std::size_t parse_size(const std::string& s) {
  std::size_t n = 0, i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') n = n * 10 + static_cast<std::size_t>(s[i++] - '0');
  if (i < s.size() && (s[i] == 'K' || s[i] == 'k')) return n << 10;
  if (i < s.size() && s[i] == 'M') return n << 20;
  if (i < s.size() && s[i] == 'G') return n << 30;
  return n;
}

std::string model_name() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) break;
    auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "CPU" : line.substr(start);
  }
  return "CPU";
}

// STREAM's rule counts every last-level cache the run can use: the size of
// one, times the number of distinct groups of CPUs sharing one.
std::size_t last_level_cache() {
  namespace fs = std::filesystem;
  const fs::path cpus = "/sys/devices/system/cpu";
  std::string best_index;
  std::size_t best = 0;
  int best_level = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cpus / "cpu0/cache", ec)) {
    const std::string index = e.path().filename().string();
    if (index.rfind("index", 0) != 0 || read_line(e.path() / "type") == "Instruction") continue;
    const int level = std::atoi(read_line(e.path() / "level").c_str());
    const std::size_t size = parse_size(read_line(e.path() / "size"));
    if (level > best_level || (level == best_level && size > best)) best_level = level, best = size, best_index = index;
  }
  if (best_index.empty()) return 0;
  std::set<std::string> groups;
  for (const auto& e : fs::directory_iterator(cpus, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
    const std::string shared = read_line(e.path() / "cache" / best_index / "shared_cpu_list");
    if (!shared.empty()) groups.insert(shared);
  }
  return best * std::max<std::size_t>(1, groups.size());
}

std::size_t mem_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return static_cast<std::size_t>(std::atoll(line.c_str() + 13)) << 10;
  return 0;
}

}  // namespace

std::string CpuInfo::device() const { return fmt::format("{}, {} thread{}", model, threads, threads == 1 ? "" : "s"); }

const CpuInfo& cpu_info() {
  static const CpuInfo info = [] {
    CpuInfo c;
    c.model = model_name();
    c.threads = usable_threads();
    c.llc_bytes = last_level_cache();
    c.available_bytes = mem_available();
    return c;
  }();
  return info;
}

}  // namespace napkin::measure
