#include "profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "napkin/version.hpp"
#include "cache.hpp"
#include "grammar/diagnostic.hpp"

namespace napkin::measure {

namespace {

// "cpu.copy_bandwidth(threads=1)" → copy_bandwidth_one_thread; the
// all-threads variant and the default dtype keep the plain name; a probe
// whose field is a prefix takes it and its dtype ("peak_" → peak_bf16).
std::string field_name(const Measurement& m, int all_threads, const FieldNames& names) {
  std::string base = m.probe.substr(m.probe.find('.') + 1);
  const auto arg = [&](const std::string& k) {
    const std::string key = k + "=";
    const auto at = m.variant.find(key);
    if (at == std::string::npos) return std::string();
    const auto end = m.variant.find(',', at);
    return m.variant.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
  };
  if (const auto it = names.by_probe.find(base); it != names.by_probe.end() && FieldNames::is_prefix(it->second))
    base = it->second + arg("dtype");
  if (const std::string memory = arg("memory"); memory == "pageable") base += "_pageable";
  if (const std::string threads = arg("threads"); !threads.empty() && std::atoi(threads.c_str()) != all_threads)
    base += threads == "1" ? "_one_thread" : "_" + threads + "_threads";
  return base;
}

void add(Profile& p, const std::string& name, const Measurement& m) {
  for (const auto& f : p.fields)
    if (f.name == name) return;
  p.fields.push_back({name, "", false, m.value, m.unit, provenance(m)});
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  static const char* const reserved[] = {"import", "let", "fn", "unit", "model", "hardware", "scenario", "record",
                                         "extends", "with", "check", "within", "if", "then", "else", "and",
                                         "or", "not", "true", "false", "measure", "sweep", "over", "in", "show"};
  for (const char* r : reserved)
    if (s == r) return false;
  return true;
}

bool is_unit_text(const std::string& s) {
  if (s.empty()) return true;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '*' || c == '^' || c == '_' || c == '-' ||
          c == '$'))
      return false;
  return std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '$';
}

}  // namespace

Profile make_profile(const std::string& device, const std::vector<Measurement>& ms, double gpu_memory_bytes,
                     const FieldNames& names) {
  Profile p;
  p.device = device;
  p.measured_at = utc_now();
  const bool gpu = device.rfind("gpu:", 0) == 0;
  const std::string prefix = gpu ? "gpu." : "cpu.";
  std::string device_name = device.substr(device.find(':') + 1);
  device_name.erase(0, device_name.find_first_not_of(' '));
  if (!names.device_name.empty()) p.fields.push_back({names.device_name, device_name + " (measured)", true, 0, "", ""});

  int all_threads = 0;
  for (const auto& m : ms) {
    const auto at = m.variant.find("threads=");
    if (at != std::string::npos) all_threads = std::max(all_threads, std::atoi(m.variant.c_str() + at + 8));
  }
  // The copy probe's field first (memory_bandwidth): the figure formulas read.
  const std::string copy = "copy_bandwidth";
  const std::string bandwidth = names.spec_field(copy, "");
  for (const auto& m : ms)
    if (!bandwidth.empty() && m.probe == prefix + copy && field_name(m, all_threads, names) == copy) add(p, bandwidth, m);
  if (gpu && gpu_memory_bytes > 0 && !names.device_memory.empty())
    p.fields.push_back({names.device_memory, "", false, gpu_memory_bytes, "B", "device memory as the CUDA runtime reports it"});
  for (const auto& m : ms)
    if (m.probe.rfind(prefix, 0) == 0) add(p, field_name(m, all_threads, names), m);
  p.measurements = ms;
  return p;
}

namespace {
constexpr const char* kProfileHeader =
    "# A hardware profile measured by `napkin measure` on {}.\n"
    "# In a scenario: hardware mine = import_toml(\"{}\")\n"
    "# [hardware] holds the record's fields; [measurements] every probe in full.\n\n";
toml::table profile_doc(const Profile& p);
}  // namespace

std::string profile_toml(const std::string& path, const Profile& p) {
  return toml_text(fmt::format(kProfileHeader, p.measured_at, std::filesystem::path(path).filename().string()),
                   profile_doc(p));
}

namespace {
toml::table profile_doc(const Profile& p) {
  toml::table doc;
  doc.insert("profile", toml::table{{"device", p.device}, {"measured_at", p.measured_at},
                                    {"napkin", std::string(kVersion)}});
  toml::table hw;
  for (const auto& f : p.fields) {
    if (f.is_string) {
      hw.insert(f.name, f.text);
      continue;
    }
    toml::table t{{"value", f.value}, {"unit", f.unit}};
    if (!f.provenance.empty()) t.insert("provenance", f.provenance);
    hw.insert(f.name, std::move(t));
  }
  doc.insert("hardware", std::move(hw));
  toml::table all;
  for (const auto& m : p.measurements) all.insert(m.key(), to_toml(m));
  doc.insert("measurements", std::move(all));
  return doc;
}
}  // namespace

