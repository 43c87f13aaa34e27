#include "formatter.hpp"

#include <algorithm>
#include <optional>

#include "grammar/comments.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "grammar/tokens.hpp"
#include "formatter_rows.hpp"
#include "wrap.hpp"

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

std::string print(const Expr& e) { return print_expr(e); }

std::string quoted(const std::string& s) { return quote_string(s); }

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

  bool same_line(std::uint32_t a, std::uint32_t b) const {
    return f_.text.find('\n', a) >= std::min<std::size_t>(b, f_.text.size());
  }

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
    if ((st.kind == StmtKind::Record || st.kind == StmtKind::Let) && written_as_block(*st.value)) {
      const std::string head = st.kind == StmtKind::Record ? st.record_kind + " " + st.name + " = "
                               : st.record_kind == "let"   ? "let " + st.name + " = "
                                                           : st.name + " = ";
      return with_block(0, head, *st.value, blank);
    }
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
      case StmtKind::Unit: {
        std::string head = "unit " + st.name;
        const auto& prefixes = st.unit_prefixes();
        for (std::size_t i = 0; i < prefixes.size(); ++i) head += (i ? ", " : " prefixes ") + prefixes[i].name;
        if (!st.value) return add({{0, head}}, blank);
        return add(lay_out(0, head + " = ", *st.value), blank);
      }
      case StmtKind::Dimension: return add({{0, "dimension " + quoted(st.name) + " = " + st.fields.at(0).type.text}}, blank);
      case StmtKind::Suggest: {
        std::string t = "suggest " + st.name + " for ";
        const auto& words = st.suggested_spellings();
        for (std::size_t i = 0; i < words.size(); ++i) t += (i ? ", " : "") + words[i].name;
        return add({{0, t}}, blank);
      }
      case StmtKind::Record: return add(lay_out(0, st.record_kind + " " + st.name + " = ", *st.value), blank);
      case StmtKind::Check: return add({{0, check(st)}}, blank);
      case StmtKind::Sweep: return add(sweep(st), blank);
      case StmtKind::Solve: {
        const ast::SweepVar& v = st.solve_input();
        std::string head = "solve " + st.name + " for " + v.name;
        if (v.values) head += " in " + print(*v.values);
        head += st.solve_goal_word() == "where" ? " where " : " " + st.solve_goal_word() + " where ";
        return add(lay_out(0, head, *st.value), blank);
      }
    }
    return rows_.size();
  }

  // `"q6 KV per token" (2 points): `, or nothing.
  static std::string check_label(const Stmt& st) {
    if (st.check_name.empty() && st.points_text.empty()) return "";
    std::string t;
    if (!st.check_name.empty()) t += quoted(st.check_name) + " ";
    if (!st.points_text.empty()) t += "(" + st.points_text + (st.points == 1 ? " point) " : " points) ");
    t.back() = ':';
    return t + " ";
  }

  static std::string check(const Stmt& st) {
    std::string t = "check " + check_label(st) + print(*st.value);
    if (!st.approx) return t;
    const std::string expected = token_text(operand_tokens(*st.expected, binding::kSum));
    return t + " ≈ " + expected + " within " + print(*st.tolerance);
  }

  // One line if it fits; else `over`, each swept input and `show` on lines
  // of their own, and a long list of values wrapped under its first value.
  static std::vector<Line> sweep(const Stmt& st) {
    std::string flat = "sweep " + print(*st.value) + " over ";
    for (std::size_t i = 0; i < st.sweep_vars.size(); ++i)
      flat += (i ? ", " : "") + st.sweep_vars[i].name + " in " + print(*st.sweep_vars[i].values);
    std::string show = "show ";
    for (std::size_t i = 0; i < st.columns.size(); ++i) show += (i ? ", " : "") + st.columns[i].name;
    if (display_width(flat + " " + show) <= kFormatWidth) return {{0, flat + " " + show}};
    std::vector<Line> out{{0, "sweep " + print(*st.value)}};
    for (std::size_t i = 0; i < st.sweep_vars.size(); ++i) {
      const ast::SweepVar& v = st.sweep_vars[i];
      const std::string comma = i + 1 < st.sweep_vars.size() ? "," : "";
      Line line = i == 0 ? Line{2, "over " + v.name + " in ["} : Line{7, v.name + " in ["};
      const int under = width(line);
      const auto& items = v.values->items;
      for (std::size_t k = 0; k < items.size(); ++k) {
        const std::string item = print(*items[k]) + (k + 1 < items.size() ? "," : "]" + comma);
        const bool bare = line.text.back() == '[';
        if (!bare && width(line) + 1 + display_width(item) > kFormatWidth) {
          out.push_back(std::move(line));
          line = {under, item};
        } else {
          line.text += (bare ? "" : " ") + item;
        }
      }
      if (items.empty()) line.text += "]" + comma;
      out.push_back(std::move(line));
    }
    out.push_back({2, show});
    return out;
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

  // `x with {` on one line and `}` on another: the author wrote a block.
  bool written_as_block(const Expr& e) const {
    return e.kind == ExprKind::With && !same_line(brace_after(e.items[0]->span.end), e.span.end - 1);
  }

  // `head x with {`, one field a line, `}`: laid out like a record's block.
  std::size_t with_block(int indent, const std::string& head, const Expr& e, bool blank) {
    const std::uint32_t open = brace_after(e.items[0]->span.end);
    hoist(open, indent, blank);
    const std::string base = token_text(operand_tokens(*e.items[0], binding::kPostfix));
    return block(indent, head + base + " with", e.fields, open, e.span.end - 1, blank);
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
    if (!commented && same_line(open, close)) {
      const std::string flat = head + " " + print_fields_inline(st.fields);
      if (display_width(flat) <= kFormatWidth) return add({{0, flat}}, blank);
    }
    return block(0, head, st.fields, open, close, blank);
  }

  // `head {`, the fields one a line with their comments, `}`.
  std::size_t block(int indent, const std::string& head, const std::vector<ast::FieldDecl>& fields,
                    std::uint32_t open, std::uint32_t close, bool blank) {
    const std::size_t begin = add({{indent, head + " {"}}, blank);
    rows_.back().solo = true;
    std::uint32_t prev = open + 1;
    bool first = true;
    for (const ast::FieldDecl& f : fields) {
      place_comments(f.span.begin, indent + 2, prev, first);
      field(f, indent + 2, !first && blank_between(prev, f.span.begin));
      prev = f.span.end;
      first = false;
    }
    place_comments(close, indent + 2, prev, first);
    add({{indent, "}"}}, false);
    rows_.back().solo = true;
    return begin;
  }

  void field(const ast::FieldDecl& f, int indent, bool blank) {
    std::string lhs = f.name;
    if (f.type.kind != ast::TypeKind::None) lhs += ": " + f.type.text;
    if (f.value && written_as_block(*f.value)) {
      with_block(indent, lhs + " = ", *f.value, blank);
      return;
    }
    hoist(f.span.end, indent, blank);
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
