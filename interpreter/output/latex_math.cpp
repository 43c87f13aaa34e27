#include "latex_math.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "grammar/text_width.hpp"
#include "grammar/utf8.hpp"

namespace napkin {
namespace {

// The UTF-8 character at `i` of a string napkin printed (one byte where
// the bytes there are not one).
std::string_view character(const std::string& s, std::size_t i) {
  const std::size_t n = utf8_sequence(reinterpret_cast<const unsigned char*>(s.data()) + i, s.size() - i);
  return std::string_view(s).substr(i, n == 0 ? 1 : n);
}

// Math-mode spellings of the non-ASCII characters napkin prints.
const char* math_symbol(std::string_view c) {
  static constexpr std::pair<std::string_view, const char*> table[] = {
      {"·", "\\cdot"},  {"×", "\\times"},   {"✗", "\\times"},   {"≈", "\\approx"}, {"≤", "\\le"},
      {"≥", "\\ge"},    {"≲", "\\lesssim"}, {"≳", "\\gtrsim"},  {"∝", "\\propto"}, {"÷", "\\div"},
      {"±", "\\pm"},    {"≠", "\\ne"},      {"→", "\\to"},      {"−", "-"},         {"…", "\\ldots"},
      {"µ", "\\mu"},    {"μ", "\\mu"},      {"²", "^{2}"},      {"³", "^{3}"},      {"✓", "\\checkmark"}};
  for (const auto& [text, latex] : table)
    if (c == text) return latex;
  return nullptr;
}

bool micro(std::string_view c) { return c == "µ" || c == "μ"; }

enum class Tok { Number, Unit, Name, Keyword, String, Open, Close, Caret, Other };

struct Math {
  Tok kind;
  std::string text;  // already LaTeX, except for Number, Unit, Name, Keyword and String
};

std::string number(const std::string& t) {
  std::string out, exp;
  bool percent = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == ',' || c == '_') {
      out += "{,}";
    } else if (c == 'e' || c == 'E') {
      exp = t.substr(i + 1);
      if (!exp.empty() && exp.back() == '%') {
        exp.pop_back();
        percent = true;
      }
      break;
    } else if (c == '%') {
      percent = true;
    } else {
      out += c;
    }
  }
  if (!exp.empty()) out += fmt::format(" \\times 10^{{{}}}", exp[0] == '+' ? exp.substr(1) : exp);
  if (percent) out += "\\,\\%";
  return out;
}

// `TB/s` → `\mathrm{TB/s}`; `s^2` → `\mathrm{s}^{2}`; `B*s` → `\mathrm{B}{\cdot}\mathrm{s}`.
std::string unit(const std::string& u) {
  std::string out, run;
  auto flush = [&] {
    if (!run.empty()) out += "\\mathrm{" + run + "}";
    run.clear();
  };
  for (std::size_t i = 0; i < u.size();) {
    const char c = u[i];
    if (c == '^') {
      flush();
      std::size_t j = i + 1;
      if (j < u.size() && u[j] == '-') ++j;
      while (j < u.size() && std::isdigit(static_cast<unsigned char>(u[j]))) ++j;
      out += "^{" + u.substr(i + 1, j - i - 1) + "}";
      i = j;
      continue;
    }
    if (c == '*') {
      flush();
      out += "{\\cdot}";
    } else if (c == '%' || c == '$' || c == '_' || c == '#' || c == '&') {
      run += std::string("\\") + c;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      const std::string_view ch = character(u, i);
      run += micro(ch) ? "\\text{\\textmu}" : "?";
      i += ch.size();
      continue;
    } else {
      run += c;
    }
    ++i;
  }
  flush();
  return "\\," + out;
}

std::string op(const std::string& o) {
  if (o == "·" || o == "*") return "\\cdot";
  if (o == "->") return "\\to";
  if (o == "==") return "=";
  if (o == "!=") return "\\ne";
  if (o == "<=") return "\\le";
  if (o == ">=") return "\\ge";
  if (o == "≈") return "\\approx";
  if (o == "–") return "\\text{--}";  // a range's interval, 3,022–3,400
  return o;
}

std::string other(const std::string& o) {
  if (o == "{" || o == "}" || o == "$") return "\\" + o;
  return o;
}

