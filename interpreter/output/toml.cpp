// `--format toml`: the JSON output's content, written by toml++. Both are
// made from one data tree (report_tree.hpp), converted here table by table,
// so the two formats cannot drift apart and neither is parsed back.
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <sstream>

#include "output.hpp"
#include "report_tree.hpp"

namespace napkin {
namespace {

using json = nlohmann::ordered_json;

// TOML holds UTF-8 only: a byte that does not begin or continue a valid
// sequence (a file named in another encoding) is U+FFFD, as JSON's writer
// replaces it.
std::string utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size() && !(n == 2 && b < 0xC2) && !(n == 4 && b > 0xF4);
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
    if (ok && n == 3) {  // no overlong form, no surrogate
      const auto c = static_cast<unsigned char>(s[i + 1]);
      ok = !(b == 0xE0 && c < 0xA0) && !(b == 0xED && c >= 0xA0);
    }
    if (ok && n == 4) {
      const auto c = static_cast<unsigned char>(s[i + 1]);
      ok = !(b == 0xF0 && c < 0x90) && !(b == 0xF4 && c >= 0x90);
    }
    if (ok) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\uFFFD";
      ++i;
    }
  }
  return out;
}

toml::table to_table(const json& j);

toml::array to_array(const json& j) {
  toml::array a;
  for (const auto& v : j) {
    if (v.is_object()) a.push_back(to_table(v));
    else if (v.is_array()) a.push_back(to_array(v));
    else if (v.is_boolean()) a.push_back(v.get<bool>());
    else if (v.is_number_integer()) a.push_back(v.get<std::int64_t>());
    else if (v.is_number()) a.push_back(v.get<double>());
    else if (v.is_string()) a.push_back(utf8(v.get<std::string>()));
  }
  return a;
}

// TOML has no null: a null value is left out.
toml::table to_table(const json& j) {
  toml::table t;
  for (const auto& [key, v] : j.items()) {
    const std::string k = utf8(key);
    if (v.is_object()) t.insert(k, to_table(v));
    else if (v.is_array()) t.insert(k, to_array(v));
    else if (v.is_boolean()) t.insert(k, v.get<bool>());
    else if (v.is_number_integer()) t.insert(k, v.get<std::int64_t>());
    else if (v.is_number()) t.insert(k, v.get<double>());
    else if (v.is_string()) t.insert(k, utf8(v.get<std::string>()));
  }
  return t;
}

}  // namespace

std::string toml_document(const json& tree) {
  std::ostringstream out;
  out << toml::toml_formatter{to_table(tree)} << "\n";
  return out.str();
}

std::string report_toml(const Interpreter& in, const Report& r) {
  for (const auto& sw : r.sweeps) limit_sweep_points(sw, kMaxTomlSweepPoints, "TOML");
  return toml_document(report_tree(in, r, true));
}

std::string unloaded_report_toml(const Diagnostic& d) { return toml_document(unloaded_report_tree(d)); }

std::string explain_toml(const ExplainNode& root) { return toml_document(explain_tree(root)); }

}  // namespace napkin
