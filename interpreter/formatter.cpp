#include "formatter.hpp"

#include "../grammar/comments.hpp"
#include "../grammar/parser.hpp"
#include "../grammar/printer.hpp"
#include "formatter_rows.hpp"

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

struct Line {
  int indent = 0;
  std::string text;
};

std::string print(const Expr& e) { return print_expr(e); }

std::string quoted(const std::string& s) {
  Expr e(ExprKind::String, Span{});
  e.text = s;
  return print(e);
}

// How tightly an expression binds, as the printer reckons it.
int binding(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Binary: return ast::precedence(e.op);
    case ExprKind::Not: return 4;
    case ExprKind::If:
    case ExprKind::Convert: return 0;
    case ExprKind::Measure: return e.fallback ? 0 : 11;
    case ExprKind::Negate: return 8;
    default: return 11;
  }
}

// Where a long value may break: before the operators of its top-level chain.
std::vector<std::string_view> break_points(const Expr& e) {
  if (e.kind != ExprKind::Binary) return {};
  switch (ast::precedence(e.op)) {
    case 2: return {" or "};
    case 3: return {" and "};
    case 6: return {" + ", " - "};
    case 7: return {" * ", " / "};
    default: return {};
  }
}

// "a + b - c" → "a", "+ b", "- c", splitting only outside brackets and strings.
std::vector<std::string> split_chain(const std::string& text, const std::vector<std::string_view>& ops) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ' ' && depth == 0) {
      for (std::string_view op : ops)
        if (text.compare(i, op.size(), op) == 0) {
          parts.push_back(text.substr(start, i - start));
          start = i + 1;
          i += op.size() - 1;
          break;
        }
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

int width(const Line& l) { return l.indent + display_width(l.text); }

// `head` followed by `e`, on one line if it fits, else wrapped; continuation
// lines are indented two more. A function's body moves to its own line.
std::vector<Line> lay_out(int indent, const std::string& head, const Expr& e, bool body_on_next_line = false) {
  const std::string flat = print(e);
  if (width({indent, head + flat}) <= kFormatWidth) return {{indent, head + flat}};
  if (body_on_next_line) {
    std::vector<Line> out{{indent, head.substr(0, head.find_last_not_of(' ') + 1)}};
    for (Line& l : lay_out(indent + 2, "", e)) out.push_back(std::move(l));
    return out;
  }
  if (e.kind == ExprKind::If) {
    std::vector<Line> out{{indent, head + "if " + print(*e.items[0])}};
    for (const Expr* branch = &e;;) {
      out.push_back({indent + 2, "then " + print(*branch->items[1])});
      const Expr& other = *branch->items[2];
      Line otherwise{indent + 2, "else " + print(other)};
      if (other.kind != ExprKind::If || width(otherwise) <= kFormatWidth) {
        out.push_back(std::move(otherwise));
        return out;
      }
      out.push_back({indent + 2, "else if " + print(*other.items[0])});
      branch = &other;
    }
  }
  const std::vector<std::string> parts = split_chain(flat, break_points(e));
  std::vector<Line> out;
  Line line{indent, head + parts[0]};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (width(line) + 1 + display_width(parts[i]) <= kFormatWidth) {
      line.text += " " + parts[i];
    } else {
      out.push_back(std::move(line));
      line = {indent + 2, parts[i]};
    }
  }
  out.push_back(std::move(line));
  return out;
}

class Formatter {
 public:
  explicit Formatter(const SourceFile& f) : f_(f), comments_(find_comments(f.text)) {}

  std::string run(const ast::Module& m) {
    std::uint32_t prev = 0;
    bool first = true;
    std::vector<std::pair<std::size_t, std::size_t>> multi_line;  // row ranges
    for (const Stmt& st : m.statements) {
      place_comments(st.span.begin, 0, prev, first);
      const std::size_t begin = statement(st, !first && blank_between(prev, st.span.begin));
      if (rows_.size() - begin > 1) multi_line.emplace_back(begin, rows_.size());
      prev = st.span.end;
      first = false;
    }
    place_comments(static_cast<std::uint32_t>(f_.text.size()), 0, prev, first);
    separate(multi_line);
    return render_rows(rows_);
  }

