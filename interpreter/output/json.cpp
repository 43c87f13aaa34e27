#include <nlohmann/json.hpp>

#include "interpreter/core/samples.hpp"

#include "error_info.hpp"
#include "output.hpp"
#include "report_tree.hpp"
#include "value_json.hpp"

namespace napkin {

namespace {

std::string dump_key(const std::string& key) {
  return nlohmann::ordered_json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

// `j` as dump(2) writes it nested `depth` levels deep: every line after the
// first indented by two spaces a level (a string holds no raw newline).
std::string nested_json(const nlohmann::ordered_json& j, int depth) {
  const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string indent(2 * static_cast<std::size_t>(depth), ' ');
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
    out.append(text, from, nl + 1 - from).append(indent);
  return out.append(text, from);
}

std::string json_document(const nlohmann::ordered_json& tree, const std::string& sweeps) {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : tree.items()) {
    out += (first ? "\n  " : ",\n  ") + dump_key(key) + ": " + nested_json(value, 1);
    first = false;
    if (key == "values" && !sweeps.empty()) out += ",\n  \"sweeps\": " + sweeps;
  }
  return out + "\n}\n";
}

// The sweeps as dump(2) writes the array at `depth`, one row at a time, so
// that no JSON tree of every row is held.
std::string sweeps_json_at(const Interpreter& in, const std::vector<SweepResult>& sweeps, int depth);

std::string report_json(const Interpreter& in, const Report& r) {
  return json_document(report_tree(in, r, false, /*places=*/true), r.sweeps.empty() ? "" : sweeps_json_at(in, r.sweeps, 1));
}

std::string unloaded_report_json(const Diagnostic& d) { return json_document(unloaded_report_tree(d)); }

std::string failed_json(const Diagnostic& d) {
  return json_document(nlohmann::ordered_json{{"errors", nlohmann::ordered_json::array({error_json(error_info(d))})}});
}

std::string explain_json(const ExplainNode& root) {
  return explain_tree(root, /*places=*/true).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

nlohmann::ordered_json sweep_row_tree(const Interpreter& in, const SweepResult& s,
                                      std::vector<SweepColumn::Reader>& read, std::size_t row) {
  using json = nlohmann::ordered_json;
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
  return r;
}

nlohmann::ordered_json sweep_tree(const Interpreter& in, const SweepResult& s) {
  using json = nlohmann::ordered_json;
  json j = json::object();
  j["sweep"] = s.title();
  j["target"] = s.target;
  j["inputs"] = s.inputs;
  j["columns"] = s.columns;
  json rows = json::array();
  std::vector<SweepColumn::Reader> read;
  for (const auto& col : s.table) read.emplace_back(col);
  for (std::size_t row = 0; row < s.row_count(); ++row) rows.push_back(sweep_row_tree(in, s, read, row));
  j["rows"] = std::move(rows);
  return j;
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
    out += in2 + "\"inputs\": " + nested_json(json(s.inputs), depth + 2) + ",\n";
    out += in2 + "\"columns\": " + nested_json(json(s.columns), depth + 2) + ",\n";
    out += in2 + "\"rows\": ";
    if (s.row_count() == 0) out += "[]";
    else out += "[\n";
    std::vector<SweepColumn::Reader> read;
    for (const auto& col : s.table) read.emplace_back(col);
    for (std::size_t row = 0; row < s.row_count(); ++row) {
      const json r = sweep_row_tree(in, s, read, row);
      out += in3 + nested_json(r, depth + 3) + (row + 1 < s.row_count() ? ",\n" : "\n" + in2 + "]");
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
