#include "cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace napkin::measure {

namespace fs = std::filesystem;

namespace {

template <typename T>
T need(const toml::table& t, const char* key) {
  auto v = t[key].value<T>();
  if (!v) throw std::runtime_error(fmt::format("the entry has no {} of the right type", key));
  return *v;
}

}  // namespace

toml::table to_toml(const Measurement& m) {
  toml::table t;
  t.insert("probe", m.probe);
  if (!m.variant.empty()) t.insert("arguments", m.variant);
  t.insert("value", m.value);
  t.insert("unit", m.unit);
  t.insert("min", m.min);
  t.insert("max", m.max);
  t.insert("n", m.n);
  t.insert("device", m.device);
  t.insert("method", m.method);
  t.insert("measured_at", m.measured_at);
  toml::array w;
  for (const auto& s : m.warnings) w.push_back(s);
  t.insert("warnings", std::move(w));
  return t;
}

Measurement from_toml(const toml::table& t) {
  Measurement m;
  m.probe = need<std::string>(t, "probe");
  m.variant = t["arguments"].value_or(std::string());
  m.value = need<double>(t, "value");
  m.unit = need<std::string>(t, "unit");
  m.min = t["min"].value_or(m.value);
  m.max = t["max"].value_or(m.value);
  m.n = static_cast<int>(t["n"].value_or(std::int64_t{1}));
  m.device = t["device"].value_or(std::string());
  m.method = t["method"].value_or(std::string());
  m.measured_at = t["measured_at"].value_or(std::string());
  if (const toml::array* w = t["warnings"].as_array())
    for (const auto& e : *w)
      if (auto s = e.value<std::string>()) m.warnings.push_back(*s);
  return m;
}

void write_atomically(const std::string& path, const std::string& header, const toml::table& doc) {
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const fs::path tmp = target.string() + fmt::format(".tmp.{}", static_cast<long>(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << header << doc << "\n";
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      throw std::runtime_error(fmt::format("cannot write {}", tmp.string()));
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(fmt::format("cannot replace {}: {}", path, ec.message()));
  }
}

std::string Cache::default_path() {
  if (const char* p = std::getenv("NAPKIN_MEASURE_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "napkin" / "measurements.toml").string();
  if (const char* h = std::getenv("HOME"); h && *h)
    return (fs::path(h) / ".cache" / "napkin" / "measurements.toml").string();
  return "napkin-measurements.toml";
}

toml::table Cache::load() const {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  try {
    return toml::parse(ss.str(), path_);
  } catch (const toml::parse_error&) {
    return {};  // a damaged cache is only a cache: measure again and overwrite it
  }
}

std::optional<Measurement> Cache::find(const std::string& device, const std::string& key) const {
  const toml::table doc = load();
  const toml::table* entry = doc[device][key].as_table();
  if (!entry) return std::nullopt;
  try {
    Measurement m = from_toml(*entry);
    m.cached = true;
    return m;
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

void Cache::store(const std::string& device, const Measurement& m) const {
  toml::table doc = load();
  if (!doc[device].as_table()) doc.insert_or_assign(device, toml::table{});
  doc[device].as_table()->insert_or_assign(m.key(), to_toml(m));
  write_atomically(path_,
                   "# Measurements napkin has made on this machine, by device and probe.\n"
                   "# `--remeasure` runs a probe again; deleting this file forgets them all.\n\n",
                   doc);
}

}  // namespace napkin::measure
