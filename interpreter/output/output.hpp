#pragma once
// Output formats for a report and for an explanation. Each renders the
// Report (report.hpp) as it is, solves and errors included.
#include <cstdint>
#include <string>

#include "interpreter/derivation/explain.hpp"
#include "report.hpp"

namespace napkin {

struct TextOptions {
  bool steps = false;
};

std::string report_text(const Interpreter& in, const Report& r, const TextOptions& opts);
std::string report_json(const Interpreter& in, const Report& r);
// The report of a file that did not load (it does not parse, an import
// fails): no values, no checks, and the error as data, so that a program
// reading stdout gets a document either way.
std::string unloaded_report_json(const Diagnostic& d);
std::string unloaded_report_toml(const Diagnostic& d);
std::string checks_text(const Interpreter& in, const std::vector<CheckResult>& checks, bool list_passed);
std::string check_failure_text(const Interpreter& in, const CheckResult& c);
std::string sweeps_json_text(const Interpreter& in, const std::vector<SweepResult>& sweeps);
// A sweep's table as text, Markdown and CSV (sweep_table.cpp).
std::string sweep_text(const Interpreter& in, const SweepResult& s);
std::string sweep_markdown(const Interpreter& in, const SweepResult& s);
std::string sweep_csv(const Interpreter& in, const SweepResult& s);

// A sweep's points each format shows at most: a table of a million points is
// a CSV file (or text), not a JSON document of half a gigabyte, a TOML file
// built from it, or a LaTeX table no page holds. Past them, E0702 at the
// sweep, saying which format takes the whole table.
inline constexpr std::size_t kMaxJsonSweepPoints = 100'000;
inline constexpr std::size_t kMaxTomlSweepPoints = 10'000;
inline constexpr std::size_t kMaxLatexSweepPoints = 10'000;
void limit_sweep_points(const SweepResult& s, std::size_t limit, const char* format);

// How a document (Markdown, LaTeX) shows the file's checks: listed after
// the answers; as a ✓ beside each answer a passing check pins (the others
// listed); or not at all (failures still go to standard error).
enum class CheckDisplay : std::uint8_t { List, Beside, None };

// Markdown for review comments, LaTeX for lecture notes, TOML with the
// JSON's content (both made from one tree: report_tree.hpp).
std::string report_markdown(const Interpreter& in, const Report& r, CheckDisplay checks = CheckDisplay::List);
std::string report_latex(const Interpreter& in, const Report& r, CheckDisplay checks = CheckDisplay::List);
std::string report_toml(const Interpreter& in, const Report& r);
// With `flat`, the root alone: its formula, the formula inlined to literals
// and inputs (ExplainNode::flat), and the result.
std::string explain_markdown(const ExplainNode& root, bool flat = false);
std::string explain_latex(const ExplainNode& root, bool flat = false);
std::string explain_json(const ExplainNode& root);
// What a command that writes JSON writes when an error stopped it before
// it had its own document (explain's file or name failed, layout's plan is
// no plan): {"errors": [the error, as run's errors are]}.
std::string failed_json(const Diagnostic& d);
std::string explain_toml(const ExplainNode& root);

}  // namespace napkin
