// A handout as text, Markdown and LaTeX. Every word from the file is
// escaped for the format (Markdown: HTML's `<`, `>` and `&`, and what would
// start a list or emphasis; LaTeX: its special characters), and control
// characters become `?`, so that no comment can change the document.
#include <fmt/format.h>

#include "handout.hpp"
#include "latex_math.hpp"
#include "prose.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

using Kind = HandoutItem::Kind;

std::string clean(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\t' ? ' ' : (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  return out;
}

// What an answer's blank says after it: its unit, or what kind of value it is.
std::string expected(const HandoutItem& it) {
  if (!it.unit.empty()) return it.unit;
  if (!it.expects.empty()) return "(" + it.expects + ")";
  return "";
}

// "[2 points]" beside a blank, as the checks that pin it are worth.
std::string points(const HandoutItem& it) {
  if (it.points <= 0) return "";
  return fmt::format("[{} point{}]", it.points, it.points == 1 ? "" : "s");
}

}  // namespace

std::string handout_text(const Handout& h) {
  std::string out = clean(h.title) + "\n";
  for (const auto& p : h.intro) out += "\n" + clean(p) + "\n";
  for (const auto& s : h.sections) {
    out += "\n" + clean(handout_heading(s)) + "\n";
    if (!s.origin.empty()) out += "    " + clean(s.name + " = " + text(s.origin)) + "\n";
    // Names in a run of fields line up on their `=`.
    for (std::size_t i = 0; i < s.items.size();) {
      if (s.items[i].kind == Kind::Question) {
        for (const auto& p : s.items[i].paragraphs) out += "  " + clean(p) + "\n";
        ++i;
        continue;
      }
      std::size_t end = i, pad = 0;
      for (; end < s.items.size() && s.items[end].kind != Kind::Question; ++end)
        pad = std::max(pad, code_points(s.items[end].name));
      for (; i < end; ++i) {
        const HandoutItem& it = s.items[i];
        std::string line = "    " + it.name;
        if (it.kind != Kind::Answer && it.shown.empty()) {  // a record the formulas name: its figures follow
          out += clean(line) + "\n";
          for (const auto& [name, value] : it.figures) out += clean("      " + name + " = " + text(value)) + "\n";
          continue;
        }
        line += std::string(pad - code_points(it.name), ' ') + " = ";
        if (it.kind == Kind::Answer) {
          line += "____________";
          if (!expected(it).empty()) line += " " + expected(it);
          if (!points(it).empty()) line += "  " + points(it);
        } else {
          line += text(it.shown);
        }
        if (!it.note.empty()) line += "  # " + it.note;
        out += clean(line) + "\n";
        for (const auto& [name, value] : it.figures) out += clean("      " + name + " = " + text(value)) + "\n";
      }
    }
  }
  return out;
}

// ---- Markdown ---------------------------------------------------------------

namespace {

std::string md(const std::string& raw) {
  const std::string s = clean(raw);
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // `code` in a comment stays code: inside a code span nothing is markup.
    if (const std::size_t close = c == '`' ? s.find('`', i + 1) : std::string::npos;
        close != std::string::npos && close > i + 1) {
      out += s.substr(i, close + 1 - i);
      i = close;
      continue;
    }
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (std::string_view("\\`*_[]|#~$").find(c) != std::string_view::npos) out += std::string("\\") + c;
    else out += c;
  }
  // `1. Parameters` and `- x` at the start of a paragraph would be a list, `+` too.
  std::size_t digits = 0;
  while (digits < out.size() && std::isdigit(static_cast<unsigned char>(out[digits]))) ++digits;
  if (digits > 0 && digits < out.size() && (out[digits] == '.' || out[digits] == ')')) out.insert(digits, "\\");
  else if (!out.empty() && (out[0] == '-' || out[0] == '+' || out[0] == '=')) out.insert(0, "\\");
  return out;
}

std::string code(const std::string& raw) {
  const std::string s = clean(raw);
  std::size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

// The file's words in the light Markdown a solution sheet writes them in
// (prose.hpp): `code`, *emphasis*, 10^9 as 10⁹; every other character as itself.
std::string md_prose(const std::string& raw) { return prose_markdown(clean(raw)); }

}  // namespace

