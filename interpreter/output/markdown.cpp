// `--format markdown`: for review comments and course pages. Each record is
// a table of its results, followed by the derivation of every value that
// has one, formulas in inline code.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "error_info.hpp"
#include "escape.hpp"
#include "output.hpp"
#include "prose.hpp"
#include "field_comment.hpp"
#include "section_title.hpp"
#include "solve_output.hpp"

namespace napkin {
namespace {

std::string code(const std::string& s) { return markdown_code(s); }
std::string escape(const std::string& s) { return markdown_text(s); }
std::string cell(const std::string& s) { return markdown_cell(s); }

std::string shown(const FieldReport& f) {
  if (!f.ok && f.error) return "**" + escape(error_line(*f.error)) + "**";  // it failed: the error, with its place
  if (!f.ok) return fmt::format("needs {} (declared at {})", code(f.needs), escape(f.declared_at));
  std::string v = escape(text(f.derivation.result));
  if (!f.derivation.note.empty()) v += " *(" + escape(f.derivation.note) + ")*";
  return v;
}

// `formula` = `substituted` = **result**, or nothing for an input.
std::string derivation(const std::string& label, const Derivation& d, const std::string& tail = "") {
  auto lines = derivation_text(d);
  // An expression typed on the command line is its own label: say it once.
  const bool labelled = lines.size() > 1 && lines[0] == label;
  if (labelled) lines.erase(lines.begin());
  std::string out = code(label);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool result = i + 1 == lines.size() && !d.record && (i > 0 || d.input || labelled);
    out += " = " + (result ? "**" + escape(lines[i]) + "**" : code(lines[i]));
  }
  if (!d.note.empty()) out += " *(" + escape(d.note) + ")*";
  return out + tail;
}

bool has_derivation(const FieldReport& f) { return f.ok && derivation_lines(f.derivation).size() > 1; }

// `ticked`: the fields a passing check pins, each shown with a ✓.
// `comments`: on a solution sheet (`calls`), the comment above each field
// (`# (a) …`) comes before its derivation, as on the handout.
std::string table_and_derivations(const std::vector<const FieldReport*>& fields, bool calls,
                                  const std::set<std::string>& ticked, CommentsByFile& comments) {
  std::string out = "| field | value |\n| :--- | ---: |\n";
  for (const auto* f : fields)
    out += fmt::format("| {} | {}{} |\n", cell(code(f->name)), cell(shown(*f)), ticked.count(f->qualified) ? " ✓" : "");
  bool any = false;
  for (const auto* f : fields)
    if (has_derivation(*f)) {
      if (!any) out += "\n";
      any = true;
      if (const std::string sub = calls && f->own ? comment_above_field(f->at, comments) : ""; !sub.empty())
        out += (out.back() == '\n' && out[out.size() - 2] == '\n' ? "" : "\n") + prose_markdown(sub) + "\n\n";
      out += "- " + derivation(f->name, f->derivation);
      if (const std::string note = calls && f->own ? comment_after_field(f->at, comments) : ""; !note.empty())
        out += " — " + prose_markdown(note);  // as the handout prints it after the blank
      out += "\n";
      // Each function the formula calls, opened (the report has them on a solution sheet).
      if (calls)
        for (const auto& c : f->derivation.calls) out += "  - where " + derivation(c.label, *c.derivation) + "\n";
    }
  return out;
}

// `beside`: the checks shown as a ✓ beside their answer, not listed again.
std::string checks_markdown(const Interpreter& in, const std::vector<CheckResult>& checks,
                            const std::vector<bool>& beside) {
  std::string out = "## checks\n\n";
  int passed = 0, ticked = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const CheckResult& c = checks[i];
    if (beside[i]) {
      ++passed;
      ++ticked;
    } else if (c.passed) {
      ++passed;
      out += "- ✓ " + code(c.source);
      if (c.stmt->approx) out += " (" + escape(in.show(c.actual)) + ")";
      out += "\n";
    } else {
      out += "- ✗ " + code(c.source) + "\n\n" + markdown_block(check_failure_text(in, c), "  ") + "\n";
    }
  }
  if (out.size() < 2 || out.compare(out.size() - 2, 2, "\n\n") != 0) out += "\n";
  out += fmt::format("{} passed, {} failed", passed, static_cast<int>(checks.size()) - passed);
  if (ticked > 0) out += fmt::format(" ({} shown as ✓ beside the answer they pin)", ticked);
  return out + "\n";
}

