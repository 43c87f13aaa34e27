#include "check_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "grammar/code_format.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "interpreter/core/format.hpp"
#include "interpreter/derivation/check_failure.hpp"

namespace napkin {

double GradedFile::score() const {
  double s = 0;
  for (const auto& c : checks) s += c.score;
  return s;
}

double GradedFile::max_score() const {
  double s = 0;
  for (const auto& c : checks) s += c.points;
  return s;
}

std::string show_points(double p) { return fmt::format("{}", std::round(p * 1e9) / 1e9 + 0.0); }

namespace {

// `q1.kv_per_token`, `fits`: a name, or a name's fields.
bool is_path(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) return true;
  return e.kind == ast::ExprKind::Member && !e.items.empty() && is_path(*e.items[0]);
}

// A value as napkin shows it on its own; an exact integer under a million in
// the unit of its dimension (`262,144 B/token`), as a student counts it.
std::string shown_own(const Interpreter& in, const Value& v) {
  if (v.kind == Value::Kind::Quantity && !v.display && !v.samples && is_exact_integer(v.q.v) && std::fabs(v.q.v) < 1e6)
    return v.q.dim.dimensionless() ? format_exact(v.q.v) : format_exact(v.q.v) + " " + in.units().format(v.q.dim);
  return in.show(v);
}

CheckOutcome named(const ast::Stmt& st) {
  CheckOutcome o;
  o.source = std::string(st.span.text());
  // What the check is about, when that is a name: for a comparison its left
  // side (its right side is the expected value), else the condition itself.
  if (st.value) {
    const ast::Expr& v = *st.value;
    const bool relation = !st.approx && v.kind == ast::ExprKind::Binary && v.items.size() == 2;
    const ast::Expr& what = st.approx || !relation ? v : *v.items[0];
    if (is_path(what)) o.answer = std::string(what.span.text());
  }
  o.name = st.check_name.empty() ? o.source : st.check_name;
  o.file = st.span.file->name;
  o.line = st.span.file->line_col(st.span.begin).first;
  o.points = st.points;
  return o;
}

}  // namespace

CheckValues check_values(const Interpreter& in, const CheckResult& r) {
  CheckValues v{r.actual, r.expected, r.tolerance, r.passed ? in.options().digits : digits_to_differ(in, r)};
  if (r.written_in) {
    v.actual.display = v.expected.display = r.written_in;
    if (v.tolerance.kind == Value::Kind::Quantity && !v.tolerance.display && v.tolerance.q.dim == v.actual.q.dim)
      v.tolerance.display = r.written_in;
  }
  return v;
}

CheckOutcome outcome_of(const Interpreter& in, const CheckResult& r) {
  CheckOutcome o = named(*r.stmt);
  o.status = r.passed ? CheckOutcome::Status::passed : CheckOutcome::Status::failed;
  o.score = r.passed ? o.points : 0;
  o.relation = r.relation;
  if (!r.relation.empty()) {
    // Both sides in the unit the checker wrote the expected value in.
    const CheckValues v = check_values(in, r);
    o.actual = in.show(v.actual, v.digits);
    o.actual_own = shown_own(in, r.actual);
    o.expected = in.show(v.expected, v.digits);
    if (r.relation == "≈") o.tolerance = in.show(v.tolerance);
  } else {
    o.actual = r.passed ? "true" : "false";
    o.expected = "true";
  }
  if (!r.passed) {
    // A failed ≈ in the checker's units; any other check as the terminal says it.
    o.message = r.relation == "≈" ? fmt::format("check failed: {} is {}, expected {}", print_expr(*r.stmt->value), o.actual, o.expected)
                                  : check_failure(in, r).message;
    if (!r.detail.empty()) o.message += " (" + r.detail + ")";
    o.detail = r.detail;
  }
  return o;
}

std::string failed_message(const CheckOutcome& c, bool with_expected) {
  std::string out = "check failed";
  if (c.answer.empty() || c.actual.empty()) return out;
  out += fmt::format(": {} is {}", c.answer, c.actual);
  if (with_expected && !c.expected.empty())
    out += fmt::format(", expected {}{}", c.relation.empty() || c.relation == "≈" ? "" : c.relation + " ", c.expected);
  return out;
}

