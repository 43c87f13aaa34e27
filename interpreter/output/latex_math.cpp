#include "latex_math.hpp"

#include <fmt/format.h>

#include <cctype>
#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace napkin {
namespace {

// One UTF-8 code point at `i`, and how many bytes it takes.
std::pair<char32_t, std::size_t> decode(const std::string& s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  if (i + n > s.size()) return {0xFFFD, 1};
  char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return {c, n};
}

// Math-mode spellings of the non-ASCII characters napkin prints.
const char* math_symbol(char32_t c) {
  switch (c) {
    case U'·': return "\\cdot";
    case U'×': case U'✗': return "\\times";
    case U'≈': return "\\approx";
    case U'≤': return "\\le";
    case U'≥': return "\\ge";
    case U'≲': return "\\lesssim";
    case U'≳': return "\\gtrsim";
    case U'∝': return "\\propto";
    case U'÷': return "\\div";
    case U'±': return "\\pm";
    case U'≠': return "\\ne";
    case U'→': return "\\to";
    case U'−': return "-";
    case U'–': return "\\text{--}";  // a range's interval, 121–150
    case U'…': return "\\ldots";
    case U'µ': case U'μ': return "\\mu";
    case U'²': return "^{2}";
    case U'³': return "^{3}";
    case U'✓': return "\\checkmark";
    default: return nullptr;
  }
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }

const std::set<std::string>& keywords() {
  static const std::set<std::string> k{"if", "then", "else", "and", "or", "not", "with", "within", "in", "to"};
  return k;
}

enum class Tok { Number, Unit, Name, Keyword, String, Open, Close, Caret, Other };

struct Token {
  Tok kind;
  std::string text;  // already LaTeX, except for Number, Unit, Name and String
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
      while (j < u.size() && is_digit(u[j])) ++j;
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
      auto [cp, n] = decode(u, i);
      run += (cp == U'µ' || cp == U'μ') ? "\\text{\\textmu}" : "?";
      i += n;
      continue;
    } else {
      run += c;
    }
    ++i;
  }
  flush();
  return "\\," + out;
}

std::string name(const std::string& n) { return "\\text{" + latex_text(n) + "}"; }

// Where a unit may follow: one space after a number, or after `->`.
bool unit_starts(const std::string& s, std::size_t i) {
  if (i >= s.size()) return false;
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == '%' || c == '$' || std::isalpha(c)) return true;
  return c >= 0x80 && (decode(s, i).first == U'µ' || decode(s, i).first == U'μ');
}

std::size_t unit_end(const std::string& s, std::size_t i) {
  while (i < s.size() && s[i] != ' ' && s[i] != ')' && s[i] != ',' && s[i] != ']' && s[i] != '}') ++i;
  return i;
}

std::vector<Token> lex(const std::string& s) {
  std::vector<Token> out;
  bool unit_next = false;  // the previous token was a number or `->`
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == ' ') {
      // Exactly one space: `5.3 TB/s`. A keyword is never a unit.
      if (unit_next && unit_starts(s, i + 1)) {
        const std::size_t e = unit_end(s, i + 1);
        const std::string word = s.substr(i + 1, e - i - 1);
        if (!keywords().count(word)) {
          out.push_back({Tok::Unit, word});
          i = e;
          unit_next = false;
          continue;
        }
      }
      unit_next = false;
      ++i;
      continue;
    }
    if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      std::size_t j = i;
      while (j < s.size()) {
        const char d = s[j];
        if (is_digit(d) || d == '.') {
          ++j;
        } else if ((d == ',' || d == '_') && j + 1 < s.size() && is_digit(s[j + 1])) {
          ++j;
        } else if ((d == 'e' || d == 'E') && j + 1 < s.size() &&
                   (is_digit(s[j + 1]) || ((s[j + 1] == '-' || s[j + 1] == '+') && j + 2 < s.size() && is_digit(s[j + 2])))) {
          j += 2;
        } else {
          break;
        }
      }
      if (j < s.size() && s[j] == '%') ++j;
      out.push_back({Tok::Number, s.substr(i, j - i)});
      i = j;
      unit_next = s[j - 1] != '%';
      continue;
    }
    unit_next = false;
    if (is_alpha(c)) {
      std::size_t j = i;
      while (j < s.size() && (is_alpha(s[j]) || is_digit(s[j]) || (s[j] == '.' && j + 1 < s.size() && is_alpha(s[j + 1]))))
        ++j;
      const std::string word = s.substr(i, j - i);
      out.push_back({keywords().count(word) ? Tok::Keyword : Tok::Name, word});
      i = j;
      continue;
    }
    if (c == '"') {
      std::string body;
      std::size_t j = i + 1;
      for (; j < s.size() && s[j] != '"'; ++j) {
        if (s[j] == '\\' && j + 1 < s.size()) ++j;
        body += s[j];
      }
      out.push_back({Tok::String, body});
      i = j + 1;
      continue;
    }
    const std::string two = s.substr(i, 2);
    if (two == "->") {
      out.push_back({Tok::Other, "\\to"});
      unit_next = true;
      i += 2;
      continue;
    }
    if (two == "<=" || two == ">=" || two == "==" || two == "!=") {
      out.push_back({Tok::Other, two == "<=" ? "\\le" : two == ">=" ? "\\ge" : two == "==" ? "=" : "\\ne"});
      i += 2;
      continue;
    }
    if (static_cast<unsigned char>(c) >= 0x80) {
      auto [cp, n] = decode(s, i);
      const char* m = math_symbol(cp);
      out.push_back({Tok::Other, m ? m : "\\text{?}"});
      i += n;
      continue;
    }
    switch (c) {
      case '(': out.push_back({Tok::Open, "("}); break;
      case ')': out.push_back({Tok::Close, ")"}); break;
      case '^': out.push_back({Tok::Caret, "^"}); break;
      case '*': out.push_back({Tok::Other, "\\cdot"}); break;
      case '{': out.push_back({Tok::Other, "\\{"}); break;
      case '}': out.push_back({Tok::Other, "\\}"}); break;
      case '%': case '$': case '#': case '&': case '_': out.push_back({Tok::Other, std::string("\\") + c}); break;
      case '~': out.push_back({Tok::Other, "\\sim"}); break;
      case '\\': out.push_back({Tok::Other, "\\backslash"}); break;
      default: out.push_back({Tok::Other, std::string(1, c)}); break;
    }
    ++i;
  }
  return out;
}

