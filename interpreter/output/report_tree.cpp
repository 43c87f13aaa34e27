// The report as data: every value with its derivation (formula, numbers,
// result, the inputs it read and the calls it opened), every check with its
// status and both sides, every solve and every error as objects.
#include "report_tree.hpp"

#include "interpreter/core/samples.hpp"
#include "interpreter/derivation/check_failure.hpp"

#include "check_results.hpp"
#include "error_info.hpp"
#include "output.hpp"
#include "solve_output.hpp"
#include "value_json.hpp"

namespace napkin {
namespace {

using json = nlohmann::ordered_json;

// A derivation as data. `inputs`: what its formula read (a call's body,
// opened, has none listed: its arguments are in its label).
json derivation_tree(const Interpreter& in, const Derivation& d, const std::vector<DerivationInput>* inputs) {
  json j = json::object();
  if (!d.written.empty()) j["written"] = text(d.written);
  j["formula"] = text(d.formula);
  j["substituted"] = text(d.substituted);
  j["result"] = text(d.result);
  if (d.input) j["literal"] = true;
  if (!d.origin.empty()) j["origin"] = d.origin;
  if (!d.note.empty()) j["note"] = d.note;
  if (inputs) {
    json list = json::array();
    for (const auto& i : *inputs) {
      json v = json::object();
      v["name"] = i.name;
      v.update(value_json(in, i.value));
      list.push_back(std::move(v));
    }
    j["inputs"] = std::move(list);
  }
  if (!d.calls.empty()) {
    json calls = json::array();
    for (const auto& c : d.calls)
      calls.push_back(json{{"call", c.label}, {"derivation", derivation_tree(in, *c.derivation, nullptr)}});
    j["calls"] = std::move(calls);
  }
  return j;
}

json field_tree(const Interpreter& in, const Report& r, const FieldReport& f) {
  json v = json::object();
  if (!f.ok && f.error) {
    v["error"] = error_json(error_info(*f.error));
    return v;
  }
  if (!f.ok) {
    v["needs"] = f.needs;
    v["declared_at"] = f.declared_at;
    return v;
  }
  switch (f.value.kind) {
    case Value::Kind::Quantity:
      v["si"] = unsigned_zero(is_range(f.value) ? range_summary(f.value).p50 : f.value.q.v);
      v["unit"] = in.units().format(f.value.q.dim);
      if (is_range(f.value)) v["range"] = range_json(f.value);  // a range: its median, and its quantiles beside it
      break;
    case Value::Kind::Bool: v["value"] = f.value.b; break;
    case Value::Kind::String: v["value"] = f.value.str(); break;
    default: v["value"] = in.show(f.value); break;
  }
  // The derivation's lines as text, as they have always been here; then the
  // derivation itself as data.
  v["display"] = text(f.derivation.result);
  if (r.derivations != Derivations::Results) {  // --brief=values: the figures, which no formula was kept for
    v["formula"] = text(f.derivation.formula);
    v["substituted"] = text(f.derivation.substituted);
  }
  if (!f.derivation.note.empty()) v["note"] = f.derivation.note;
  if (r.steps) {  // a solution sheet: the lines it prints, and each call opened
    v["steps"] = derivation_text(f.derivation);
    json calls = json::array();
    for (const auto& c : f.derivation.calls)
      calls.push_back(json{{"call", c.label}, {"steps", derivation_text(*c.derivation)}});
    if (!calls.empty()) v["calls"] = std::move(calls);
  }
  if (r.derivations == Derivations::Trees) v["derivation"] = derivation_tree(in, f.derivation, &f.inputs);
  return v;
}

json check_tree(const Interpreter& in, const CheckResult& c) {
  json j = json::object();
  j["source"] = c.source;
  j["line"] = c.line;
  j["passed"] = c.passed;
  j["status"] = c.passed ? "passed" : "failed";
  if (!c.name.empty()) j["name"] = c.name;
  j["relation"] = c.relation;
  if (!c.relation.empty()) {
    const CheckValues v = check_values(in, c);
    j["actual"] = value_json(in, v.actual, v.digits);
    j["expected"] = value_json(in, v.expected, v.digits);
    if (c.relation == "≈") j["tolerance"] = value_json(in, v.tolerance);
  } else {  // a condition: it holds, or it does not
    j["actual"] = value_json(in, Value::boolean(c.passed));
    j["expected"] = value_json(in, Value::boolean(true));
  }
  if (!c.passed && !c.detail.empty()) j["detail"] = c.detail;
  return j;
}

json errored_check_tree(const ErroredCheck& c) {
  json j = json::object();
  j["source"] = std::string(c.stmt->span.text());
  j["line"] = c.stmt->span.file->line_col(c.stmt->span.begin).first;
  j["passed"] = false;
  j["status"] = "errored";
  if (!c.stmt->check_name.empty()) j["name"] = c.stmt->check_name;
  j["error"] = error_json(error_info(c.error));
  return j;
}

// The value's place and whether it is an input, after what it says.
json placed(json v, const FieldReport& f) {
  if (f.at.valid()) v["at"] = span_tree(f.at);
  v["input"] = f.input;
  return v;
}

}  // namespace

json span_tree(const Span& s) {
  const auto [line, column] = s.file->line_col(s.begin);
  const auto [end_line, end_column] = s.file->line_col(s.end);
  return json{{"file", s.file->name}, {"line", line}, {"column", column}, {"end_line", end_line}, {"end_column", end_column}};
}

json report_tree(const Interpreter& in, const Report& r, bool sweeps, bool places) {
  json doc = json::object();
  json values = json::object();
  for (const auto& s : r.sections)
    for (const auto& f : s.fields) values[f.qualified] = places ? placed(field_tree(in, r, f), f) : field_tree(in, r, f);
  doc["values"] = std::move(values);
  if (sweeps && !r.sweeps.empty()) {
    json list = json::array();
    for (const auto& s : r.sweeps) list.push_back(sweep_tree(in, s));
    doc["sweeps"] = std::move(list);
  }
  // Every check in the file's order: those evaluated, and those that could not be.
  json checks = json::array();
  const auto add = [&](json c, const ast::Stmt* st) {
    if (places && st) c["at"] = span_tree(st->span);
    checks.push_back(std::move(c));
  };
  std::size_t e = 0;
  for (const auto& c : r.checks) {
    for (; e < r.errored_checks.size() && r.errored_checks[e].stmt->span.begin < c.stmt->span.begin; ++e)
      add(errored_check_tree(r.errored_checks[e]), r.errored_checks[e].stmt);
    json t = check_tree(in, c);
    // A failed check's error as the command line prints it (E0500), whole: an editor shows it as it shows any other.
    if (places && !c.passed && c.stmt) t["diagnostic"] = error_json(error_info(check_failure(in, c)));
    add(std::move(t), c.stmt);
  }
  for (; e < r.errored_checks.size(); ++e) add(errored_check_tree(r.errored_checks[e]), r.errored_checks[e].stmt);
  doc["checks"] = std::move(checks);
  // Every error the run met, each once, a solve's that found nothing last
  // (a file without errors has no "errors" key).
  json errors = json::array();
  for (const auto& d : r.errors) errors.push_back(error_json(error_info(d)));
  for (const auto& s : r.solves)
    if (s.error) errors.push_back(error_json(error_info(*s.error)));
  if (!errors.empty()) doc["errors"] = std::move(errors);
  if (!r.solves.empty()) {
    json solves = json::array();
    for (const auto& s : r.solves) {
      solves.push_back(solve_tree(in, s, true));
      if (places && s.at.valid()) solves.back()["at"] = span_tree(s.at);
    }
    doc["solves"] = std::move(solves);
  }
  if (places) {  // each record's whole statement: a value it has that the file does not write shows at its end
    json records = json::array();
    for (const auto& s : r.sections)
      if (s.kind != SectionKind::lets && s.at.valid()) records.push_back(json{{"name", s.name}, {"kind", s.keyword}, {"at", span_tree(s.at)}});
    doc["records"] = std::move(records);
  }
  return doc;
}

json unloaded_report_tree(const Diagnostic& d) {
  json doc = json::object();
  doc["values"] = json::object();
  doc["checks"] = json::array();
  doc["errors"] = json::array({error_json(error_info(d))});
  return doc;
}

json explain_tree(const ExplainNode& n, bool places) {
  json j = json::object();
  j["label"] = n.label;
  j["display"] = text(n.derivation.result);
  j["formula"] = text(n.derivation.formula);
  j["substituted"] = text(n.derivation.substituted);
  if (!n.flat.empty()) j["flat"] = text(n.flat);
  if (!n.derivation.origin.empty()) j["source"] = n.derivation.origin;
  // `source`'s place as fields, so that a page links it without reading the text.
  if (places && n.derivation.origin_at.valid())
    j["at"] = json{{"file", n.derivation.origin_at.file->name},
                   {"line", n.derivation.origin_at.file->line_col(n.derivation.origin_at.begin).first}};
  if (places && n.derivation.input) j["literal"] = true;  // nothing to derive: the text shows only its value
  if (!n.derivation.note.empty()) j["note"] = n.derivation.note;
  if (n.repeated) j["repeated"] = true;
  if (n.truncated) j["truncated"] = true;
  if (!n.children.empty()) {
    json children = json::array();
    for (const auto& c : n.children) children.push_back(explain_tree(c, places));
    j["children"] = std::move(children);
  }
  return j;
}

}  // namespace napkin
