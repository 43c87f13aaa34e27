// `--format latex`: a document that pdflatex compiles as it is, whose body a
// teacher pastes into notes that load amsmath and amssymb. Every derivation
// is an align* environment; inputs, which have nothing to derive, share one.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "error_info.hpp"
#include "latex_math.hpp"
#include "output.hpp"
#include "prose.hpp"
#include "field_comment.hpp"
#include "section_title.hpp"
#include "solve_output.hpp"

namespace napkin {
namespace {

struct Item {
  std::string label;
  std::vector<std::string> lines;  // already LaTeX
  std::string suffix;              // appended to the last line
  std::string note;                // how a measured value came to be: prose below the formulas
  bool own_row = false;            // the label takes a row of its own (a call opened below its field)
  std::string before;              // a paragraph before it: the comment above its field (`(a) …`), as LaTeX
};

// A note as a paragraph: names such as `num_key_value_heads` may break
// after an underscore, and a probe's arguments
// (`cpu.decode_step(model=lab_10m[L=8,d=256,…])`) after a comma or `=`, or
// a long one would run into the margin.
std::string prose(const std::string& text) {
  const std::string escaped = latex_text(text, "\\_\\allowbreak{}");
  std::string out;
  for (char c : escaped) {
    out += c;
    if (c == ',' || c == '=') out += "\\allowbreak{}";
  }
  return out;
}

bool long_label(const std::string& label) { return label.size() > 40; }

std::string align(const std::vector<Item>& items) {
  std::string out = "\\begin{align*}\n";
  for (std::size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    for (std::size_t i = 0; i < it.lines.size(); ++i) {
      // A long label (a call with its arguments) takes a row of its own and
      // no width, so the formulas below it keep the page's width.
      const bool own_row = it.own_row || long_label(it.label);
      if (i == 0 && own_row) out += "\\rlap{$\\text{" + latex_text(it.label) + "}$} & \\\\\n";
      out += i == 0 && !own_row ? "\\text{" + latex_text(it.label) + "} &" : "  &";
      out += it.lines[i];
      if (i + 1 == it.lines.size()) out += it.suffix;
      if (i + 1 < it.lines.size() || k + 1 < items.size()) out += " \\\\";
      out += "\n";
    }
  }
  out += "\\end{align*}\n";
  // Notes are sentences (a probe's method, why it fell back): as math they
  // could not break, so they follow as small paragraphs.
  for (const auto& it : items)
    if (!it.note.empty()) out += "{\\small\\noindent " + prose(it.label + ": " + it.note) + "\\par}\n";
  return out;
}

// Consecutive one-line items share an environment; a derivation gets its
// own, with the calls it opens (`where …`) below it.
std::string blocks(const std::vector<std::vector<Item>>& groups) {
  std::string out;
  std::vector<Item> inputs;
  for (const auto& g : groups) {
    if (!g.empty() && !g[0].before.empty()) {  // a sub-part's words start a new block, as on the handout
      if (!inputs.empty()) out += align(inputs);
      inputs.clear();
      out += "\\noindent " + g[0].before + "\\par\n";
    }
    if (g.size() == 1 && g[0].lines.size() <= 1) {
      inputs.push_back(g[0]);
      continue;
    }
    if (!inputs.empty()) out += align(inputs);
    inputs.clear();
    out += align(g);
  }
  if (!inputs.empty()) out += align(inputs);
  return out;
}

std::string blocks(const std::vector<Item>& items) {
  std::vector<std::vector<Item>> groups;
  for (const auto& it : items) groups.push_back({it});
  return blocks(groups);
}

Item derivation_item(const std::string& label, const Derivation& d) {
  Item it{label, {}, ""};
  // The label takes its share of the line: about 90 characters of math fit
  // between 2 cm margins.
  const std::size_t width = long_label(label) ? 90 : 90 - label.size();
  auto lines = derivation_lines(d);
  if (lines.size() > 1 && text(lines[0]) == label) lines.erase(lines.begin());  // a typed expression: said once
  for (const auto& line : lines) {
    const auto pieces = break_lines(line, std::min<std::size_t>(width, 64));
    for (std::size_t i = 0; i < pieces.size(); ++i) it.lines.push_back((i ? "\\qquad " : "= ") + latex_math(pieces[i]));
  }
  it.note = d.note;
  return it;
}

Item field_item(const FieldReport& f) {
  if (f.ok) return derivation_item(f.name, f.derivation);
  if (f.error) return {f.name, {"\\quad\\text{" + latex_text(error_line(*f.error)) + "}"}, ""};  // it failed: the error, with its place
  return {f.name, {fmt::format("\\quad\\text{{needs \\texttt{{{}}} (declared at {})}}", latex_text(f.needs), latex_text(f.declared_at))}, ""};
}

// A field, and on a solution sheet each function its formula calls, opened;
// `ticked`, a ✓ for a passing check that pins it.
std::vector<Item> field_group(const FieldReport& f, bool calls, bool ticked = false) {
  std::vector<Item> g{field_item(f)};
  if (ticked) g[0].suffix += "\\quad\\checkmark";
  if (calls && f.ok)
    for (const auto& c : f.derivation.calls) {
      g.push_back(derivation_item("where " + c.label, *c.derivation));
      g.back().own_row = true;
    }
  return g;
}

std::string document(const std::string& body) {
  return "% Compiles as it is; the body pastes into notes that load amsmath and amssymb.\n"
         "\\documentclass[fleqn]{article}\n"
         "\\usepackage{amsmath,amssymb}\n"
         "\\usepackage[margin=2cm]{geometry}\n"
         "\\allowdisplaybreaks\n"
         "\\begin{document}\n"
         "\\sloppy\n\n" +
         body + "\n\\end{document}\n";
}

std::string cell(const Interpreter& in, const SweepCell& c) {
  if (!c.ok && c.needs.empty()) return error_tag(c.error);
  if (!c.ok) return "needs \\texttt{" + latex_text(c.needs) + "}";
  if (c.value.kind == Value::Kind::String) return latex_text(c.value.str());
  return "$" + latex_math(value_term(in, c.value)) + "$";
}

std::string sweep_latex(const Interpreter& in, const SweepResult& s) {
  limit_sweep_points(s, kMaxLatexSweepPoints, "LaTeX");
  std::string out = fmt::format("\\section*{{sweep \\texttt{{{}}}}}\n", latex_text(s.title()));
  std::vector<std::string> head = s.inputs;
  head.insert(head.end(), s.columns.begin(), s.columns.end());
  // Narrow columns and a smaller font: a sweep with many columns still fits the page.
  out += "{\\small\\setlength{\\tabcolsep}{3pt}\n";
  out += "\\begin{tabular}{" + std::string(head.size(), 'r') + "}\n\\hline\n";
  for (std::size_t i = 0; i < head.size(); ++i) out += (i ? " & " : "") + latex_text(head[i]);
  out += " \\\\\n\\hline\n";
  for (std::size_t row = 0; row < s.row_count(); ++row) {
    for (std::size_t i = 0; i < s.width(); ++i) out += (i ? " & " : "") + cell(in, s.cell(row, i));
    out += " \\\\\n";
  }
  return out + "\\hline\n\\end{tabular}}\n";
}

// The check as written (`*` as \cdot, as everywhere in LaTeX), from its tree.
std::string check_math(const CheckResult& c) {
  const ast::Stmt& s = *c.stmt;
  const TermOptions source{false, {}};
  Tokens line = term_of(*s.value, source).tokens;
  auto append = [&](const Term& t) {
    Tokens more = t.tokens;
    if (!more.empty()) more[0].space = true;
    line.insert(line.end(), more.begin(), more.end());
  };
  auto word = [&](Token::Kind kind, const char* text) {
    Token t;
    t.kind = kind;
    t.text = text;
    t.space = true;
    line.push_back(std::move(t));
  };
  if (s.approx) {
    word(Token::Kind::Operator, "≈");
    append(term_of(*s.expected, source));
    if (s.tolerance) {
      word(Token::Kind::Keyword, "within");
      append(term_of(*s.tolerance, source));
    }
  }
  return "$" + latex_math(line) + "$";
}

// `beside`: the checks shown as a ✓ beside their answer, not listed again.
std::string checks_latex(const Interpreter& in, const std::vector<CheckResult>& checks, const std::vector<bool>& beside) {
  std::string out = "\\section*{checks}\n";
  std::string list;
  int passed = 0, ticked = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const CheckResult& c = checks[i];
    passed += c.passed ? 1 : 0;
    if (beside[i]) {
      ++ticked;
      continue;
    }
    list += fmt::format("\\item[{}] {}", c.passed ? "$\\checkmark$" : "$\\times$", check_math(c));
    if (c.stmt->approx)
      list += c.passed ? fmt::format(" \\quad (${}$)", latex_math(value_term(in, c.actual)))
                      : fmt::format(" \\quad got ${}$, expected ${}$: {}", latex_math(value_term(in, c.actual)),
                                    latex_math(value_term(in, c.expected)), latex_text(c.detail));
    else if (!c.passed)
      list += " \\quad is false";
    list += "\n";
  }
  if (!list.empty()) out += "\\begin{itemize}\n" + list + "\\end{itemize}\n";
  out += fmt::format("{} passed, {} failed", passed, static_cast<int>(checks.size()) - passed);
  if (ticked > 0) out += fmt::format(" ({} shown as $\\checkmark$ beside the answer they pin)", ticked);
  return out + "\n";
}

// Its title from the comment above it, as the handout heads it (section_title.hpp).
std::string heading(const Section& s) {
  const SectionTitle t = section_title(s.doc);
  const std::string name = fmt::format("\\texttt{{{}}}", latex_text(s.name));
  std::string h = "\\section*{" + (t.title.empty() ? name : prose_latex(t.title) + " (" + name + ")") + "}\n";
  // A record made `with` a long block breaks after its commas, as a long
  // derivation line does: plan_70b's `run = training_plan with { … }`.
  if (s.origin_expr) {
    const auto pieces = break_lines(term_of(*s.origin_expr, {false, {}}), 64);
    h += fmt::format("\\begin{{align*}}\n\\text{{{}}} &= {}", latex_text(s.name), latex_math(pieces[0]));
    for (std::size_t i = 1; i < pieces.size(); ++i) h += " \\\\\n  &\\qquad " + latex_math(pieces[i]);
    h += "\n\\end{align*}\n";
  }
  if (!t.rest.empty()) h += prose_latex(t.rest) + "\n\n";  // the file's own words above it: a drill's question
  return h;
}

void flatten(const ExplainNode& n, std::vector<Item>& out) {
  Item it = derivation_item(n.label, n.derivation);
  if (n.repeated) {
    it.lines = {it.lines.back()};
    it.suffix += "\\quad\\text{(above)}";
  }
  if (n.truncated) it.suffix += "\\quad\\ldots";
  out.push_back(std::move(it));
  for (const auto& c : n.children) flatten(c, out);
}

// The `solve` statements, each as the terminal's brief form: its first line
// in the typewriter face it is written in, each line after it on its own
// line, indented as it is there.
std::string solves_latex(const Interpreter& in, const std::vector<SolveReport>& solves) {
  std::string out = "\\section*{solve}\n\\begin{itemize}\n";
  for (const auto& s : solves) {
    // The lines as the terminal prints them (a statement written over
    // several lines keeps its own).
    std::vector<std::string> lines;
    for (const auto& l : solve_brief_lines(in, s)) {
      const std::string indented = std::string(2 * static_cast<std::size_t>(l.level), ' ') + l.text;
      for (std::size_t at = 0; at < indented.size();) {
        const std::size_t end = std::min(indented.find('\n', at), indented.size());
        if (end > at) lines.push_back(indented.substr(at, end - at));
        at = end + 1;
      }
    }
    if (lines.empty()) continue;
    out += "\\item \\texttt{" + latex_text(lines[0]) + "}";
    for (std::size_t i = 1; i < lines.size(); ++i) {
      std::size_t lead = 0;
      while (lead < lines[i].size() && lines[i][lead] == ' ') ++lead;
      out += "\\\\\n";
      // \hspace*: plain glue at the start of a line after \\ is dropped.
      if (lead >= 2) out += fmt::format("\\hspace*{{{}em}}", lead / 2);
      out += latex_text(lines[i].substr(lead));
    }
    out += "\n";
  }
  return out + "\\end{itemize}\n";
}

}  // namespace