std::string render(const Token& t) {
  switch (t.kind) {
    case Tok::Number: return number(t.text);
    case Tok::Unit: return unit(t.text);
    case Tok::Name: return name(t.text);
    case Tok::Keyword: return "\\ \\text{" + t.text + "}\\ ";
    case Tok::String: return "\\text{``" + latex_text(t.text) + "''}";
    default: return t.text;
  }
}

// Renders tokens [i, end); a caret takes the operand after it as its exponent.
std::string render_range(const std::vector<Token>& toks, std::size_t i, std::size_t end) {
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

}  // namespace

std::string latex_math(const std::string& text) {
  const auto toks = lex(text);
  return render_range(toks, 0, toks.size());
}

std::string latex_text(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      auto [cp, n] = decode(text, i);
      if (cp == U'µ' || cp == U'μ')
        out += "\\textmu{}";
      else if (cp == U'—')
        out += "---";
      else if (cp == U'–')
        out += "--";
      else if (cp == U'…')
        out += "\\ldots{}";
      else if (cp >= 0xC0 && cp <= 0xFF && cp != U'×' && cp != U'÷')
        out += text.substr(i, n);  // Latin-1 letters: pdflatex's utf8 input reads them
      else if (const char* m = math_symbol(cp))
        out += std::string("$") + m + "$";
      else
        out += "?";
      i += n;
      continue;
    }
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '_': case '%': case '$': case '#': case '&': out += std::string("\\") + c; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '<': out += "\\textless{}"; break;
      case '>': out += "\\textgreater{}"; break;
      case '|': out += "\\textbar{}"; break;
      case '"': out += "''"; break;
      default: out += c; break;
    }
    ++i;
  }
  return out;
}

}  // namespace napkin

namespace napkin {
namespace {

std::size_t length(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Positions of ` word ` outside brackets and strings.
// Where `words` stand between spaces, outside brackets (or at any depth
// below `max_depth`).
std::vector<std::size_t> top_level(const std::string& s, const std::vector<std::string>& words, int max_depth = 0) {
  std::vector<std::size_t> at;
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"' && (i == 0 || s[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    // A comma of a list or a `with` block: cut after it.
    if (c == ',' && depth <= max_depth && i + 1 < s.size() && s[i + 1] == ' ' &&
        std::find(words.begin(), words.end(), ",") != words.end())
      at.push_back(i + 1);
    if (depth > max_depth || c != ' ') continue;
    for (const auto& w : words)
      if (s.compare(i + 1, w.size() + 1, w + " ") == 0) at.push_back(i);
  }
  return at;
}

// Greedy: cut before the last operator that keeps a piece within width.
std::vector<std::string> split_at(const std::string& text, std::size_t width, const std::vector<std::string>& ops,
                                  int max_depth = 0) {
  std::vector<std::size_t> cuts;
  std::size_t start = 0, last = std::string::npos;
  for (std::size_t at : top_level(text, ops, max_depth)) {
    if (length(text.substr(start, at - start)) > width && last != std::string::npos && last >= start) {
      cuts.push_back(last);
      start = last + 1;
    }
    last = at;
  }
  if (last != std::string::npos && last >= start && length(text.substr(start)) > width) cuts.push_back(last);
  std::vector<std::string> out;
  start = 0;
  for (std::size_t at : cuts) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

std::vector<std::string> break_lines(const std::string& text, std::size_t width) {
  std::vector<std::string> pieces = text.rfind("if ", 0) == 0 ? split_at(text, 0, {"then", "else"}) : std::vector{text};
  // Sums break before + and -; what is still too long, before / and ·;
  // and then inside parentheses, a level at a time, so that no line runs
  // into the margin (the LaTeX test fails on an overfull box).
  const std::vector<std::string> sums{"+", "-"}, products{"/", "·"}, lists{","};
  for (int depth = 0; depth <= 3; ++depth)
    for (const auto* ops : {&sums, &products, &lists}) {
      std::vector<std::string> next;
      for (const auto& p : pieces) {
        auto parts = length(p) > width ? split_at(p, width, *ops, depth) : std::vector{p};
        next.insert(next.end(), parts.begin(), parts.end());
      }
      pieces = std::move(next);
    }
  return pieces;
}

}  // namespace napkin
