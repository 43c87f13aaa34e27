// `napkin handout`: which fields are answers, which are given, and the
// file's comments as the questions (handout.hpp says the rule).
#include "handout.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string_view>

#include "grammar/comments.hpp"
#include "interpreter/derivation/derivation.hpp"
#include "report.hpp"

namespace napkin {
namespace {

using ast::ExprKind;

// A comment line without its `#` and the one space after it.
std::string comment_text(const std::string& c) {
  std::string s = c.substr(1);
  if (!s.empty() && s[0] == ' ') s.erase(0, 1);
  return s;
}

// A rule drawn with dashes, `---- 1. Parameters ------`, is its words; a
// line that is only a rule is no words at all.
std::string undecorated(std::string s) {
  auto rule = [](char c) { return c == '-' || c == '=' || c == '#' || c == '*' || c == '~'; };
  std::size_t b = 0, e = s.size();
  std::size_t run = 0;
  while (b < e && (rule(s[b]) || s[b] == ' ')) run += rule(s[b++]) ? 1 : 0;
  if (run < 3) b = 0;
  run = 0;
  std::size_t t = e;
  while (t > b && (rule(s[t - 1]) || s[t - 1] == ' ')) run += rule(s[--t]) ? 1 : 0;
  if (run >= 3) e = t;
  while (b < e && s[b] == ' ') ++b;
  while (e > b && s[e - 1] == ' ') --e;
  return s.substr(b, e - b);
}

// Comment lines as paragraphs: a `#` alone on its line ends one, and an
// indented line is one of its own.
std::vector<std::string> paragraphs(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  std::string p;
  for (const auto& raw : lines) {
    const bool blank = raw.find_first_not_of(' ') == std::string::npos;
    const std::string l = undecorated(raw);
    if (blank && !p.empty()) {
      out.push_back(std::move(p));
      p.clear();
    }
    if (blank || l.empty()) continue;
    if (raw.rfind("  ", 0) == 0) {  // an indented line (a command, a table row) keeps its line
      if (!p.empty()) out.push_back(std::move(p));
      p.clear();
      out.push_back(l);
      continue;
    }
    p += (p.empty() ? "" : " ") + l;
  }
  if (!p.empty()) out.push_back(std::move(p));
  return out;
}

struct Comments {
  std::string_view text;
  std::vector<Comment> all;

  std::size_t line_start(std::size_t at) const {
    const std::size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
  }
  static bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

