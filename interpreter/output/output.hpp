#pragma once
// Output formats for a report and for an explanation.
#include <string>

#include "interpreter/derivation/explain.hpp"
#include "report.hpp"

namespace napkin {

struct TextOptions {
  bool steps = false;
};

std::string report_text(const Interpreter& in, const Report& r, const TextOptions& opts);
std::string report_json(const Interpreter& in, const Report& r);
std::string checks_text(const Interpreter& in, const std::vector<CheckResult>& checks, bool list_passed);
std::string check_failure_text(const Interpreter& in, const CheckResult& c);
std::string sweeps_json_text(const Interpreter& in, const std::vector<SweepResult>& sweeps);

// Markdown for review comments, LaTeX for lecture notes, TOML with the JSON's content.
std::string report_markdown(const Interpreter& in, const Report& r);
std::string report_latex(const Interpreter& in, const Report& r);
std::string report_toml(const Interpreter& in, const Report& r);
// With `flat`, the root alone: its formula, the formula inlined to literals
// and inputs (ExplainNode::flat), and the result.
std::string explain_markdown(const ExplainNode& root, bool flat = false);
std::string explain_latex(const ExplainNode& root, bool flat = false);
std::string explain_json(const ExplainNode& root);
std::string explain_toml(const ExplainNode& root);

}  // namespace napkin
