#include <fmt/format.h>

#include <algorithm>

#include "interpreter/derivation/check_failure.hpp"
#include "error_info.hpp"
#include "output.hpp"
#include "solve_output.hpp"
#include "grammar/printer.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

// A derivation's line after `lead`, broken at its operators where it would
// pass kPage columns, each further line indented two past the formula's start
// (never to less than kNarrowest columns of formula).
constexpr std::size_t kPage = 100, kNarrowest = 60;
std::string wrapped_line(const std::string& lead, const Term& t) {
  const std::size_t at = code_points(lead);
  const std::size_t room = std::max(kNarrowest, kPage > at + 2 ? kPage - at - 2 : 0);
  const auto lines = wrapped_text(t, room);
  std::string out = lead + lines[0];
  for (std::size_t i = 1; i < lines.size(); ++i) out += "\n" + std::string(at + 2, ' ') + lines[i];
  return out;
}

void field_lines(const FieldReport& f, std::size_t name_width, const std::string& indent, bool steps, std::string& out) {
  const std::string head = indent + pad_right(f.name, name_width) + " = ";
  if (!f.ok) {
    if (f.error)
      out += head + error_line(*f.error) + "\n";
    else
      out += fmt::format("{}needs {} (declared at {})\n", head, f.needs, f.declared_at);
    return;
  }
  const std::string note = f.derivation.note.empty() ? "" : "  [" + f.derivation.note + "]";
  if (!steps) {
    out += head + text(f.derivation.result) + note + "\n";
    return;
  }
  const auto lines = derivation_lines(f.derivation);
  const std::string cont = indent + std::string(name_width, ' ') + " = ";
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += wrapped_line(i == 0 ? head : cont, lines[i]) + (i + 1 == lines.size() ? note : "") + "\n";
  // Each function the formula calls, opened: its body with the arguments bound.
  for (const auto& c : f.derivation.calls) {
    const auto inner = derivation_lines(*c.derivation);
    const std::string where = indent + std::string(name_width, ' ') + "   where " + c.label + " = ";
    const std::string more = std::string(code_points(where) - 2, ' ') + "= ";
    for (std::size_t i = 0; i < inner.size(); ++i) out += wrapped_line(i == 0 ? where : more, inner[i]) + "\n";
  }
}

}  // namespace

std::string check_failure_text(const Interpreter& in, const CheckResult& c) {
  std::string out = fmt::format("✗ {}:{}: {}\n", c.stmt->span.file->name, c.line, c.source);
  const int digits = digits_to_differ(in, c);
  if (c.stmt->approx) {
    Value actual = c.actual, expected = c.expected;  // in the unit the expected value is written in
    if (c.written_in) actual.display = expected.display = c.written_in;
    Derivation d = derive(in, *c.stmt->value, c.trace, actual, digits);
    out += fmt::format("    {} = {}, expected {}: {}\n", text(d.formula), text(d.result), in.show(expected, digits), c.detail);
  } else {
    Derivation d = derive(in, *c.stmt->value, c.trace, Value::boolean(false), digits);
    // A check of one name substitutes to the bare `false`: say the name.
    out += fmt::format("    {} is false\n", text(d.substituted) == "false" ? print_expr(*c.stmt->value) : text(d.substituted));
  }
  // Two levels show what moved the value; `napkin explain` goes all the way.
  for (const auto& n : explain_trace(in, c.trace, 2)) out += explain_text(n, "    ");
  return out;
}

std::string checks_text(const Interpreter& in, const std::vector<CheckResult>& checks, bool list_passed) {
  std::string out;
  int passed = 0;
  for (const auto& c : checks) {
    if (c.passed) {
      ++passed;
      if (list_passed) {
        std::string extra;
        if (c.stmt->approx) extra = fmt::format("  ({})", in.show(c.actual));
        out += fmt::format("✓ {}{}\n", c.source, extra);
      }
    } else {
      out += check_failure_text(in, c);
    }
  }
  out += fmt::format("{} passed, {} failed\n", passed, static_cast<int>(checks.size()) - passed);
  return out;
}

std::string report_text(const Interpreter& in, const Report& r, const TextOptions& opts) {
  std::string out;
  bool first = true;
  bool prev_let = false;
  std::size_t let_width = 0;
  for (const auto& s : r.sections)
    if (s.kind == SectionKind::lets) let_width = std::max(let_width, code_points(s.name));
  for (const auto& s : r.sections) {
    if (s.kind == SectionKind::lets) {
      if (!first && !prev_let) out += "\n";
      field_lines(s.fields[0], opts.steps ? code_points(s.name) : let_width, "", opts.steps, out);
      prev_let = true;
      first = false;
      continue;
    }
    if (!first) out += "\n";
    first = false;
    prev_let = false;
    if (!s.origin.empty())
      out += fmt::format("{} {} = {}\n", s.keyword, s.name, s.origin);
    else if (!s.base.empty())
      out += fmt::format("{} {} extends {}\n", s.keyword, s.name, s.base);
    else
      out += fmt::format("{} {}\n", s.keyword, s.name);
    std::size_t w = 0;
    for (const auto& f : s.fields) w = std::max(w, code_points(f.name));
    for (const auto& f : s.fields) field_lines(f, opts.steps ? code_points(f.name) : w, "  ", opts.steps, out);
  }
  for (const auto& sw : r.sweeps) {
    if (!first) out += "\n";
    first = false;
    out += sweep_text(in, sw);
  }
  if (!r.checks.empty()) {
    out += "\nchecks\n";
    out += checks_text(in, r.checks, true);
  }
  // `solve` statements: after everything else.
  return out + solves_text(in, r);
}

}  // namespace napkin