std::string report_latex(const Interpreter& in, const Report& r, CheckDisplay checks) {
  std::string body;
  // The file's opening comment: its title and introduction.
  if (!r.title.empty()) body += "{\\LARGE\\bfseries\\noindent " + prose_latex(r.title) + "\\par}\n\\bigskip\n\n";
  if (!r.intro.empty()) body += prose_latex(r.intro) + "\n\n";
  std::set<std::string> ticked;
  const std::vector<bool> beside =
      checks == CheckDisplay::Beside ? checks_beside(r, ticked) : std::vector<bool>(r.checks.size(), false);
  const bool calls = r.steps.has_value();
  CommentsByFile comments;  // the comment above each field, on a solution sheet
  std::vector<std::vector<Item>> lets;
  auto flush_lets = [&] {
    if (lets.empty()) return;
    body += "\\section*{values}\n" + blocks(lets) + "\n";
    lets.clear();
  };
  for (const auto& s : r.sections) {
    if (s.kind == SectionKind::lets) {
      lets.push_back(field_group(s.fields[0], calls, ticked.count(s.fields[0].qualified) > 0));
      continue;
    }
    flush_lets();
    std::vector<std::vector<Item>> items;
    std::size_t unchanged = 0;
    for (const auto* f : shown_fields(r, s, &unchanged)) {
      items.push_back(field_group(*f, calls, ticked.count(f->qualified) > 0));
      if (const std::string sub = calls && f->own ? comment_above_field(f->at, comments) : ""; !sub.empty())
        items.back()[0].before = prose_latex(sub);
      // The comment at the end of its line, below the formulas, as the handout prints it after the blank.
      if (const std::string note = calls && f->own ? comment_after_field(f->at, comments) : ""; !note.empty())
        items.back()[0].note += (items.back()[0].note.empty() ? "" : "; ") + note;
    }
    body += heading(s) + blocks(items);
    if (unchanged > 0)
      body += fmt::format("{} other field{} as in \\texttt{{{}}}.\n", unchanged, unchanged == 1 ? "" : "s",
                          latex_text(s.origin_expr->items[0]->text));
    body += "\n";
  }
  flush_lets();
  for (const auto& sw : r.sweeps) body += sweep_latex(in, sw) + "\n";
  if (!r.checks.empty() && checks != CheckDisplay::None) body += checks_latex(in, r.checks, beside);
  if (!r.solves.empty()) body += "\n" + solves_latex(in, r.solves);
  return document(body);
}

std::string explain_latex(const ExplainNode& root, bool flat) {
  std::vector<Item> items;
  if (flat) {
    Derivation d = root.derivation;
    if (!d.input) d.substituted = root.flat;
    return document(fmt::format("\\section*{{\\texttt{{{}}}}}\n", latex_text(root.label)) +
                    align({derivation_item(root.label, d)}));
  }
  flatten(root, items);
  std::string body = fmt::format("\\section*{{\\texttt{{{}}}}}\n", latex_text(root.label));
  body += align({items[0]});
  items.erase(items.begin());
  if (!items.empty()) body += "where\n" + blocks(items);
  return document(body);
}

}  // namespace napkin
