#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <nlohmann/json.hpp>

#include "diff.hpp"
#include "grammar/text_width.hpp"
#include "interpreter/output/error_info.hpp"
#include "interpreter/output/escape.hpp"

namespace napkin {
namespace {

// Rows of `name  value  note`, in columns.
std::string table(const std::vector<std::array<std::string, 3>>& rows) {
  int w0 = 0, w1 = 0;
  for (const auto& r : rows) {
    w0 = std::max(w0, display_width(r[0]));
    if (!r[2].empty()) w1 = std::max(w1, display_width(r[1]));
  }
  std::string out;
  for (const auto& r : rows) out += "  " + pad_right(r[0], w0) + "  " + (r[2].empty() ? r[1] : pad_right(r[1], w1) + "  " + r[2]) + "\n";
  return out;
}

const char* check_state(int s) { return s < 0 ? "absent" : s ? "passed" : "failed"; }

std::string md_cell(const std::string& s) { return markdown_cell(s); }

// A code span in a table cell: fenced past any backtick inside, its `|` escaped.
std::string md_code(const std::string& s) { return markdown_cell(markdown_code(s)); }

// A value in a table cell: a number or a truth value as shown; a string or
// another value that can hold the file's text, escaped as Markdown text.
std::string md_value(const DiffSide& s) {
  const bool text = s.ok && s.value.kind != Value::Kind::Quantity && s.value.kind != Value::Kind::Bool;
  return markdown_cell(text ? markdown_text(s.shown) : s.shown);
}

// "; actual 1,833 → 1,790 token/s": what moved in a check that still fails.
std::string check_moves(const CheckDiff& c) {
  if (!c.moved) return "";
  std::string t;
  auto add = [&](const char* what, const DiffSide& b, const DiffSide& a) {
    if (b.shown != a.shown) t += fmt::format("; {} {} → {}", what, b.shown, a.shown);
  };
  add("actual", c.actual_before, c.actual_after);
  add("expected", c.expected_before, c.expected_after);
  return t;
}

// "  (also a, b)": the rows folded into this one.
std::string also(const DiffEntry& e) {
  std::string t;
  for (const auto& n : e.same_as) t += (t.empty() ? "" : ", ") + n;
  return t.empty() ? "" : "  (also " + t + ")";
}

}  // namespace

std::string values_text(const DiffEntry& e) {
  std::string t = e.before_text + " → " + e.after_text;
  return e.unit.empty() ? t : t + " " + e.unit;
}

std::string diff_text(const Diff& d) {
  std::vector<std::string> parts;
  if (!d.inputs.empty()) {
    std::vector<std::array<std::string, 3>> rows;
    for (const auto& e : d.inputs) {
      rows.push_back({e.name, e.before_text + " → " + e.after_text, ""});
      for (const auto& f : e.figures) rows.push_back({"  " + f.name, values_text(f), change_text(f)});
    }
    parts.push_back("inputs changed\n" + table(rows));
  }
  if (!d.moved.empty() || d.hidden) {
    std::vector<std::array<std::string, 3>> rows;
    for (const auto& e : d.moved) rows.push_back({e.name, values_text(e), change_text(e) + also(e)});
    std::string t = fmt::format("values moved ({}), largest change first\n", d.moved.size()) + table(rows);
    if (d.hidden) t += fmt::format("  ({} smaller {} hidden by --threshold)\n", d.hidden, d.hidden == 1 ? "move" : "moves");
    parts.push_back(std::move(t));
  }
  for (const auto* list : {&d.appeared, &d.disappeared}) {
    if (list->empty()) continue;
    std::vector<std::array<std::string, 3>> rows;
    for (const auto& e : *list) rows.push_back({e.name, "= " + (list == &d.appeared ? e.after : e.before).shown, ""});
    parts.push_back((list == &d.appeared ? "appeared\n" : "disappeared\n") + table(rows));
  }
  if (!d.checks.empty()) {
    std::string t = "checks\n";
    for (const auto& c : d.checks)
      t += fmt::format("  {} {}  ({} before{})\n", c.after == 1 ? "✓" : "✗", c.source, check_state(c.before), check_moves(c));
    parts.push_back(std::move(t));
  }
  if (!d.values_moved()) parts.push_back(d.hidden ? "no value moved past the threshold\n" : "no value moved\n");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "\n" : "") + parts[i];
  return out;
}

