// `--format toml`: the JSON output's content, written by toml++. The JSON is
// built once and converted, so the two formats cannot drift apart.
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <sstream>

#include "output.hpp"

namespace napkin {
namespace {

using json = nlohmann::ordered_json;

toml::table to_table(const json& j);

toml::array to_array(const json& j) {
  toml::array a;
  for (const auto& v : j) {
    if (v.is_object()) a.push_back(to_table(v));
    else if (v.is_array()) a.push_back(to_array(v));
    else if (v.is_boolean()) a.push_back(v.get<bool>());
    else if (v.is_number_integer()) a.push_back(v.get<std::int64_t>());
    else if (v.is_number()) a.push_back(v.get<double>());
    else if (v.is_string()) a.push_back(v.get<std::string>());
  }
  return a;
}

// TOML has no null: a null value is left out.
toml::table to_table(const json& j) {
  toml::table t;
  for (const auto& [k, v] : j.items()) {
    if (v.is_object()) t.insert(k, to_table(v));
    else if (v.is_array()) t.insert(k, to_array(v));
    else if (v.is_boolean()) t.insert(k, v.get<bool>());
    else if (v.is_number_integer()) t.insert(k, v.get<std::int64_t>());
    else if (v.is_number()) t.insert(k, v.get<double>());
    else if (v.is_string()) t.insert(k, v.get<std::string>());
  }
  return t;
}

}  // namespace

std::string toml_from_json(const std::string& json_text) {
  std::ostringstream out;
  out << toml::toml_formatter{to_table(json::parse(json_text))} << "\n";
  return out.str();
}

std::string report_toml_json(const Interpreter& in, const Report& r) {
  for (const auto& sw : r.sweeps) limit_sweep_points(sw, kMaxTomlSweepPoints, "TOML");
  return report_json(in, r);
}

std::string report_toml(const Interpreter& in, const Report& r) { return toml_from_json(report_toml_json(in, r)); }

std::string explain_toml(const ExplainNode& root) { return toml_from_json(explain_json(root)); }

}  // namespace napkin
