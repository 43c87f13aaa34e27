// A handout as text, Markdown and LaTeX. Every word from the file is
// escaped for the format (Markdown: HTML's `<`, `>` and `&`, and what would
// start a list or emphasis; LaTeX: its special characters), and control
// characters become `?`, so that no comment can change the document.
#include <fmt/format.h>

#include "handout.hpp"
#include "latex_math.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

using Kind = HandoutItem::Kind;

std::string clean(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\t' ? ' ' : (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  return out;
}

std::string heading(const HandoutSection& s, const std::string& name_open, const std::string& name_close) {
  if (s.kind == "let") return "values";
  std::string h = s.kind + " " + name_open + s.name + name_close;
  if (!s.origin.empty()) h += " = " + name_open + text(s.origin) + name_close;
  if (!s.base.empty()) h += " extends " + name_open + s.base + name_close;
  return h;
}

// What an answer's blank says after it: its unit, or what kind of value it is.
std::string expected(const HandoutItem& it) {
  if (!it.unit.empty()) return it.unit;
  if (!it.expects.empty()) return "(" + it.expects + ")";
  return "";
}

// ---- text -------------------------------------------------------------------

std::size_t width(const std::string& s) {
  return code_points(s);
}

}  // namespace

std::string handout_text(const Handout& h) {
  std::string out = clean(h.title) + "\n";
  for (const auto& p : h.intro) out += "\n" + clean(p) + "\n";
  for (const auto& s : h.sections) {
    out += "\n" + clean(heading(s, "", "")) + "\n";
    // Names in a run of fields line up on their `=`.
    for (std::size_t i = 0; i < s.items.size();) {
      if (s.items[i].kind == Kind::Question) {
        for (const auto& p : s.items[i].paragraphs) out += "  " + clean(p) + "\n";
        ++i;
        continue;
      }
      std::size_t end = i, pad = 0;
      for (; end < s.items.size() && s.items[end].kind != Kind::Question; ++end)
        pad = std::max(pad, width(s.items[end].name));
      for (; i < end; ++i) {
        const HandoutItem& it = s.items[i];
        std::string line = "    " + it.name + std::string(pad - width(it.name), ' ') + " = ";
        if (it.kind == Kind::Answer) {
          line += "____________";
          if (!expected(it).empty()) line += " " + expected(it);
        } else {
          line += text(it.shown);
        }
        if (!it.note.empty()) line += "  # " + it.note;
        out += clean(line) + "\n";
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

}  // namespace

std::string handout_markdown(const Handout& h) {
  std::string out = "# " + md(h.title) + "\n";
  for (const auto& p : h.intro) out += "\n" + md(p) + "\n";
  for (const auto& s : h.sections) {
    std::string head = s.kind == "let" ? "values" : md(s.kind) + " " + code(s.name);
    if (!s.origin.empty()) head += " = " + code(text(s.origin));
    if (!s.base.empty()) head += " extends " + code(s.base);
    out += "\n## " + head + "\n";
    bool list = false;
    for (const auto& it : s.items) {
      if (it.kind == Kind::Question) {
        for (const auto& p : it.paragraphs) out += "\n" + md(p) + "\n";
        list = false;
        continue;
      }
      if (!list) out += "\n";
      list = true;
      out += "- " + code(it.name) + " = ";
      if (it.kind == Kind::Answer)
        out += "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_" + (expected(it).empty() ? "" : " " + md(expected(it)));
      else if (it.shown.value)
        out += md(text(it.shown));
      else
        out += code(text(it.shown));
      if (!it.note.empty()) out += " — " + md(it.note);
      out += "\n";
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

// The file's words: `code` in a comment is set as code.
std::string prose(const std::string& raw) {
  const std::string s = clean(raw);
  std::string out;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t open = s.find('`', at);
    const std::size_t close = open == std::string::npos ? open : s.find('`', open + 1);
    if (close == std::string::npos) {
      out += tex(s.substr(at));
      break;
    }
    out += tex(s.substr(at, open - at)) + tt(s.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

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
  std::string body = "\\section*{" + tex(h.title) + "}\n";
  for (const auto& p : h.intro) body += prose(p) + "\n\n";
  for (const auto& s : h.sections) {
    std::string head = s.kind == "let" ? "values" : tex(s.kind) + " " + tt(s.name);
    if (!s.base.empty()) head += " extends " + tt(s.base);
    body += "\\subsection*{" + head + "}\n";
    if (!s.origin.empty()) body += "\\noindent " + tt(s.name + " = " + text(s.origin)) + "\n\n";
    for (const auto& it : s.items) {
      if (it.kind == Kind::Question) {
        for (const auto& p : it.paragraphs) body += "\\medskip\\noindent " + prose(p) + "\\par\\smallskip\n";
        continue;
      }
      // Each field a paragraph of its own, a long formula wrapping under itself.
      std::string line = "\\noindent\\hangindent=2em\\hspace*{1em}" + tt(it.name) + " = ";
      if (it.kind == Kind::Answer) {
        line += "\\rule{4.5cm}{0.4pt}";
        if (!it.unit.empty()) line += unit_math(it.unit);
        else if (!it.expects.empty()) line += " (" + tex(it.expects) + ")";
      } else if (it.shown.value) {
        line += "$" + latex_math(it.shown) + "$";
      } else {
        line += tt(text(it.shown));
      }
      if (!it.note.empty()) line += "\\quad{\\small " + prose(it.note) + "}";
      body += line + "\\par\\medskip\n";
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