// A token of the stream as LaTeX sees it: a parenthesis groups an
// exponent; brackets and braces are only characters.
Math typed(const napkin::Token& t) {
  using K = napkin::Token::Kind;
  switch (t.kind) {
    case K::Number: return {Tok::Number, t.text};
    case K::Unit: return {Tok::Unit, t.text};
    case K::Name: return {Tok::Name, t.text};
    case K::Keyword: return {Tok::Keyword, t.text};
    case K::String: return {Tok::String, t.text};
    case K::Text: return {Tok::Other, "\\text{" + latex_text(t.text) + "}"};
    case K::Open: return t.text == "(" ? Math{Tok::Open, "("} : Math{Tok::Other, other(t.text)};
    case K::Close: return t.text == ")" ? Math{Tok::Close, ")"} : Math{Tok::Other, other(t.text)};
    case K::Caret: return {Tok::Caret, "^"};
    case K::Operator: return {Tok::Other, op(t.text)};
    case K::Punct: return {Tok::Other, other(t.text)};
  }
  return {Tok::Other, t.text};
}

std::string render(const Math& t) {
  switch (t.kind) {
    case Tok::Number: return number(t.text);
    case Tok::Unit: return unit(t.text);
    case Tok::Name: return "\\text{" + latex_text(t.text) + "}";
    case Tok::Keyword: return "\\ \\text{" + t.text + "}\\ ";
    case Tok::String: return "\\text{``" + latex_text(t.text) + "''}";
    default: return t.text;
  }
}

// Renders tokens [i, end); a caret takes the operand after it as its exponent.
std::string render_range(const std::vector<Math>& toks, std::size_t i, std::size_t end) {
  std::string out;
  auto add = [&](const std::string& t) {
    if (!out.empty() && !t.empty() && t[0] != '^' && t.rfind("\\,", 0) != 0) out += ' ';
    out += t;
  };
  while (i < end) {
    if (toks[i].kind == Tok::Keyword && (out.empty() || (i > 0 && toks[i - 1].kind == Tok::Open))) {
      add("\\text{" + toks[i].text + "}\\ ");  // no space before `if` that opens a formula or bracket
      ++i;
      continue;
    }
    if (toks[i].kind != Tok::Caret) {
      add(render(toks[i]));
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    if (j < end && toks[j].text == "-") ++j;
    if (j < end && toks[j].kind == Tok::Open) {
      int depth = 0;
      for (; j < end; ++j) {
        if (toks[j].kind == Tok::Open) ++depth;
        if (toks[j].kind == Tok::Close && --depth == 0) break;
      }
    }
    j = std::min(j + 1, end);
    out += "^{" + render_range(toks, i + 1, j) + "}";
    i = j;
  }
  return out;
}

// ---- line breaking ----------------------------------------------------------

using Line = Tokens;

// Characters of tokens [a, b) as printed, the first without its space.
std::size_t length(const Line& l, std::size_t a, std::size_t b) {
  std::size_t n = 0;
  for (std::size_t i = a; i < b; ++i)
    n += (i > a && l[i].space ? 1 : 0) + static_cast<std::size_t>(display_width(l[i].text));
  return n;
}

// Where a piece may begin: at one of `words` between spaces, or after a
// comma (when `words` holds ","), outside brackets or at most `max_depth` deep.
std::vector<std::size_t> top_level(const Line& l, const std::vector<std::string>& words, int max_depth) {
  using K = napkin::Token::Kind;
  std::vector<std::size_t> at;
  const bool commas = std::find(words.begin(), words.end(), ",") != words.end();
  const int base = l.empty() ? 0 : l.front().depth;
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (l[i].depth - base > max_depth) continue;
    if (commas && l[i].kind == K::Punct && l[i].text == "," && i + 1 < l.size() && l[i + 1].space)
      at.push_back(i + 1);
    const bool word = l[i].kind == K::Operator || l[i].kind == K::Keyword;
    if (i > 0 && word && l[i].space && i + 1 < l.size() && l[i + 1].space &&
        std::find(words.begin(), words.end(), l[i].text) != words.end())
      at.push_back(i);
  }
  std::sort(at.begin(), at.end());
  return at;
}