std::string diff_markdown(const Diff& d) {
  std::string out;
  if (!d.inputs.empty()) {
    out += "**Inputs changed**\n\n| input | before | after |\n| --- | --- | --- |\n";
    for (const auto& e : d.inputs) {
      out += fmt::format("| {} | {} | {} |\n", md_code(e.name), md_code(e.before_text), md_code(e.after_text));
      for (const auto& f : e.figures)  // what moved with the record: its figures the file read
        out += fmt::format("| {} | {} | {} |\n", md_code(f.name), md_value(f.before), md_value(f.after));
    }
    out += "\n";
  }
  if (!d.moved.empty()) {
    out += "**Values moved**, largest change first\n\n| value | before | after | change |\n| --- | ---: | ---: | ---: |\n";
    for (const auto& e : d.moved)
      out += fmt::format("| {} | {} | {} | {} |\n", md_code(e.name), md_value(e.before), md_value(e.after),
                         change_text(e) + md_cell(also(e)));
    out += "\n";
  }
  if (d.hidden) out += fmt::format("{} smaller {} hidden by the threshold.\n\n", d.hidden, d.hidden == 1 ? "move" : "moves");
  for (const auto* list : {&d.appeared, &d.disappeared}) {
    if (list->empty()) continue;
    out += list == &d.appeared ? "**Appeared**\n\n| value | now |\n" : "**Disappeared**\n\n| value | was |\n";
    out += "| --- | ---: |\n";
    for (const auto& e : *list)
      out += fmt::format("| {} | {} |\n", md_code(e.name), md_value(list == &d.appeared ? e.after : e.before));
    out += "\n";
  }
  if (!d.checks.empty()) {
    out += "**Checks**\n\n";
    for (const auto& c : d.checks)
      out += fmt::format("- {} {} ({} before{})\n", c.after == 1 ? "✓" : "✗", md_code(c.source), check_state(c.before),
                         markdown_text(check_moves(c)));
    out += "\n";
  }
  if (!d.values_moved()) out += "No value moved.\n\n";
  out.pop_back();
  return out;
}

std::string diff_json(const Diff& d) {
  using json = nlohmann::ordered_json;
  auto side = [](const DiffSide& s) {
    json j = json::object();
    if (!s.ok && s.error) {
      j["error"] = error_json(error_info(*s.error));
      return j;
    }
    if (!s.ok) {
      j["needs"] = s.needs;
      return j;
    }
    j["display"] = s.shown;
    switch (s.value.kind) {
      case Value::Kind::Quantity:
        j["si"] = unsigned_zero(s.value.q.v);
        j["unit"] = s.si_unit;
        break;
      case Value::Kind::Bool: j["value"] = s.value.b; break;
      case Value::Kind::String: j["value"] = s.value.str(); break;
      default: break;
    }
    return j;
  };
  json out = json::object();
  json inputs = json::array();
  for (const auto& e : d.inputs) {
    json j = {{"name", e.name}, {"before", e.before_text}, {"after", e.after_text}};
    if (!e.figures.empty()) {
      json figures = json::array();
      for (const auto& f : e.figures) {
        json fj = {{"name", f.name}, {"before", f.before.present ? side(f.before) : json(nullptr)},
                   {"after", f.after.present ? side(f.after) : json(nullptr)}};
        fj["change"] = f.numeric && std::isfinite(f.change) ? json(f.change) : json(nullptr);
        figures.push_back(std::move(fj));
      }
      j["figures"] = std::move(figures);
    }
    inputs.push_back(std::move(j));
  }
  out["inputs"] = std::move(inputs);
  json moved = json::array();
  for (const auto& e : d.moved) {
    json j = {{"name", e.name}, {"before", side(e.before)}, {"after", side(e.after)}};
    j["change"] = e.numeric && std::isfinite(e.change) ? json(e.change) : json(nullptr);
    if (!e.same_as.empty()) j["same_as"] = e.same_as;
    moved.push_back(std::move(j));
  }
  out["moved"] = std::move(moved);
  out["hidden"] = d.hidden;
  json appeared = json::array(), disappeared = json::array();
  for (const auto& e : d.appeared) appeared.push_back({{"name", e.name}, {"after", side(e.after)}});
  for (const auto& e : d.disappeared) disappeared.push_back({{"name", e.name}, {"before", side(e.before)}});
  out["appeared"] = std::move(appeared);
  out["disappeared"] = std::move(disappeared);
  json checks = json::array();
  for (const auto& c : d.checks) {
    json j = {{"source", c.source}, {"before", check_state(c.before)}, {"after", check_state(c.after)}};
    // Both sides of the comparison in each version it is in.
    for (auto [key, b, a] : {std::tuple{"actual", &c.actual_before, &c.actual_after},
                             std::tuple{"expected", &c.expected_before, &c.expected_after}}) {
      if (!b->present && !a->present) continue;
      json both = json::object();
      if (b->present) both["before"] = side(*b);
      if (a->present) both["after"] = side(*a);
      j[key] = std::move(both);
    }
    j["moved"] = c.moved;
    checks.push_back(std::move(j));
  }
  out["checks"] = std::move(checks);
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace napkin