  // The whole-line comments directly above offset `begin`, no blank line between.
  std::vector<std::string> above(std::uint32_t begin) const {
    std::vector<std::string> out;
    std::size_t line = line_start(begin);
    auto it = std::lower_bound(all.begin(), all.end(), line, [](const Comment& c, std::size_t at) { return c.begin < at; });
    while (it != all.begin()) {
      const Comment& c = *(it - 1);
      const std::string_view gap = text.substr(c.end, line - c.end);
      if (!c.own_line || std::count(gap.begin(), gap.end(), '\n') != 1 || !blank(gap)) break;
      out.push_back(comment_text(c.text));  // bottom up, then turned: a long block stays linear
      line = line_start(c.begin);
      --it;
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  // The comment at the end of the line where something ends at `end`.
  std::string after(std::uint32_t end) const {
    auto it = std::lower_bound(all.begin(), all.end(), end, [](const Comment& c, std::uint32_t at) { return c.begin < at; });
    if (it == all.end() || it->own_line) return "";
    const std::string_view gap = text.substr(end, it->begin - end);
    return gap.find('\n') == std::string_view::npos ? undecorated(comment_text(it->text)) : "";
  }

  // The comment block the file opens with, before its first statement.
  std::vector<std::string> opening(std::uint32_t first_statement) const {
    if (all.empty() || !all[0].own_line || all[0].begin >= first_statement || !blank(text.substr(0, all[0].begin)))
      return {};
    std::vector<std::string> out{comment_text(all[0].text)};
    for (std::size_t i = 1; i < all.size() && all[i].begin < first_statement; ++i) {
      const std::string_view gap = text.substr(all[i - 1].end, all[i].begin - all[i - 1].end);
      if (!all[i].own_line || std::count(gap.begin(), gap.end(), '\n') != 1) break;
      out.push_back(comment_text(all[i].text));
    }
    return out;
  }
};

// Computed: its formula names something, and is neither a bare name nor a record.
bool computed(const ast::Expr* formula, const Value& v) {
  if (!formula || is_literal(*formula) || formula->kind == ExprKind::Name) return false;
  return v.kind != Value::Kind::Record && v.kind != Value::Kind::Function;
}

// What a check pins: the field or let that is a whole side of it.
void pinned_by(const CheckResult& c, std::set<std::pair<const void*, std::size_t>>& out) {
  std::vector<const ast::Expr*> sides{c.stmt->value.get(), c.stmt->expected.get()};
  const ast::Expr* v = c.stmt->value.get();
  if (v && v->kind == ExprKind::Binary && v->op >= ast::BinOp::Eq && v->op <= ast::BinOp::Ge) {
    sides.push_back(v->items[0].get());
    sides.push_back(v->items[1].get());
  }
  for (const ast::Expr* s : sides) {
    while (s && s->kind == ExprKind::Convert) s = s->items[0].get();
    if (!s || (s->kind != ExprKind::Name && s->kind != ExprKind::Member)) continue;
    const TraceEntry* e = entry_of(c.trace, *s);
    if (e && e->rec) out.insert({e->rec, e->field});
    if (e && e->binding) out.insert({e->binding, 0});
  }
}

struct Builder {
  Interpreter& in;
  const Comments& comments;
  std::set<std::pair<const void*, std::size_t>> pinned;
  Handout& out;

  std::uint32_t opening_above = UINT32_MAX;  // the first statement, when the opening comment is its block

  void question(HandoutSection& s, std::uint32_t begin) {
    if (begin == opening_above) return;  // the title and introduction already
    std::vector<std::string> p = paragraphs(comments.above(begin));
    if (p.empty()) return;
    HandoutItem q;
    q.kind = HandoutItem::Kind::Question;
    q.paragraphs = std::move(p);
    s.items.push_back(std::move(q));
  }

  // A field or let, given or asked; `get` evaluates it.
  template <class Get>
  void item(HandoutSection& s, const std::string& qualified, const std::string& name, const ast::Expr* formula,
            bool asked_if_computed, bool pin, std::uint32_t end, Get get) {
    HandoutItem it;
    it.name = name;
    it.note = comments.after(end);
    Value v;
    std::string needs;
    try {
      v = get();
    } catch (const MissingInput& e) {
      needs = e.field();
    }
    // A value a check pins is an answer whatever its formula (`2 * 3 * 7`,
    // a literal): printing it would print the answer. An alias of a given
    // (`tp = node.tp`) and a record stay given.
    const bool pinned_answer = pin && !(formula && formula->kind == ExprKind::Name) &&
                               v.kind != Value::Kind::Record && v.kind != Value::Kind::Function;
    const bool answer = pinned_answer || (needs.empty() ? computed(formula, v) && asked_if_computed
                                                        : formula && !is_literal(*formula) && asked_if_computed);
    if (answer) {
      it.kind = HandoutItem::Kind::Answer;
      if (v.kind == Value::Kind::Quantity && needs.empty()) {
        const Shown t = shown_value(in, v);
        it.unit = !t.number.empty() && t.number.back() == '%' ? "%" : t.unit;
      } else if (v.kind == Value::Kind::Bool) {
        it.expects = "true or false";
      } else if (v.kind == Value::Kind::String) {
        it.expects = "text";
      } else if (v.kind == Value::Kind::List) {
        it.expects = "a list";
      }
      out.answers.push_back(qualified);
    } else if (!needs.empty()) {
      it.shown = prose_term("needs " + needs);
    } else {
      it.shown = formula && !is_literal(*formula) ? term_of(*formula) : value_term(in, v);
    }
    s.items.push_back(std::move(it));
  }

  void record(const ast::Stmt& st, Record* r) {
    HandoutSection s;
    s.kind = r->kind.empty() ? "record" : r->kind;
    s.name = r->name;
    if (st.value) s.origin = term_of(*st.value);
    if (st.base) s.base = text(term_of(*st.base));
    question(s, st.span.begin);
    const bool scenario = s.kind == "scenario";
    std::set<std::size_t> listed;
    auto field = [&](std::size_t i, const ast::FieldDecl* fd, const ast::Expr* formula) {
      listed.insert(i);
      if (fd) question(s, fd->span.begin);
      const std::string& name = r->slots()[i].name;
      item(s, r->name + "." + name, name, formula, scenario && fd, pinned.count({r, i}) > 0, fd ? fd->span.end : 0,
           [&] { return in.field(r, i, Span{}); });
    };
    for (const auto& fd : st.fields) {
      const std::size_t i = r->table->find(fd.name);
      if (i != SlotTable::npos && fd.value) field(i, &fd, fd.value.get());
    }
    // A field it inherits, or gets from a `with`, that a check pins.
    for (std::size_t i = 0; i < r->slots().size(); ++i)
      if (!listed.count(i) && pinned.count({r, i})) {
        const Slot& slot = r->slots()[i];
        field(i, nullptr, slot.decl ? slot.decl->value.get() : nullptr);
      }
    out.sections.push_back(std::move(s));
  }

  void let(Binding* b) {
    if (out.sections.empty() || out.sections.back().kind != "let") {
      out.sections.emplace_back();
      out.sections.back().kind = "let";
    }
    HandoutSection& s = out.sections.back();
    question(s, b->stmt->span.begin);
    item(s, b->name, b->name, b->stmt->value.get(), false, pinned.count({b, 0}) > 0, b->stmt->span.end,
         [&] { return in.top_value(b, Span{}); });
  }
};

}  // namespace

Handout build_handout(Interpreter& in, Module* m, const std::string& name) {
  Handout h;
  Comments c{m->file->text, find_comments(m->file->text)};
  const std::uint32_t first = m->ast.statements.empty() ? static_cast<std::uint32_t>(m->file->text.size())
                                                        : m->ast.statements.front().span.begin;
  std::vector<std::string> opening = paragraphs(c.opening(first));
  h.title = opening.empty() ? name : opening.front();
  if (!opening.empty()) h.intro.assign(opening.begin() + 1, opening.end());
  Builder b{in, c, {}, h};
  if (!opening.empty()) b.opening_above = first;
  for (const auto& check : run_checks(in, m)) pinned_by(check, b.pinned);
  for (Binding* bind : m->order) {
    const ast::Stmt& st = *bind->stmt;
    if (st.kind == ast::StmtKind::Fn) continue;
    const Value v = in.top_value(bind, Span{});
    if (v.kind == Value::Kind::Record && v.rec->name == bind->name)
      b.record(st, v.rec);
    else
      b.let(bind);
  }
  return h;
}

}  // namespace napkin