std::string handout_markdown(const Handout& h) {
  std::string out = "# " + md_prose(h.title) + "\n";
  for (const auto& p : h.intro) out += "\n" + md_prose(p) + "\n";
  for (const auto& s : h.sections) {
    out += "\n## " + (s.kind == SectionKind::lets      ? std::string("values")
                       : s.title.empty() ? code(s.name)
                                         : md_prose(s.title) + " (" + code(s.name) + ")") + "\n";
    bool list = false;
    if (!s.origin.empty()) {
      out += "\n- " + code(s.name + " = " + text(s.origin)) + "\n";
      list = true;
    }
    for (const auto& it : s.items) {
      if (it.kind == Kind::Question) {
        for (const auto& p : it.paragraphs) out += "\n" + md_prose(p) + "\n";
        list = false;
        continue;
      }
      if (!list) out += "\n";
      list = true;
      out += "- " + code(it.name) + (it.kind != Kind::Answer && it.shown.empty() ? "" : " = ");
      if (it.kind != Kind::Answer && it.shown.empty()) {
        // a record the formulas name: its figures follow
      } else if (it.kind == Kind::Answer) {
        out += "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_" + (expected(it).empty() ? "" : " " + md(expected(it)));
        if (!points(it).empty()) out += " " + md(points(it));
      } else if (it.shown.value) {
        out += md(text(it.shown));
      } else {
        out += code(text(it.shown));
      }
      if (!it.note.empty()) out += " — " + md_prose(it.note);
      out += "\n";
      for (const auto& [name, value] : it.figures) out += "  - " + code(name) + " = " + md(text(value)) + "\n";
    }
  }
  return out;
}

// ---- LaTeX ------------------------------------------------------------------

namespace {

std::string tex(const std::string& s) { return latex_text(clean(s)); }

// A name or formula in the typewriter face, which may break at its spaces.
// Its underscores are the face's own (\char95): \_ draws a rule that
// reads as a space between the letters.
std::string tt(const std::string& s) {
  return "\\texttt{" + latex_text(clean(s), "{\\char95}\\allowbreak{}") + "}";
}

// The file's words, in the light Markdown the solution sheet sets them in.
std::string tex_prose(const std::string& raw) { return prose_latex(clean(raw)); }

// A unit after a blank, a word's space from it: `~GiB`, `~\%`.
std::string unit_math(const std::string& unit) {
  if (unit == "%") return "~\\%";
  Token u;
  u.kind = Token::Kind::Unit;
  u.text = unit;
  std::string m = latex_math(Tokens{u});
  if (m.rfind("\\,", 0) == 0) m.erase(0, 2);
  return "~$" + m + "$";
}

}  // namespace

std::string handout_latex(const Handout& h) {
  std::string body = "\\section*{" + tex_prose(h.title) + "}\n";
  for (const auto& p : h.intro) body += tex_prose(p) + "\n\n";
  for (const auto& s : h.sections) {
    const std::string head = s.kind == SectionKind::lets      ? std::string("values")
                             : s.title.empty() ? tt(s.name)
                                               : tex_prose(s.title) + " (" + tt(s.name) + ")";
    body += "\\subsection*{" + head + "}\n";
    if (!s.origin.empty()) body += "\\noindent " + tt(s.name + " = " + text(s.origin)) + "\n\n";
    for (const auto& it : s.items) {
      if (it.kind == Kind::Question) {
        for (const auto& p : it.paragraphs) body += "\\medskip\\noindent " + tex_prose(p) + "\\par\\smallskip\n";
        continue;
      }
      // Each field a paragraph of its own, a long formula wrapping under itself.
      const bool named = it.kind != Kind::Answer && it.shown.empty();  // a record the formulas name
      std::string line = "\\noindent\\hangindent=2em\\hspace*{1em}" + tt(it.name) + (named ? "" : " = ");
      if (named) {
        // its figures follow
      } else if (it.kind == Kind::Answer) {
        line += "\\rule{4.5cm}{0.4pt}";
        if (!it.unit.empty()) line += unit_math(it.unit);
        else if (!it.expects.empty()) line += " (" + tex(it.expects) + ")";
        if (!points(it).empty()) line += "\\quad " + tex(points(it));
      } else if (it.shown.value) {
        line += "$" + latex_math(it.shown) + "$";
      } else {
        line += tt(text(it.shown));
      }
      if (!it.note.empty()) line += "\\quad{\\small " + tex_prose(it.note) + "}";
      body += line + "\\par\\medskip\n";
      for (const auto& [name, value] : it.figures)
        body += "\\noindent\\hspace*{3em}" + tt(name) + " = $" + latex_math(value) + "$\\par\n";
    }
  }
  return "% Compiles as it is (pdflatex; amsmath, amssymb and geometry).\n"
         "\\documentclass{article}\n"
         "\\usepackage{amsmath,amssymb}\n"
         "\\usepackage[margin=2cm]{geometry}\n"
         "\\begin{document}\n"
         "\\sloppy\n\n" +
         body + "\\end{document}\n";
}

}  // namespace napkin