Profile read_profile(const std::string& path) {
  std::string text;
  read_regular(path, text, kMaxTomlBytes);  // a regular file, up to 4 MiB
  toml::table doc;
  try {
    doc = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    fail(codes::io, fmt::format("{}:{}:{}: {}", path, at.line, at.column, e.description()));
  }
  Profile p;
  p.device = doc["profile"]["device"].value_or(std::string());
  p.measured_at = doc["profile"]["measured_at"].value_or(std::string());
  const toml::table* hw = doc["hardware"].as_table();
  if (!hw) fail(codes::io, fmt::format("{} has no [hardware] table", path));
  p.hardware_line = hw->source().begin.line;
  for (const auto& [key, node] : *hw) {
    const std::string name(key.str());
    if (!is_identifier(name))
      fail(codes::io, fmt::format("{}: `{}` in [hardware] is not a field name napkin can use", path, name));
    ProfileField f;
    f.name = name;
    f.line = key.source().begin.line;
    f.key_column = key.source().begin.column;
    f.value_column = node.source().begin.line == f.line ? node.source().begin.column : 0;
    if (auto s = node.value<std::string>()) {
      f.is_string = true;
      f.text = *s;
    } else if (auto v = node.value<double>()) {
      f.value = *v;
    } else if (const toml::table* t = node.as_table()) {
      auto v2 = (*t)["value"].value<double>();
      if (!v2) fail(codes::io, fmt::format("{}: hardware.{} has no numeric `value`", path, name));
      f.value = *v2;
      f.unit = (*t)["unit"].value_or(std::string());
      f.provenance = (*t)["provenance"].value_or(std::string());
      if (!is_unit_text(f.unit))
        fail(codes::io, fmt::format("{}: hardware.{} has a unit napkin cannot read: \"{}\"", path, name, f.unit));
    } else {
      fail(codes::io,
           fmt::format("{}: hardware.{} must be a string, a number or a table with value and unit", path, name));
    }
    if (!f.is_string && !std::isfinite(f.value))
      fail(codes::io, fmt::format("{}: hardware.{} is not a finite number", path, name));
    p.fields.push_back(std::move(f));
  }
  if (const toml::table* all = doc["measurements"].as_table())
    for (const auto& [key, node] : *all)
      if (const toml::table* t = node.as_table()) {
        try {
          p.measurements.push_back(from_toml(*t));
        } catch (const Error& e) {
          fail(codes::io, fmt::format("{}: measurements.\"{}\": {}", path, key.str(), e.what()));
        }
      }
  return p;
}

namespace {

// A field's value as napkin source.
std::string value_source(const ProfileField& f) {
  if (f.is_string) return quote(f.text);
  if (f.unit.empty()) return fmt::format("{}", f.value);
  return fmt::format("{} {}", f.value, f.unit);
}

// The source laid out over the file's own lines: `[hardware]`'s line opens
// the record, each field sits on its key's line with its name at the key's
// column and its value at the value's, and the import comes last. Empty
// when the file's layout does not allow it (two fields on a line, a key
// after its value's column, a field above the table).
std::string placed_source(const Profile& p) {
  if (p.hardware_line == 0) return "";
  std::string s;
  unsigned line = 1;
  auto to_line = [&](unsigned n) {
    for (; line < n; ++line) s += '\n';
  };
  to_line(p.hardware_line);
  s += "hardware profile extends gpu {";
  std::vector<const ProfileField*> by_line;
  for (const auto& f : p.fields) by_line.push_back(&f);
  std::sort(by_line.begin(), by_line.end(), [](const ProfileField* a, const ProfileField* b) { return a->line < b->line; });
  for (const ProfileField* fp : by_line) {
    const ProfileField& f = *fp;
    if (f.line <= line || f.key_column == 0 || f.value_column < f.key_column + f.name.size() + 3) return "";
    to_line(f.line);  // s now stands at the start of the field's line
    s += std::string(f.key_column - 1, ' ') + f.name + " =";
    s += std::string(f.value_column - f.key_column - f.name.size() - 2, ' ') + value_source(f);
  }
  return s + "\n}\nimport \"std/hardware\"\n";
}

}  // namespace

std::string profile_source(const Profile& p) {
  if (std::string placed = placed_source(p); !placed.empty()) return placed;
  std::string s = "import \"std/hardware\"\nhardware profile extends gpu {\n";
  for (const auto& f : p.fields) {
    if (f.is_string) s += fmt::format("  {} = {}\n", f.name, quote(f.text));
    else if (f.unit.empty()) s += fmt::format("  {} = {}\n", f.name, f.value);
    else s += fmt::format("  {} = {} {}\n", f.name, f.value, f.unit);
  }
  return s + "}\n";
}

}  // namespace napkin::measure
