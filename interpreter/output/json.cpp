#include <nlohmann/json.hpp>

#include "interpreter/core/samples.hpp"

#include "error_info.hpp"
#include "output.hpp"

namespace napkin {

namespace {

// `j` as dump(2) writes it nested `depth` levels deep: every line after the
// first indented by two spaces a level (a string holds no raw newline).
std::string nested(const nlohmann::ordered_json& j, int depth) {
  const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string indent(2 * static_cast<std::size_t>(depth), ' ');
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

// A range's quantiles, in SI units, and how many samples it holds.
nlohmann::ordered_json range_json(const Value& v) {
  const RangeSummary& q = range_summary(v);
  nlohmann::ordered_json range = nlohmann::ordered_json::object();
  range["p5"] = q.p5;
  range["p50"] = q.p50;
  range["p95"] = q.p95;
  range["mean"] = q.mean;
  range["sd"] = q.sd;
  range["samples"] = v.samples->v.size();
  return range;
}

}  // namespace

// The sweeps as dump(2) writes the array at `depth`, one row at a time, so
// that no JSON tree of every row is held.
std::string sweeps_json_at(const Interpreter& in, const std::vector<SweepResult>& sweeps, int depth);

std::string report_json(const Interpreter& in, const Report& r) {
  using json = nlohmann::ordered_json;
  json values = json::object();
  for (const auto& s : r.sections)
    for (const auto& f : s.fields) {
      json v = json::object();
      if (!f.ok && f.diagnostic) {
        v["error"] = error_json(error_info(*f.diagnostic));
      } else if (!f.ok && !f.error.empty()) {
        v["error"] = f.error;
      } else if (!f.ok) {
        v["needs"] = f.needs;
        v["declared_at"] = f.declared_at;
      } else {
        switch (f.value.kind) {
          case Value::Kind::Quantity:
            if (is_range(f.value)) {  // a range: its median, and its quantiles beside it
              v["si"] = unsigned_zero(range_summary(f.value).p50);
              v["unit"] = in.units().format(f.value.q.dim);
              v["range"] = range_json(f.value);
              break;
            }
            v["si"] = unsigned_zero(f.value.q.v);
            v["unit"] = in.units().format(f.value.q.dim);
            break;
          case Value::Kind::Bool: v["value"] = f.value.b; break;
          case Value::Kind::String: v["value"] = f.value.str(); break;
          default: v["value"] = in.show(f.value); break;
        }
        v["display"] = text(f.derivation.result);
        v["formula"] = text(f.derivation.formula);
        v["substituted"] = text(f.derivation.substituted);
        if (!f.derivation.note.empty()) v["note"] = f.derivation.note;
        if (r.steps) {  // a solution sheet: the lines it prints, and each call opened
          v["steps"] = derivation_text(f.derivation);
          json calls = json::array();
          for (const auto& c : f.derivation.calls)
            calls.push_back(json{{"call", c.label}, {"steps", derivation_text(*c.derivation)}});
          if (!calls.empty()) v["calls"] = std::move(calls);
        }
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
  // Every error the report met, each once, as data (a file without errors
  // has no "errors" key).
  json errors = json::array();
  for (const auto& d : r.errors) errors.push_back(error_json(error_info(d)));
  // The object `{values, sweeps, checks, errors}` as dump(2) writes it, with
  // the sweeps written row by row (sweeps_json_at).
  std::string out = "{\n  \"values\": " + nested(values, 1);
  if (!r.sweeps.empty()) out += ",\n  \"sweeps\": " + sweeps_json_at(in, r.sweeps, 1);
  out += ",\n  \"checks\": " + nested(checks, 1);
  if (!errors.empty()) out += ",\n  \"errors\": " + nested(errors, 1);
  return out + "\n}\n";
}

std::string unloaded_report_json(const Diagnostic& d) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  doc["values"] = nlohmann::ordered_json::object();
  doc["checks"] = nlohmann::ordered_json::array();
  doc["errors"] = nlohmann::ordered_json::array({error_json(error_info(d))});
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string with_json_array(const std::string& json_text, const std::string& key, const std::vector<std::string>& items) {
  // report_json's documents end "\n}\n"; the array goes before that brace,
  // as dump(2) would lay it out, without reading the document back (its
  // sweeps may be a hundred thousand rows).
  const std::size_t close = json_text.rfind("\n}");
  if (close == std::string::npos) return json_text;
  std::string out = json_text.substr(0, close) + ",\n  " + nlohmann::ordered_json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ": [";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? ",\n    " : "\n    ") + nested(nlohmann::ordered_json::parse(items[i]), 2);
  return out + (items.empty() ? "]" : "\n  ]") + "\n}\n";
}

std::string sweeps_json_at(const Interpreter& in, const std::vector<SweepResult>& sweeps, int depth) {
  using json = nlohmann::ordered_json;
  if (sweeps.empty()) return "[]";
  const std::string in1(2 * (depth + 1), ' '), in2(2 * (depth + 2), ' '), in3(2 * (depth + 3), ' ');
  std::string out = "[\n";
  for (std::size_t k = 0; k < sweeps.size(); ++k) {
    const SweepResult& s = sweeps[k];
    limit_sweep_points(s, kMaxJsonSweepPoints, "JSON");
    out += in1 + "{\n";
    out += in2 + "\"sweep\": " + json(s.title()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ",\n";
    out += in2 + "\"target\": " + json(s.target).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ",\n";
    out += in2 + "\"inputs\": " + nested(json(s.inputs), depth + 2) + ",\n";
    out += in2 + "\"columns\": " + nested(json(s.columns), depth + 2) + ",\n";
    out += in2 + "\"rows\": ";
    if (s.row_count() == 0) out += "[]";
    else out += "[\n";
    std::vector<SweepColumn::Reader> read;
    for (const auto& col : s.table) read.emplace_back(col);
    for (std::size_t row = 0; row < s.row_count(); ++row) {
      json r = json::object();
      for (std::size_t i = 0; i < s.width(); ++i) {
        const std::string& name = i < s.inputs.size() ? s.inputs[i] : s.columns[i - s.inputs.size()];
        json c = json::object();
        const SweepCell& cell = read[i](row);
        if (!cell.ok && cell.needs.empty()) {
          c["error"] = std::string(code_text(cell.error));  // the point failed: its error is reported with it
        } else if (!cell.ok) {
          c["needs"] = cell.needs;
        } else if (cell.value.kind == Value::Kind::Quantity) {
          c["si"] = unsigned_zero(is_range(cell.value) ? range_summary(cell.value).p50 : cell.value.q.v);
          c["unit"] = in.units().format(cell.value.q.dim);
          c["display"] = in.show(cell.value);
          if (is_range(cell.value)) c["range"] = range_json(cell.value);
        } else if (cell.value.kind == Value::Kind::Bool) {
          c["value"] = cell.value.b;
        } else if (cell.value.kind == Value::Kind::String) {
          c["value"] = cell.value.str();
        } else {
          c["value"] = in.show(cell.value);
        }
        r[name] = std::move(c);
      }
      out += in3 + nested(r, depth + 3) + (row + 1 < s.row_count() ? ",\n" : "\n" + in2 + "]");
    }
    out += "\n" + in1 + "}" + (k + 1 < sweeps.size() ? ",\n" : "\n");
  }
  return out + std::string(2 * depth, ' ') + "]";
}

}  // namespace napkin

namespace napkin {

std::string sweeps_json_text(const Interpreter& in, const std::vector<SweepResult>& sweeps) {
  return "{\n  \"sweeps\": " + sweeps_json_at(in, sweeps, 1) + "\n}\n";
}

}  // namespace napkin
