// What a `solve` statement found, in every format: `napkin solve` prints
// one, and each format of `napkin run` renders the report's (Report::solves)
// after everything else.
#include "solve_output.hpp"

#include <fmt/format.h>

#include "error_info.hpp"
#include "value_json.hpp"

namespace napkin {
namespace {

using json = nlohmann::ordered_json;

std::string goal_text(const SolveReport& s) {
  if (s.goal != SolveGoal::Equal) return fmt::format("{} where {}", solve_goal_name(s.goal), s.condition);
  return "where " + s.condition;
}

// What the condition was at one value of the input: "fits is true",
// "tokens_per_s = 1,833 token/s (== 2,000 token/s)".
std::string seen_text(const Interpreter& in, const SolveReport& s, const SolveReport::Seen& seen) {
  if (s.goal == SolveGoal::Equal) return fmt::format("{} = {} (== {})", s.compared, in.show(seen.value), in.show(seen.target));
  return fmt::format("{} is {}", s.condition, in.show(seen.value));
}

json node_json(const ExplainNode& n) {
  json j;
  j["name"] = n.label;
  if (!n.derivation.input) {
    j["formula"] = text(n.derivation.formula);
    j["substituted"] = text(n.derivation.substituted);
  }
  j["result"] = text(n.derivation.result);
  if (!n.derivation.origin.empty()) j["origin"] = n.derivation.origin;
  if (!n.children.empty()) {
    j["inputs"] = json::array();
    for (const auto& c : n.children) j["inputs"].push_back(node_json(c));
  }
  return j;
}

}  // namespace

std::vector<SolveLine> solve_brief_lines(const Interpreter& in, const SolveReport& s) {
  if (!s.ok) return {{0, s.statement}, {1, s.error ? error_line(*s.error, false) : ""}};
  std::vector<SolveLine> out;
  out.push_back({0, fmt::format("solve {} for {} {}", s.record, s.input, goal_text(s))});
  out.push_back({1, fmt::format("{}.{} = {}", s.record, s.input, in.show(s.solution))});
  out.push_back({2, fmt::format("{} = {}: {}", s.input, in.show(s.solution), seen_text(in, s, s.at_solution))});
  if (s.beyond)
    out.push_back({2, fmt::format("{} = {}: {}", s.input, in.show(s.beyond->input), seen_text(in, s, *s.beyond))});
  return out;
}

std::string solve_brief_text(const Interpreter& in, const SolveReport& s) {
  std::string out;
  for (const auto& l : solve_brief_lines(in, s)) out += std::string(2 * static_cast<std::size_t>(l.level), ' ') + l.text + "\n";
  return out;
}

std::string solve_text(const Interpreter& in, const SolveReport& s) {
  if (!s.ok) return solve_brief_text(in, s);
  std::string out;
  out += fmt::format("solve {} for {} {}\n", s.record, s.input, goal_text(s));
  const std::string how = s.whole_numbers ? "whole numbers" : "bisection";
  out += fmt::format("{}.{} = {}\n", s.record, s.input, in.show(s.solution));
  out += fmt::format("  searched {} over [{}, {}] ({}), {} evaluations{}\n", s.input, in.show(s.lo), in.show(s.hi),
                     how, s.evaluations, s.at_bracket_end ? "; the condition holds at the end of the bracket" : "");
  out += fmt::format("  {} = {}: {}\n", s.input, in.show(s.solution), seen_text(in, s, s.at_solution));
  if (s.beyond)
    out += fmt::format("  {} = {}: {}\n", s.input, in.show(s.beyond->input), seen_text(in, s, *s.beyond));
  if (!s.set_at.empty()) out += fmt::format("  {} is set at {}\n", s.input, s.set_at);
  if (!s.derivation.empty()) {
    out += fmt::format("\nat {} = {}:\n", s.input, in.show(s.solution));
    for (const auto& n : s.derivation) out += explain_text(n);
  }
  return out;
}

std::string solves_text(const Interpreter& in, const Report& r) {
  std::string out;
  for (const auto& s : r.solves) out += "\n" + (r.steps && s.ok ? solve_text(in, s) : solve_brief_text(in, s));
  return out;
}

json solve_tree(const Interpreter& in, const SolveReport& s, bool statement) {
  json j;
  if (statement) j["statement"] = s.statement;
  j["record"] = s.record;
  j["input"] = s.input;
  j["goal"] = solve_goal_name(s.goal);
  j["condition"] = s.condition;
  if (!s.ok) {
    j["error"] = s.error ? error_json(error_info(*s.error)) : json(nullptr);
    return j;
  }
  j["solution"] = value_json(in, s.solution);
  j["whole_numbers"] = s.whole_numbers;
  j["bracket"] = json::array({value_json(in, s.lo), value_json(in, s.hi)});
  j["at_bracket_end"] = s.at_bracket_end;
  j["evaluations"] = s.evaluations;
  if (!s.set_at.empty()) j["set_at"] = s.set_at;
  auto seen = [&](const SolveReport::Seen& at) {
    json o;
    o["input"] = value_json(in, at.input);
    if (s.goal == SolveGoal::Equal) {
      o["lhs"] = value_json(in, at.value);
      o["rhs"] = value_json(in, at.target);
    } else {
      o["holds"] = at.value.kind == Value::Kind::Bool && at.value.b;
    }
    return o;
  };
  j["at_solution"] = seen(s.at_solution);
  if (s.beyond) j["beyond"] = seen(*s.beyond);
  j["derivation"] = json::array();
  for (const auto& n : s.derivation) j["derivation"].push_back(node_json(n));
  return j;
}

std::string solve_json(const Interpreter& in, const SolveReport& s) {
  return solve_tree(in, s, false).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace napkin
