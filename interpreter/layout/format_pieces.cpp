#include "format_pieces.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "formatter.hpp"
#include "grammar/diagnostic.hpp"

namespace napkin {
namespace {

constexpr std::array<std::string_view, 11> kStatements = {"import", "let",    "fn",    "unit",  "model", "hardware",
                                                          "scenario", "record", "check", "sweep", "solve"};
// Words after which an expression goes on (`a to`, `x with`, `if c then`).
constexpr std::array<std::string_view, 17> kGoesOn = {"to",     "with", "and", "or",    "not", "then", "else", "if",     "within",
                                                      "for",    "over", "show", "in",   "where", "max", "min",  "extends"};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

struct Line {
  std::size_t begin = 0;   // offset of its first byte
  std::string_view text;   // without its newline
  int depth_before = 0;    // brackets open at its start
  int depth_after = 0;     // and at its end
  bool blank = true;       // only spaces and tabs
  bool comment = false;    // holds a `#` outside a string
  bool run_commented = false;  // a line of its run (the lines between blank ones) holds a comment
};

// The statement keyword the line begins with at its first column, or "".
std::string_view keyword(std::string_view line) {
  for (std::string_view k : kStatements)
    if (line.size() > k.size() && line.substr(0, k.size()) == k && (line[k.size()] == ' ' || line[k.size()] == '\t'))
      return k;
  return {};
}

// Whether what follows the line can only be a new statement: it ends in a
// name, a number, a unit, a closing bracket, a quote or `%`, and not in a
// word that takes more (`to`, `with`, `and`, ...).
bool ends_complete(std::string_view line) {
  const std::size_t last = line.find_last_not_of(" \t\r");
  if (last == std::string_view::npos) return false;
  const char c = line[last];
  if (!is_word_char(c) && c != ')' && c != ']' && c != '}' && c != '"' && c != '%') return false;
  std::size_t w = last + 1;
  while (w > 0 && is_word_char(line[w - 1])) --w;
  const std::string_view word = line.substr(w, last + 1 - w);
  return std::find(kGoesOn.begin(), kGoesOn.end(), word) == kGoesOn.end();
}

// A statement on a line of its own that the layout keeps on one line: laid
// out alone, it is one line (a statement's layout depends on it alone).
bool one_liner(const Line& l) {
  if (keyword(l.text).empty() || l.comment || l.depth_before != 0 || l.depth_after != 0 || !ends_complete(l.text))
    return false;
  try {
    const std::string alone = format_source(SourceFile{"line.napkin", std::string(l.text) + "\n", ""});
    return std::count(alone.begin(), alone.end(), '\n') == 1;
  } catch (const Error&) {
    return false;
  }
}

// The lines of `text` with their bracket depth; false when a bracket closes
// that never opened (the file does not parse: no cut is safe).
bool scan(std::string_view text, std::vector<Line>& lines) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0, begin = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      Line l;
      l.begin = begin;
      l.depth_before = depth;
      l.text = text.substr(begin, i - begin);
      l.blank = l.text.find_first_not_of(" \t\r") == std::string_view::npos;
      bool comment = false;
      in_string = false;  // a string ends on its line
      for (std::size_t k = 0; k < l.text.size() && !comment; ++k) {
        const char c = l.text[k];
        if (in_string) {
          if (c == '\\') ++k;
          else if (c == '"') in_string = false;
        } else if (c == '"') {
          in_string = true;
        } else if (c == '#') {
          comment = true;
        } else if (c == '(' || c == '[' || c == '{') {
          ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
          if (--depth < 0) return false;
        }
      }
      l.comment = comment;
      l.depth_after = depth;
      lines.push_back(l);
      begin = i + 1;
    }
  }
  // Trailing comments line up across a run of lines, so a run that holds
  // one is never cut without a blank line.
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t j = i;
    bool commented = false;
    for (; j < lines.size() && !lines[j].blank; ++j) commented = commented || lines[j].comment;
    for (std::size_t k = i; k < j; ++k) lines[k].run_commented = commented;
    i = j == i ? i + 1 : j;
  }
  return true;
}

}  // namespace

std::vector<FormatPiece> format_pieces(std::string_view text, std::size_t piece_bytes) {
  std::vector<Line> lines;
  if (!scan(text, lines)) return {{text, false}};
  std::vector<FormatPiece> out;
  std::size_t start = 0;      // where the current piece begins
  bool start_blank = false;   // how it joins the one before
  std::size_t prev = static_cast<std::size_t>(-1);  // the last line that is not blank
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.blank) continue;
    const bool can_cut = prev != static_cast<std::size_t>(-1) && lines[prev].depth_after == 0 &&
                         !lines[prev].comment && ends_complete(lines[prev].text) && !keyword(l.text).empty() &&
                         l.begin - start >= piece_bytes;
    if (can_cut) {
      const bool blank = prev + 1 < i;
      bool ok = blank;
      if (!blank && !l.run_commented && one_liner(lines[prev]) && one_liner(l)) {
        // The next statement must be this line alone: what follows starts another.
        std::size_t n = i + 1;
        while (n < lines.size() && lines[n].blank) ++n;
        ok = n == lines.size() || !keyword(lines[n].text).empty();
      }
      if (ok) {
        out.push_back({text.substr(start, l.begin - start), start_blank});
        start = l.begin;
        start_blank = blank;
      }
    }
    prev = i;
  }
  out.push_back({text.substr(start), start_blank});
  return out;
}

}  // namespace napkin
