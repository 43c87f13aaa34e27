// Check results in the formats graders read: JSON, JUnit XML (what CI
// reporters read), Gradescope's results.json, and text.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "check_results.hpp"
#include "escape.hpp"

namespace napkin {

namespace {

using json = nlohmann::ordered_json;

const char* status_text(CheckOutcome::Status s) {
  switch (s) {
    case CheckOutcome::Status::passed: return "passed";
    case CheckOutcome::Status::failed: return "failed";
    case CheckOutcome::Status::errored: return "errored";
  }
  return "errored";
}

json number(double v) {
  v = std::round(v * 1e9) / 1e9;  // 0.1 + 0.2 points is 0.3
  // Points are bounded (kMaxCheckPoints), so a sum is far inside a long long.
  if (std::abs(v) < 0x1p53 && v == static_cast<double>(static_cast<long long>(v))) return static_cast<long long>(v);
  return v;
}

std::string dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

// "reference.napkin:51: ", or nothing where the place is not shown.
std::string place(const CheckOutcome& c) { return c.file.empty() ? "" : fmt::format("{}:{}: ", c.file, c.line); }

// What a person reads about one check: its place and result, then the values.
// What disclose() took out (the expected value, the check as written, its
// place) is not there to print. `named`: the check's name leads a failure
// (text, where no test box holds it).
std::string outcome_lines(const CheckOutcome& c, bool named = false) {
  std::string out;
  switch (c.status) {
    case CheckOutcome::Status::passed:
      out = !c.source.empty() ? fmt::format("{}passed: {}\n", place(c), c.source)
            : named           ? fmt::format("{}passed: {}\n", place(c), c.name)
                              : place(c) + "passed\n";
      break;
    case CheckOutcome::Status::failed:
      out = named && c.name != c.source ? fmt::format("{}{}: {}\n", place(c), c.name, c.message)
                                        : place(c) + c.message + "\n";
      break;
    case CheckOutcome::Status::errored:
      if (c.error && !c.error->rendered.empty())  // with its line and caret, where the file may be quoted
        out = c.error->rendered;
      else
        out = fmt::format("{}{}: {}\n", place(c), error_tag(c.error ? c.error->code : code_text(codes::internal)),
                          c.message);
      break;
  }
  if (!c.relation.empty() && c.status != CheckOutcome::Status::passed) {
    // Without the expected value, a failure's message already says the actual one.
    if (!c.expected.empty() || c.answer.empty()) out += fmt::format("  actual:   {}\n", c.actual);
    if (!c.expected.empty())
      out += fmt::format("  expected: {}{}\n", c.relation == "≈" ? "" : c.relation + " ", c.expected);
    if (!c.tolerance.empty()) out += fmt::format("  within:   {}\n", c.tolerance);
  }
  for (const auto& f : c.feedback) out += "  " + f + "\n";
  return out;
}

// An error that stops several checks (a submission that does not parse
// stops them all) is shown whole once; each check it stops points to it.
std::map<std::string, int> shared_errors(const std::vector<GradedFile>& files) {
  std::map<std::string, int> stops;
  for (const auto& f : files)
    for (const auto& c : f.checks)
      if (c.status == CheckOutcome::Status::errored && c.error && !c.error->rendered.empty()) ++stops[c.error->rendered];
  for (auto it = stops.begin(); it != stops.end();) it = it->second > 1 ? std::next(it) : stops.erase(it);
  return stops;
}

bool stopped_by_shared(const CheckOutcome& c, const std::map<std::string, int>& shared) {
  return c.status == CheckOutcome::Status::errored && c.error && shared.count(c.error->rendered);
}

// Element text keeps its lines; an attribute is one line (escape.hpp).
std::string xml(const std::string& s) { return xml_text(s, true); }
std::string attr(const std::string& s) { return xml_text(s); }

}  // namespace

std::string graded_json(const std::vector<GradedFile>& files) {
  double score = 0, max = 0;
  json list = json::array();
  for (const auto& f : files) {
    score += f.score();
    max += f.max_score();
    json checks = json::array();
    for (const auto& c : f.checks) {
      json j = json::object();
      j["name"] = c.name;
      j["check"] = c.source.empty() ? json(nullptr) : json(c.source);
      j["file"] = c.file.empty() ? json(nullptr) : json(c.file);
      j["line"] = c.file.empty() ? json(nullptr) : json(c.line);
      j["status"] = status_text(c.status);
      j["score"] = number(c.score);
      j["points"] = number(c.points);
      j["relation"] = c.relation;
      j["actual"] = c.actual;
      j["expected"] = c.expected.empty() && !c.actual.empty() ? json(nullptr) : json(c.expected);
      j["tolerance"] = c.tolerance;
      j["message"] = c.message;
      j["error"] = c.error ? error_json(*c.error) : json(nullptr);
      j["feedback"] = c.feedback;
      j["derivation"] = c.derivation;
      j["carried_forward"] = c.carried_forward;
      checks.push_back(std::move(j));
    }
    json errors = json::array();
    for (const auto& e : f.errors) errors.push_back(error_json(e));
    json jf = json::object();
    jf["file"] = f.file;
    jf["score"] = number(f.score());
    jf["max_score"] = number(f.max_score());
    jf["checks"] = std::move(checks);
    jf["errors"] = std::move(errors);
    jf["notes"] = f.notes;
    list.push_back(std::move(jf));
  }
  json j = json::object();
  j["score"] = number(score);
  j["max_score"] = number(max);
  j["files"] = std::move(list);
  return dump(j);
}

// Every key written here is one of Gradescope's autograder specification
// (tests/cli/grading_scores.py holds its list).
std::string graded_gradescope(const std::vector<GradedFile>& files, const std::string& visibility) {
  double score = 0, max = 0;
  json tests = json::array();
  std::string summary;
  const auto shared = shared_errors(files);
  for (const auto& f : files) {
    score += f.score();
    max += f.max_score();
    for (const auto& n : f.notes) summary += n + "\n";
    for (const auto& c : f.checks) {
      json t = json::object();
      t["name"] = c.name;
      t["score"] = number(c.score);
      t["max_score"] = number(c.points);
      t["status"] = c.status == CheckOutcome::Status::passed ? "passed" : "failed";
      t["output"] = stopped_by_shared(c, shared)
                        ? fmt::format("{}{}: {} (shown at the top)\n", place(c), error_tag(c.error->code), c.message)
                        : outcome_lines(c);
      t["visibility"] = c.visibility;
      tests.push_back(std::move(t));
    }
    for (const auto& e : f.errors) summary += e.rendered;
  }
  for (const auto& [rendered, count] : shared) summary += rendered;
  // No top-level max_score: the specification has none; Gradescope sums the tests'.
  json j = json::object();
  j["score"] = number(score);
  j["output"] = summary.empty() ? fmt::format("{} of {} points", show_points(score), show_points(max))
                                : fmt::format("{} of {} points\n\n{}", show_points(score), show_points(max), summary);
  j["visibility"] = visibility;
  j["tests"] = std::move(tests);
  return dump(j);
}

std::string graded_junit(const std::vector<GradedFile>& files, const std::string& title) {
  int tests = 0, failures = 0, errors = 0;
  std::string suites;
  for (const auto& f : files) {
    int t = 0, fl = 0, er = 0;
    std::string cases;
    for (const auto& c : f.checks) {
      ++t;
      const std::string where = c.file.empty() ? "" : fmt::format(" file=\"{}\" line=\"{}\"", attr(c.file), c.line);
      cases += fmt::format("    <testcase name=\"{}\" classname=\"{}\"{} time=\"0\">\n", attr(c.name), attr(f.file), where);
      cases += fmt::format("      <properties>\n        <property name=\"points\" value=\"{}\"/>\n"
                           "        <property name=\"score\" value=\"{}\"/>\n      </properties>\n",
                           show_points(c.points), show_points(c.score));
      if (c.status == CheckOutcome::Status::failed) {
        ++fl;
        cases += fmt::format("      <failure message=\"{}\" type=\"E0500\">{}</failure>\n", attr(c.message),
                             xml(outcome_lines(c)));
      } else if (c.status == CheckOutcome::Status::errored) {
        ++er;
        cases += fmt::format("      <error message=\"{}\" type=\"{}\">{}</error>\n", attr(c.message),
                             c.error ? attr(c.error->code) : "E0000", xml(outcome_lines(c)));
      }
      cases += "    </testcase>\n";
    }
    std::string err;
    for (const auto& e : f.errors) err += e.rendered;
    std::string notes;
    for (const auto& n : f.notes) notes += n + "\n";
    if (!notes.empty()) cases += "    <system-out>" + xml(notes) + "</system-out>\n";
    if (!err.empty()) cases += "    <system-err>" + xml(err) + "</system-err>\n";
    suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n{}  </testsuite>\n",
                          attr(f.file), t, fl, er, cases);
    tests += t;
    failures += fl;
    errors += er;
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" "
                     "errors=\"{}\">\n{}</testsuites>\n",
                     attr(title), tests, failures, errors, suites);
}

std::string graded_text(const std::vector<GradedFile>& files) {
  std::string out;
  double score = 0, max = 0;
  const auto shared = shared_errors(files);
  std::set<std::string> shown;
  for (const auto& f : files) {
    for (const auto& n : f.notes) out += n + "\n";
    for (const auto& c : f.checks) {
      if (!stopped_by_shared(c, shared)) {
        out += outcome_lines(c, /*named=*/true);
        continue;
      }
      if (shown.insert(c.error->rendered).second) out += c.error->rendered;
      out += fmt::format("{}errored: {}: the error above ({})\n", place(c), c.name, c.error->code);
    }
    for (const auto& e : f.errors) out += e.rendered;
    score += f.score();
    max += f.max_score();
  }
  return out + fmt::format("score: {} of {} points\n", show_points(score), show_points(max));
}

}  // namespace napkin
