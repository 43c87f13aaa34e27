#include "sensitivity_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include <nlohmann/json.hpp>

#include "grammar/text_width.hpp"
#include "interpreter/derivation/explain.hpp"
#include "value_json.hpp"

namespace napkin {

using json = nlohmann::ordered_json;

std::string elasticity_text(const SensitivityInput& i) {
  if (!i.ok) return "-";
  if (i.exact && i.elasticity == 0) return "0 (exact)";
  if (i.exact) return fmt::format("{:+d} (exact)", static_cast<int>(i.elasticity));
  if (!i.arc.empty()) return fmt::format("{:+.4f} ({})", i.elasticity, i.arc);
  return fmt::format("{:+.4f}", i.elasticity);
}

// What was left out of the ranking, in a line or two: the inputs set in the
// library, those --except names. Inputs read only by conditions are not
// mentioned: the value does not change with them where it is taken.
static std::string unranked_text(const SensitivityResult& r) {
  std::vector<std::string> outside, excepted;  // the modules that set them; the names left out
  std::size_t outside_count = 0;
  for (const auto& u : r.unranked) {
    if (u.why == "left out (--except)") {
      excepted.push_back(u.path);
    } else if (u.why == "set outside the file") {
      ++outside_count;
      const std::string where = u.where_set.substr(0, u.where_set.rfind(':'));
      if (std::find(outside.begin(), outside.end(), where) == outside.end()) outside.push_back(where);
    }
  }
  std::sort(outside.begin(), outside.end());
  std::string out;
  if (r.inputs.empty())
    out += !excepted.empty()  ? "  nothing ranked: --except leaves out every input chosen\n"
           : r.file.empty()   ? "  nothing ranked: the value depends on no input\n"
                              : fmt::format("  nothing ranked: {} sets none of the inputs this value depends on\n", r.file);
  if (outside_count > 0) {
    std::string from;
    for (const auto& w : outside) from += (from.empty() ? "" : ", ") + w;
    out += fmt::format("\n  not ranked: {} input{} set in {}\n  (--all-inputs ranks every input, --vary NAME,... the ones named)\n",
                       outside_count, outside_count == 1 ? "" : "s", from);
  }
  if (!excepted.empty()) {
    std::string which;
    for (const auto& w : excepted) which += (which.empty() ? "" : ", ") + w;
    out += fmt::format("{}  left out (--except): {}\n", outside_count > 0 || r.inputs.empty() ? "" : "\n", which);
  }
  return out;
}

std::string sensitivity_text(Interpreter& in, const SensitivityResult& r) {
  std::string out = fmt::format("{} = {}\n", r.name, in.show(r.value));
  out += "elasticity: the % change of the value per 1% change of the input (d ln y / d ln x)\n";
  if (r.has_ranges)
    out += "variance: the share of the value's variance that goes when the range is fixed at its median\n";
  out += "\n";
  const std::size_t cols = r.has_ranges ? 5 : 4;
  std::vector<std::array<std::string, 5>> rows;
  if (r.has_ranges)
    rows.push_back({"input", "value", "elasticity", "variance", "set at"});
  else
    rows.push_back({"input", "value", "elasticity", "set at", ""});
  // Inputs without an elasticity, grouped by why: "the input is zero: a, b".
  std::vector<std::pair<std::string, std::string>> notes;
  for (const auto& i : r.inputs) {
    if (r.has_ranges)
      rows.push_back({i.path, in.show(i.value), elasticity_text(i),
                      i.has_share ? format_number(i.variance_share * 100, 3) + "%" : "-", i.where_set});
    else
      rows.push_back({i.path, in.show(i.value), elasticity_text(i), i.where_set, ""});
    if (i.ok || i.note.empty()) continue;
    auto n = std::find_if(notes.begin(), notes.end(), [&](const auto& p) { return p.first == i.note; });
    if (n == notes.end()) notes.emplace_back(i.note, i.path);
    else n->second += ", " + i.path;
  }
  std::array<std::size_t, 5> w{};
  for (const auto& row : rows)
    for (std::size_t c = 0; c < cols; ++c) w[c] = std::max(w[c], code_points(row[c]));
  if (r.inputs.empty()) rows.clear();  // nothing ranked: no table; the lines below say why
  for (const auto& row : rows) {
    std::string line = "  ";
    for (std::size_t c = 0; c + 1 < cols; ++c) line += pad_right(row[c], w[c]) + "  ";
    line += row[cols - 1];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (!notes.empty()) {
    out += "\n";
    for (const auto& [why, which] : notes) out += fmt::format("  {}: {}\n", which, why);
  }
  out += unranked_text(r);
  return out;
}

std::string sensitivity_json(Interpreter& in, const SensitivityResult& r) {
  json j;
  j["name"] = r.name;
  j["value"] = value_json(in, r.value);
  j["method"] = fmt::format("exact where y(2x) = 2^k y(x) and y(x/2) = 2^-k y(x); else ln(y(x(1+h))/y(x/(1+h)))/(2 ln(1+h)), h = {}",
                            kSensitivityStep);
  j["inputs"] = json::array();
  for (const auto& i : r.inputs) {
    json e;
    e["input"] = i.path;
    e["field"] = i.label;
    e["value"] = value_json(in, i.value);
    e["elasticity"] = i.ok ? json(i.elasticity) : json(nullptr);
    e["exact"] = i.exact;
    if (!i.arc.empty()) e["arc"] = i.arc;
    if (i.range) e["variance_share"] = i.has_share ? json(i.variance_share) : json(nullptr);
    e["set_at"] = i.where_set;
    if (!i.note.empty()) e["note"] = i.note;
    j["inputs"].push_back(std::move(e));
  }
  j["ranked"] = r.ranked;
  j["not_ranked"] = json::array();
  for (const auto& u : r.unranked)
    j["not_ranked"].push_back({{"input", u.path}, {"field", u.label}, {"set_at", u.where_set}, {"why", u.why}});
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace napkin
