#include <nlohmann/json.hpp>

#include "output.hpp"

namespace napkin {

std::string report_json(const Interpreter& in, const Report& r) {
  using json = nlohmann::ordered_json;
  json values = json::object();
  for (const auto& s : r.sections)
    for (const auto& f : s.fields) {
      json v = json::object();
      if (!f.ok) {
        v["needs"] = f.needs;
        v["declared_at"] = f.declared_at;
      } else {
        switch (f.value.kind) {
          case Value::Kind::Quantity:
            v["si"] = f.value.q.v;
            v["unit"] = in.units().format(f.value.q.dim);
            break;
          case Value::Kind::Bool: v["value"] = f.value.b; break;
          case Value::Kind::String: v["value"] = *f.value.s; break;
          default: v["value"] = in.show(f.value); break;
        }
        v["display"] = f.derivation.result;
        v["formula"] = f.derivation.formula;
        v["substituted"] = f.derivation.substituted;
        if (!f.derivation.note.empty()) v["note"] = f.derivation.note;
      }
      values[f.qualified] = std::move(v);
    }
  json checks = json::array();
  for (const auto& c : r.checks) {
    json j = json::object();
    j["source"] = c.source;
    j["line"] = c.line;
    j["passed"] = c.passed;
    checks.push_back(std::move(j));
  }
  json out = json::object();
  out["values"] = std::move(values);
  out["checks"] = std::move(checks);
  return out.dump(2) + "\n";
}

}  // namespace napkin
