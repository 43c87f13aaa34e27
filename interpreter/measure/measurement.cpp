#include "measurement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "../format.hpp"
#include "../units.hpp"

namespace napkin::measure {

namespace {

Dim dim_of(const UnitTable& units, const std::string& unit) {
  Dim d;
  std::size_t start = 0;
  bool divide = false;
  while (start <= unit.size()) {
    const std::size_t slash = unit.find('/', start);
    const std::string symbol = unit.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (auto def = units.lookup(symbol)) d = divide ? d / def->dim : d * def->dim;
    if (slash == std::string::npos) break;
    divide = true;
    start = slash + 1;
  }
  return d;
}

}  // namespace

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

std::string show(double value, const std::string& unit, int digits) {
  static const UnitTable units;
  return format_quantity(Quantity{value, dim_of(units, unit)}, nullptr, units, digits);
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