// Greedy: cut before the last operator that keeps a piece within width.
std::vector<Line> split_at(const Line& l, std::size_t width, const std::vector<std::string>& ops, int max_depth = 0) {
  std::vector<std::size_t> cuts;
  std::size_t start = 0, last = 0;
  bool any = false;
  for (std::size_t at : top_level(l, ops, max_depth)) {
    if (length(l, start, at) > width && any && last > start) {
      cuts.push_back(last);
      start = last;
    }
    last = at;
    any = true;
  }
  if (any && last > start && length(l, start, l.size()) > width) cuts.push_back(last);
  std::vector<Line> out;
  start = 0;
  for (std::size_t at : cuts) {
    out.emplace_back(l.begin() + static_cast<std::ptrdiff_t>(start), l.begin() + static_cast<std::ptrdiff_t>(at));
    start = at;
  }
  out.emplace_back(l.begin() + static_cast<std::ptrdiff_t>(start), l.end());
  return out;
}

}  // namespace

std::string latex_math(const Tokens& line) {
  std::vector<Math> toks;
  toks.reserve(line.size());
  for (const auto& t : line) toks.push_back(typed(t));
  // A range's interval, `(90%: 60–85)` after its median: set off by a space,
  // its level without the thin space of a value (`90\%`), a colon as text.
  for (std::size_t i = 0; i + 2 < line.size(); ++i)
    if (line[i].kind == napkin::Token::Kind::Open && line[i].text == "(" &&
        line[i + 1].kind == napkin::Token::Kind::Number && line[i + 2].kind == napkin::Token::Kind::Punct &&
        line[i + 2].text == ":") {
      toks[i] = {Tok::Other, "\\ ("};
      std::string level = number(line[i + 1].text);
      if (const std::size_t thin = level.find("\\,\\%"); thin != std::string::npos) level.replace(thin, 2, "");
      toks[i + 1] = {Tok::Other, level};
      toks[i + 2] = {Tok::Other, "\\text{:}\\ "};
    }
  return render_range(toks, 0, toks.size());
}

std::string latex_math(const Term& t) { return latex_math(t.tokens); }

std::vector<Line> break_lines(const Term& t, std::size_t width) {
  Line all = t.tokens;
  const bool conditional = !all.empty() && all[0].kind == napkin::Token::Kind::Keyword && all[0].text == "if";
  std::vector<Line> pieces = conditional ? split_at(all, 0, {"then", "else"}) : std::vector<Line>{std::move(all)};
  // A chain of conditions (`a and b and c`) breaks before its `and` and
  // `or` first; sums before + and -; what is still too long, before / and
  // ·; and then inside parentheses, a level at a time (a flat line nests a
  // sum up to eight deep), so that no line runs into the margin (the LaTeX
  // test fails on an overfull box).
  const std::vector<std::string> logic{"or", "and"}, sums{"+", "-"}, products{"/", "·"}, lists{","};
  for (int depth = 0; depth <= 8; ++depth)
    for (const auto* ops : {&logic, &sums, &products, &lists}) {
      std::vector<Line> next;
      for (auto& p : pieces) {
        if (length(p, 0, p.size()) <= width) {
          next.push_back(std::move(p));
          continue;
        }
        for (auto& part : split_at(p, width, *ops, depth)) next.push_back(std::move(part));
      }
      pieces = std::move(next);
    }
  return pieces;
}

std::string latex_text(const std::string& text, std::string_view underscore) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const std::string_view ch = character(text, i);
      // U+00C0 to U+00FF: Latin-1 letters (bar × and ÷), which pdflatex's utf8 input reads.
      const bool latin1 = ch.size() == 2 && static_cast<unsigned char>(ch[0]) == 0xC3 && ch != "×" && ch != "÷";
      if (micro(ch))
        out += "\\textmu{}";
      else if (ch == "—")
        out += "---";
      else if (ch == "–")
        out += "--";
      else if (ch == "…")
        out += "\\ldots{}";
      else if (latin1)
        out += ch;
      else if (const char* m = math_symbol(ch))
        out += std::string("$") + m + "$";
      else
        out += "?";
      i += ch.size();
      continue;
    }
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '_': out += underscore; break;
      case '%': case '$': case '#': case '&': out += std::string("\\") + c; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '<': out += "\\textless{}"; break;
      case '>': out += "\\textgreater{}"; break;
      case '|': out += "\\textbar{}"; break;
      case '"': out += "''"; break;
      default:
        // A control character stops pdflatex or, a line break doubled, ends
        // the paragraph (and the align* around it): shown as its escape.
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
          out += c == '\n' ? std::string("\\textbackslash{}n") : c == '\t' ? std::string("\\textbackslash{}t")
                            : fmt::format("\\textbackslash{{}}x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
        break;
    }
    ++i;
  }
  return out;
}

}  // namespace napkin