// Its title from the comment above it, as the handout heads it (section_title.hpp).
std::string heading(const Section& s) {
  const SectionTitle t = section_title(s.doc);
  std::string h = t.title.empty() ? "## " + code(s.name) : "## " + prose_markdown(t.title) + " (" + code(s.name) + ")";
  h += "\n\n";
  if (!s.origin.empty()) h += code(s.name + " = " + s.origin) + "\n\n";
  if (!t.rest.empty()) h += prose_markdown(t.rest) + "\n\n";  // the file's own words above it: a drill's question
  return h;
}

void explain_item(const ExplainNode& n, const std::string& indent, std::string& out) {
  std::string tail;
  if (n.repeated) tail = " (explained above)";
  if (n.truncated) tail = " (…)";
  Derivation d = n.derivation;
  if (n.repeated) {
    d.input = true;  // only the result: its derivation is above
    d.note.clear();
  }
  out += indent + "- " + derivation(n.label, d, tail) + "\n";
  for (const auto& c : n.children) explain_item(c, indent + "  ", out);
}

}  // namespace

std::string report_markdown(const Interpreter& in, const Report& r, CheckDisplay checks) {
  std::string out;
  // The file's opening comment: its title and introduction.
  if (!r.title.empty()) out += "# " + prose_markdown(r.title) + "\n";
  if (!r.intro.empty()) out += "\n" + prose_markdown(r.intro) + "\n";
  std::set<std::string> ticked;
  const std::vector<bool> beside =
      checks == CheckDisplay::Beside ? checks_beside(r, ticked) : std::vector<bool>(r.checks.size(), false);
  const bool calls = r.steps.has_value();
  CommentsByFile comments;
  std::vector<const FieldReport*> lets;
  auto separate = [&] {
    if (!out.empty()) out += "\n";
  };
  auto flush_lets = [&] {
    if (lets.empty()) return;
    separate();
    out += "## values\n\n" + table_and_derivations(lets, calls, ticked, comments);
    lets.clear();
  };
  for (const auto& s : r.sections) {
    if (s.kind == SectionKind::lets) {
      lets.push_back(&s.fields[0]);
      continue;
    }
    flush_lets();
    separate();
    std::size_t unchanged = 0;
    const std::vector<const FieldReport*> fields = shown_fields(r, s, &unchanged);
    out += heading(s) + table_and_derivations(fields, calls, ticked, comments);
    if (unchanged > 0)
      out += fmt::format("\n{} other field{} as in {}.\n", unchanged, unchanged == 1 ? "" : "s",
                         code(s.origin_expr->items[0]->text));
  }
  flush_lets();
  for (const auto& sw : r.sweeps) {
    separate();
    out += sweep_markdown(in, sw);
  }
  if (!r.checks.empty() && checks != CheckDisplay::None) {
    separate();
    out += checks_markdown(in, r.checks, beside);
  }
  // `solve` statements, after everything else, as the terminal shows them.
  if (!r.solves.empty()) out += "\n## solve\n\n```" + solves_text(in, r) + "```\n";
  return out;
}

std::string explain_markdown(const ExplainNode& root, bool flat) {
  std::string out = "### " + code(root.label) + "\n\n";
  Derivation d = root.derivation;
  if (flat) {
    if (!d.input) d.substituted = root.flat;
    return out + derivation(root.label, d, "") + "\n";
  }
  out += derivation(root.label, d, root.truncated ? " (…)" : "") + "\n";
  if (root.children.empty()) return out;
  out += "\nwhere\n\n";
  for (const auto& c : root.children) explain_item(c, "", out);
  return out;
}

}  // namespace napkin
