#include <nlohmann/json.hpp>

#include "output.hpp"

namespace napkin {

nlohmann::ordered_json sweeps_json(const Interpreter& in, const std::vector<SweepResult>& sweeps);

std::string report_json(const Interpreter& in, const Report& r) {
  using json = nlohmann::ordered_json;
  json values = json::object();
  for (const auto& s : r.sections)
    for (const auto& f : s.fields) {
      json v = json::object();
      if (!f.ok && !f.error.empty()) {
        v["error"] = f.error;
      } else if (!f.ok) {
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
  if (!r.sweeps.empty()) out["sweeps"] = sweeps_json(in, r.sweeps);
  out["checks"] = std::move(checks);
  return out.dump(2) + "\n";
}

nlohmann::ordered_json sweeps_json(const Interpreter& in, const std::vector<SweepResult>& sweeps) {
  using json = nlohmann::ordered_json;
  json all = json::array();
  for (const auto& s : sweeps) {
    json j = json::object();
    j["sweep"] = s.title();
    j["target"] = s.target;
    j["inputs"] = s.inputs;
    j["columns"] = s.columns;
    json rows = json::array();
    std::vector<SweepColumn::Reader> read;
    for (const auto& col : s.table) read.emplace_back(col);
    for (std::size_t row = 0; row < s.row_count(); ++row) {
      json r = json::object();
      for (std::size_t i = 0; i < s.width(); ++i) {
        const std::string& name = i < s.inputs.size() ? s.inputs[i] : s.columns[i - s.inputs.size()];
        json c = json::object();
        const SweepCell& cell = read[i](row);
        if (!cell.ok) {
          c["needs"] = cell.needs;
        } else if (cell.value.kind == Value::Kind::Quantity) {
          c["si"] = cell.value.q.v;
          c["unit"] = in.units().format(cell.value.q.dim);
          c["display"] = in.show(cell.value);
        } else if (cell.value.kind == Value::Kind::Bool) {
          c["value"] = cell.value.b;
        } else if (cell.value.kind == Value::Kind::String) {
          c["value"] = *cell.value.s;
        } else {
          c["value"] = in.show(cell.value);
        }
        r[name] = std::move(c);
      }
      rows.push_back(std::move(r));
    }
    j["rows"] = std::move(rows);
    all.push_back(std::move(j));
  }
  return all;
}

}  // namespace napkin

namespace napkin {

std::string sweeps_json_text(const Interpreter& in, const std::vector<SweepResult>& sweeps) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  out["sweeps"] = sweeps_json(in, sweeps);
  return out.dump(2) + "\n";
}

}  // namespace napkin