 private:
  const SourceFile& f_;
  std::vector<Comment> comments_;
  std::size_t next_ = 0;  // the first comment not yet placed
  std::vector<Row> rows_;

  bool blank_between(std::uint32_t a, std::uint32_t b) const {
    int newlines = 0;
    for (std::uint32_t i = a; i < b && i < f_.text.size(); ++i) newlines += f_.text[i] == '\n';
    return newlines >= 2;
  }

  int line_of(std::uint32_t offset) const { return f_.line_col(offset).first; }

  // Comments before `pos`: one after code on its line stays there; one on
  // a line of its own keeps its line, and the blank line before it if any.
  void place_comments(std::uint32_t pos, int indent, std::uint32_t& prev, bool& first) {
    while (next_ < comments_.size() && comments_[next_].begin < pos) {
      const Comment& c = comments_[next_++];
      if (!c.own_line && !rows_.empty() && !rows_.back().comment_line && rows_.back().comment.empty()) {
        rows_.back().comment = c.text;
      } else {
        Row r;
        r.indent = indent;
        r.code = c.text;
        r.comment_line = true;
        r.blank_before = !first && blank_between(prev, c.begin);
        rows_.push_back(std::move(r));
        first = false;
      }
      prev = c.end;
    }
  }

  // Comments inside a construct printed on fewer lines than it was written
  // on have no line left to stay on: they move above it.
  void hoist(std::uint32_t end, int indent, bool& blank) {
    while (next_ < comments_.size() && comments_[next_].begin < end) {
      Row r;
      r.indent = indent;
      r.code = comments_[next_++].text;
      r.comment_line = true;
      r.blank_before = blank;
      blank = false;
      rows_.push_back(std::move(r));
    }
  }

  std::size_t add(const std::vector<Line>& lines, bool blank) {
    const std::size_t begin = rows_.size();
    for (const Line& l : lines) {
      Row r;
      r.indent = l.indent;
      r.code = l.text;
      r.solo = lines.size() > 1;
      r.blank_before = blank && rows_.size() == begin;
      rows_.push_back(std::move(r));
    }
    return begin;
  }

  // Adds the statement's rows; returns the index of its first line of code.
  std::size_t statement(const Stmt& st, bool blank) {
    if (st.kind == StmtKind::Record && !st.value) return record(st, blank);
    hoist(st.span.end, 0, blank);
    switch (st.kind) {
      case StmtKind::Import: return add({{0, "import " + quoted(st.name)}}, blank);
      case StmtKind::Let:
        return add(lay_out(0, (st.record_kind == "let" ? "let " : "") + st.name + " = ", *st.value), blank);
      case StmtKind::Fn: {
        std::string head = "fn " + st.name + "(";
        for (std::size_t i = 0; i < st.params.size(); ++i) {
          if (i) head += ", ";
          head += st.params[i].name;
          if (st.params[i].default_value) head += " = " + print(*st.params[i].default_value);
        }
        return add(lay_out(0, head + ") = ", *st.value, true), blank);
      }
      case StmtKind::Unit:
        if (!st.value) return add({{0, "unit " + st.name}}, blank);
        return add(lay_out(0, "unit " + st.name + " = ", *st.value), blank);
      case StmtKind::Record: return add(lay_out(0, st.record_kind + " " + st.name + " = ", *st.value), blank);
      case StmtKind::Check: return add({{0, check(st)}}, blank);
      case StmtKind::Sweep: return add({{0, sweep(st)}}, blank);
    }
    return rows_.size();
  }