namespace {

bool secret(const Disclosure& d, const std::string& file) {
  return std::find(d.secret_files.begin(), d.secret_files.end(), file) != d.secret_files.end();
}

// An error in a file that holds the expected values: its code, message and
// place, without the lines it would quote or its labels (which show values).
void keep_out_of(ErrorInfo& e, const Disclosure& d) {
  bool inside = secret(d, e.file);
  for (const auto& l : e.labels) inside = inside || secret(d, l.place.file);
  if (!inside) return;
  e.labels.clear();
  e.notes.clear();
  std::erase_if(e.mentions, [](const MentionInfo& m) { return m.in == "note"; });  // gone with the notes
  e.rendered = e.file.empty() ? fmt::format("{}: {}\n", error_tag(e.code), e.message)
                              : fmt::format("{}:{}:{}: {}: {}\n", e.file, e.line, e.column, error_tag(e.code), e.message);
}

}  // namespace

void disclose(std::vector<GradedFile>& files, const Disclosure& d) {
  for (auto& f : files) {
    int n = 0;
    for (auto& c : f.checks) {
      ++n;
      auto v = d.per_test.find(c.name);
      c.visibility = v != d.per_test.end() ? v->second : d.test_visibility;
      if (c.error && !d.reference) keep_out_of(*c.error, d);
      if (!d.expected) {
        // An unnamed check is named by its text, which holds the expected value.
        if (c.name == c.source) c.name = c.answer.empty() ? fmt::format("check {}", n) : c.answer;
        c.source.clear();
        if (!c.actual_own.empty()) c.actual = c.actual_own;
        c.expected.clear();
        c.detail.clear();
        c.derivation.clear();
        if (c.status == CheckOutcome::Status::failed) c.message = failed_message(c, false);
      }
      if (!d.reference && secret(d, c.file)) {
        c.file.clear();
        c.line = 0;
      }
    }
    if (!d.reference)
      for (auto& e : f.errors) keep_out_of(e, d);
  }
}

std::vector<CheckOutcome> graded_checks(Interpreter& in, Module* m) { return graded_checks(in, m->ast, nullptr); }

std::vector<CheckOutcome> graded_checks(Interpreter& in, const ast::Module& checks, Module* scope) {
  std::vector<CheckOutcome> out;
  for (const auto& st : checks.statements) {
    if (st.kind != ast::StmtKind::Check) continue;
    try {
      out.push_back(outcome_of(in, in.run_check(st, scope)));
    } catch (const Error& e) {
      CheckOutcome o = named(st);
      o.error = error_info(e.diagnostic());
      o.message = e.diagnostic().message;
      out.push_back(std::move(o));
    }
  }
  return out;
}

GradedFile unrunnable(const std::string& file, const std::string& text, const Diagnostic& d) {
  GradedFile g;
  g.file = file;
  const ErrorInfo why = error_info(d);
  // The file's own checks, if it parses by itself (what failed was an
  // import): each is worth what it says, and none is earned.
  std::vector<CheckOutcome> checks;
  try {
    SourceFile f;
    f.name = file;
    f.text = text;
    const ast::Module ast = parse_module(f);
    for (const auto& st : ast.statements)
      if (st.kind == ast::StmtKind::Check) {
        CheckOutcome o = named(st);
        o.error = why;
        o.message = d.message;
        checks.push_back(std::move(o));
      }
  } catch (...) {  // it does not parse, or memory ran out parsing it: the one result below
    checks.clear();
  }
  if (checks.empty()) {
    CheckOutcome o;
    o.name = file;
    o.file = why.file.empty() ? file : why.file;
    o.line = why.line;
    o.points = 0;
    o.error = why;
    o.message = d.message;
    checks.push_back(std::move(o));
  }
  g.checks = std::move(checks);
  return g;
}

}  // namespace napkin
