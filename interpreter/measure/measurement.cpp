#include "measurement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>

namespace napkin::measure {

void summarize(Measurement& m, std::vector<double> samples, double spread_limit) {
  m.warnings.erase(std::remove_if(m.warnings.begin(), m.warnings.end(),
                                  [](const std::string& w) { return w.rfind("spread", 0) == 0; }),
                   m.warnings.end());
  m.n = static_cast<int>(samples.size());
  if (samples.empty()) return;
  std::sort(samples.begin(), samples.end());
  const std::size_t h = samples.size() / 2;
  m.value = samples.size() % 2 ? samples[h] : (samples[h - 1] + samples[h]) / 2;
  m.min = samples.front();
  m.max = samples.back();
  const double spread = m.value > 0 ? (m.max - m.min) / m.value : 0;
  if (spread > spread_limit)
    m.warnings.push_back(fmt::format("spread {:.1f}% (over {:.0f}%): the machine may be busy", spread * 100,
                                     spread_limit * 100));
}

// Measurements are in base units (B/s, FLOP/s, s); a decimal prefix keeps
// them readable without the language's unit table, which measure does not use.
std::string show(double value, const std::string& unit, int digits) {
  static constexpr std::array<const char*, 7> kUp = {"", "k", "M", "G", "T", "P", "E"};
  static constexpr std::array<const char*, 4> kDown = {"", "m", "u", "n"};
  if (!std::isfinite(value) || value == 0) return fmt::format("{} {}", value, unit);
  std::size_t up = 0, down = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && up + 1 < kUp.size()) v /= 1000, ++up;
  while (up == 0 && std::fabs(v) < 1 && down + 1 < kDown.size()) v *= 1000, ++down;
  const std::string prefix = up ? kUp[up] : kDown[down];
  return fmt::format("{:.{}g} {}{}", v, digits, prefix, unit);
}

std::string provenance(const Measurement& m) {
  std::string s = fmt::format("{} on {}; {}; median of {} (min {}, max {})", m.key(), m.device, m.method, m.n,
                              show(m.min, m.unit), show(m.max, m.unit));
  if (m.cached && !m.measured_at.empty()) s += "; cached from " + m.measured_at;
  for (const auto& w : m.warnings) s += "; " + w;
  return s;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace napkin::measure