  static std::string check(const Stmt& st) {
    std::string t = "check " + print(*st.value);
    if (!st.approx) return t;
    std::string expected = print(*st.expected);
    if (binding(*st.expected) < ast::precedence(ast::BinOp::Add)) expected = "(" + expected + ")";
    return t + " ≈ " + expected + " within " + print(*st.tolerance);
  }

  static std::string sweep(const Stmt& st) {
    std::string t = "sweep " + print(*st.value) + " over ";
    for (std::size_t i = 0; i < st.sweep_vars.size(); ++i)
      t += (i ? ", " : "") + st.sweep_vars[i].name + " in " + print(*st.sweep_vars[i].values);
    t += " show ";
    for (std::size_t i = 0; i < st.columns.size(); ++i) t += (i ? ", " : "") + st.columns[i].name;
    return t;
  }

  // The `{` of a record's block: the first character after `from` that is
  // neither blank nor in a comment.
  std::uint32_t brace_after(std::uint32_t from) const {
    const std::string& t = f_.text;
    std::uint32_t i = from;
    while (i < t.size() && t[i] != '{') {
      if (t[i] == '#')
        while (i < t.size() && t[i] != '\n') ++i;
      else
        ++i;
    }
    return i;
  }

  std::size_t record(const Stmt& st, bool blank) {
    std::string head = st.record_kind + " " + st.name;
    std::uint32_t after = st.name_span.end;
    if (st.base) {
      head += " extends " + print(*st.base);
      after = st.base->span.end;
    }
    const std::uint32_t open = brace_after(after);
    const std::uint32_t close = st.span.end - 1;
    hoist(open, 0, blank);
    const bool commented = next_ < comments_.size() && comments_[next_].begin < close;
    if (st.fields.empty() && !commented) return add({{0, head + " {}"}}, blank);
    // A block written on one line stays on one line while it fits.
    if (!commented && line_of(open) == line_of(close)) {
      const std::string flat = head + " " + print_fields_inline(st.fields);
      if (display_width(flat) <= kFormatWidth) return add({{0, flat}}, blank);
    }
    const std::size_t begin = add({{0, head + " {"}}, blank);
    rows_.back().solo = true;
    std::uint32_t prev = open + 1;
    bool first = true;
    for (const ast::FieldDecl& f : st.fields) {
      place_comments(f.span.begin, 2, prev, first);
      field(f, 2, !first && blank_between(prev, f.span.begin));
      prev = f.span.end;
      first = false;
    }
    place_comments(close, 2, prev, first);
    add({{0, "}"}}, false);
    rows_.back().solo = true;
    return begin;
  }

  void field(const ast::FieldDecl& f, int indent, bool blank) {
    hoist(f.span.end, indent, blank);
    std::string lhs = f.name;
    if (f.type.kind != ast::TypeKind::None) lhs += ": " + f.type.text;
    if (!f.value) {
      add({{indent, lhs}}, blank);
      return;
    }
    std::vector<Line> lines = lay_out(indent, lhs + " = ", *f.value);
    if (lines.size() > 1) {
      add(lines, blank);
      return;
    }
    Row r;
    r.indent = indent;
    r.code = lhs;
    r.value = print(*f.value);
    r.alignable = true;
    r.blank_before = blank;
    rows_.push_back(std::move(r));
  }

  // One blank line before and after every multi-line statement; comments
  // right above a statement stay with it.
  void separate(const std::vector<std::pair<std::size_t, std::size_t>>& multi_line) {
    for (auto [begin, end] : multi_line) {
      std::size_t k = begin;
      while (k > 0 && rows_[k - 1].comment_line && rows_[k - 1].indent == 0 && !rows_[k].blank_before) --k;
      if (k > 0) rows_[k].blank_before = true;
      if (end < rows_.size()) rows_[end].blank_before = true;
    }
  }
};

}  // namespace

std::string format_source(const SourceFile& file) {
  const ast::Module m = parse_module(file);
  Formatter f(file);
  return f.run(m);
}

}  // namespace napkin
