#include "wrap.hpp"

#include <optional>

#include "formatter.hpp"
#include "grammar/text_width.hpp"
#include "grammar/tokens.hpp"

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;
using K = Token::Kind;

// A run of consecutive tokens of one stream.
struct Run {
  const Token* begin;
  const Token* end;
};

Run all(const Tokens& t) { return {t.data(), t.data() + t.size()}; }
std::string text(Run r) { return token_text(r.begin, r.end); }

// The run cut before its loosest operators outside brackets:
// "a + b * c - d" → "a", "+ b * c", "- d". An `if`, a measurement and an
// argument list are not cut: a break inside one argument would read as a
// break between arguments.
std::vector<Run> pieces(Run r) {
  if (r.begin == r.end) return {r};
  const Token& first = *r.begin;
  if (first.kind == K::Keyword && first.text == "if") return {r};
  if (first.kind == K::Name && first.text == "measure" && r.begin + 1 != r.end && r.begin[1].kind == K::Open)
    return {r};
  const int base = first.depth;
  int loosest = -1;
  for (const Token* t = r.begin; t != r.end; ++t) {
    if (t->depth != base) continue;
    if (t->kind == K::Punct && t->text == ",") return {r};
    if (t->breaks >= 0 && t != r.begin && (loosest < 0 || t->breaks < loosest)) loosest = t->breaks;
  }
  if (loosest < 0) return {r};
  std::vector<Run> out;
  const Token* start = r.begin;
  for (const Token* t = r.begin + 1; t != r.end; ++t)
    if (t->depth == base && t->breaks == loosest) {
      out.push_back({start, t});
      start = t;
    }
  out.push_back({start, r.end});
  return out;
}

// `f(a, b)` → "f(", "a, b", ")": the bracketed group that ends the run.
struct Group {
  Run open, inner, close;
};

std::optional<Group> last_group(Run r) {
  if (r.begin == r.end) return std::nullopt;
  const Token* close = r.end - 1;
  if (close->kind != K::Close || (close->text != ")" && close->text != "]")) return std::nullopt;
  for (const Token* t = close; t != r.begin;) {
    --t;
    if (t->kind == K::Open && t->depth == close->depth) return Group{{r.begin, t + 1}, {t + 1, close}, {close, r.end}};
  }
  return std::nullopt;
}

// Puts `part` at the end of the last line if it fits there, else on a
// continuation line at `cont`; a part too long for any line is broken
// inside its last brackets. The first part of a value stays beside its `=`.
void place(std::vector<Line>& out, int cont, Run part, bool first) {
  const std::string t = text(part);
  Line& line = out.back();
  const bool bare = line.text.empty() || line.text.back() == ' ';
  const std::string sep = bare ? "" : " ";
  if (width(line) + display_width(sep + t) <= kFormatWidth) {
    line.text += sep + t;
    return;
  }
  if (!first && cont + display_width(t) <= kFormatWidth) {
    out.push_back({cont, t});
    return;
  }
  if (auto g = last_group(part)) {
    const std::vector<Run> inner = pieces(g->inner);
    if (inner.size() > 1) {
      place(out, cont, {part.begin, inner[0].end}, first);
      for (std::size_t i = 1; i < inner.size(); ++i)
        place(out, cont, {inner[i].begin, i + 1 == inner.size() ? part.end : inner[i].end}, false);
      return;
    }
  }
  if (first || bare)
    out.back().text += sep + t;
  else
    out.push_back({cont, t});
}

void fill(std::vector<Line>& out, Line start, const Expr& e, int cont) {
  out.push_back(std::move(start));
  const Tokens t = expression_tokens(e);
  const std::vector<Run> parts = pieces(all(t));
  for (std::size_t i = 0; i < parts.size(); ++i) place(out, cont, parts[i], i == 0);
}

}  // namespace

int width(const Line& l) { return l.indent + display_width(l.text); }

std::vector<Line> lay_out(int indent, const std::string& head, const Expr& e, bool body_on_next_line) {
  const std::string flat = token_text(expression_tokens(e));
  if (width({indent, head + flat}) <= kFormatWidth) return {{indent, head + flat}};
  std::vector<Line> out;
  // A list too long for its line: an item a line, each ending in a comma,
  // and the closing bracket back at the statement's indent (a record's
  // `require` list of domains reads as a list, not as one line of 700).
  if (e.kind == ExprKind::List && !e.items.empty() && !body_on_next_line) {
    out.push_back({indent, head + "["});
    for (const auto& item : e.items) {
      std::vector<Line> lines = lay_out(indent + 2, "", *item);
      lines.back().text += ",";
      for (Line& l : lines) out.push_back(std::move(l));
    }
    out.push_back({indent, "]"});
    return out;
  }
  if (body_on_next_line) {
    out.push_back({indent, head.substr(0, head.find_last_not_of(' ') + 1)});
    for (Line& l : lay_out(indent + 2, "", e)) out.push_back(std::move(l));
    return out;
  }
  if (e.kind != ExprKind::If) {
    fill(out, {indent, head}, e, indent + 2);
    return out;
  }
  // An `if` puts `then` and `else` on lines of their own, and a chain of
  // them `else if`.
  fill(out, {indent, head + "if "}, *e.items[0], indent + 4);
  for (const Expr* branch = &e;;) {
    fill(out, {indent + 2, "then "}, *branch->items[1], indent + 4);
    const Expr& other = *branch->items[2];
    if (other.kind != ExprKind::If || width({indent + 2, "else " + token_text(expression_tokens(other))}) <= kFormatWidth) {
      fill(out, {indent + 2, "else "}, other, indent + 4);
      return out;
    }
    fill(out, {indent + 2, "else if "}, *other.items[0], indent + 4);
    branch = &other;
  }
}

}  // namespace napkin
