// `napkin handout`: which fields are answers, which are given, and the
// file's comments as the questions (handout.hpp says the rule).
#include "handout.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "grammar/comments.hpp"
#include "interpreter/derivation/derivation.hpp"
#include "record_figures.hpp"
#include "report.hpp"
#include "section_title.hpp"

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
// line that is only a rule is no words at all. `ruled` says whether there
// was a rule: such a line is a heading, a paragraph of its own.
std::string undecorated(std::string s, bool* ruled = nullptr) {
  auto rule = [](char c) { return c == '-' || c == '=' || c == '#' || c == '*' || c == '~'; };
  std::size_t b = 0, e = s.size();
  std::size_t run = 0;
  while (b < e && (rule(s[b]) || s[b] == ' ')) run += rule(s[b++]) ? 1 : 0;
  if (run < 3) b = 0;
  run = 0;
  std::size_t t = e;
  while (t > b && (rule(s[t - 1]) || s[t - 1] == ' ')) run += rule(s[--t]) ? 1 : 0;
  if (run >= 3) e = t;
  if (ruled) *ruled = b > 0 || e < s.size();
  while (b < e && s[b] == ' ') ++b;
  while (e > b && s[e - 1] == ' ') --e;
  return s.substr(b, e - b);
}

// Comment lines as paragraphs: a `#` alone on its line ends one, and an
// indented line and a ruled heading (`---- 1. Parameters ----`) are each
// one of their own, so that a heading never runs into the sentence below.
std::vector<std::string> paragraphs(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  std::string p;
  for (const auto& raw : lines) {
    const bool blank = raw.find_first_not_of(' ') == std::string::npos;
    bool ruled = false;
    const std::string l = undecorated(raw, &ruled);
    if (blank && !p.empty()) {
      out.push_back(std::move(p));
      p.clear();
    }
    if (blank || l.empty()) continue;
    if (ruled || raw.rfind("  ", 0) == 0) {  // a heading, or an indented line (a command, a table row)
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

  // The whole-line comments directly above offset `begin`, no blank line
  // between; `from`, if given, is where the first of them begins.
  std::vector<std::string> above(std::uint32_t begin, std::uint32_t* from = nullptr) const {
    std::vector<std::string> out;
    if (from) *from = begin;
    std::size_t line = line_start(begin);
    auto it = std::lower_bound(all.begin(), all.end(), line, [](const Comment& c, std::size_t at) { return c.begin < at; });
    while (it != all.begin()) {
      const Comment& c = *(it - 1);
      const std::string_view gap = text.substr(c.end, line - c.end);
      if (!c.own_line || std::count(gap.begin(), gap.end(), '\n') != 1 || !blank(gap)) break;
      out.push_back(comment_text(c.text));  // bottom up, then turned: a long block stays linear
      if (from) *from = c.begin;
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

// A field or let, as a check pins it.
using Key = std::pair<const void*, std::size_t>;

// What a check pins: the field or let that is a whole side of it, with the
// points the check is worth added to it.
void pinned_by(const CheckResult& c, std::map<Key, double>& out) {
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
    std::set<Key> keys;  // a side pinned twice (`check a.x == a.x`) counts the check once
    if (e && e->rec) keys.insert({e->rec, e->field});
    if (e && e->binding) keys.insert({e->binding, 0});
    for (const Key& k : keys) out[k] += c.stmt->points;
  }
}

// `tp = node.tp`, `w = hw.bandwidth`: a name or member chain that leads,
// through other such names, to a given (a literal, an input, a record or a
// function). Such an alias is given, never asked: nothing is computed.
bool alias_of_given(const ast::Expr* formula, const Trace& trace, int depth = 0) {
  if (!formula || (formula->kind != ExprKind::Name && formula->kind != ExprKind::Member) || depth > 32) return false;
  const TraceEntry* e = entry_of(trace, *formula);
  if (!e) return false;
  if (e->value.kind == Value::Kind::Record || e->value.kind == Value::Kind::Function) return true;
  const ast::Expr* next = nullptr;
  const Trace* inner = nullptr;
  if (e->rec) {
    const Slot& slot = e->rec->slots()[e->field];
    next = slot.decl ? slot.decl->value.get() : nullptr;
    if (e->rec->state.size() > e->field) inner = &e->rec->state[e->field].trace;
  } else if (e->binding && e->binding->stmt) {
    next = e->binding->stmt->value.get();
    inner = &e->binding->state.trace;
  } else {
    return false;
  }
  if (!next || is_literal(*next)) return true;
  return inner && alias_of_given(next, *inner, depth + 1);
}

// The unit a blank shows: the one its author chose (`-> GiB` in its
// formula, or the value it was read from; a unit declared on the field),
// else the dimension's own unit, as 1 of it is shown (B, s, token/s,
// FLOP/s, USD/hour). Never one picked for the answer's size: `ms` beside
// `µs` would say which bound wins.
std::string blank_unit(const Interpreter& in, const Value& v, const ast::TypeExpr* declared) {
  if (v.display) return v.display->text;
  if (declared && declared->kind == ast::TypeKind::Unit) return declared->unit.text;
  if (v.q.dim.dimensionless()) return "";
  return shown_value(in, Value::quantity(1, v.q.dim)).unit;
}

struct Builder {
  Interpreter& in;
  const Comments& comments;
  std::map<Key, double> pinned;
  bool points = false;  // some check states what it is worth
  Handout& out;
  const SourceFile* file = nullptr;
  Module* module = nullptr;
  std::set<const Record*> figured;  // records whose figures the sheet lists already

  std::uint32_t opening_above = UINT32_MAX;  // the first statement, when the opening comment is its block

  // The comment above `begin` as a question; above a record, its first
  // paragraph is the section's title.
  void question(HandoutSection& s, std::uint32_t begin, bool titled = false) {
    if (begin == opening_above) return;  // the title and introduction already
    std::vector<std::string> p = paragraphs(comments.above(begin));
    if (titled && !p.empty()) {  // its first sentence, as the solution sheet's (section_title.hpp)
      SectionTitle t = first_sentence(p.front());
      s.title = std::move(t.title);
      if (t.rest.empty()) p.erase(p.begin());
      else p.front() = std::move(t.rest);
    }
    if (p.empty()) return;
    HandoutItem q;
    q.kind = HandoutItem::Kind::Question;
    q.paragraphs = std::move(p);
    s.items.push_back(std::move(q));
  }

  // A field or let, given or asked; `get` evaluates it.
  // The givens that name a record, the first time the sheet gives each:
  // its figures are listed under them once the whole file is evaluated,
  // since a later answer may read one.
  struct Figured {
    std::size_t section, item;
    const Record* rec;
  };
  std::vector<Figured> to_figure;

  void list_figures() {
    // Last first: a record named outright whose figures none were read
    // leaves, and the items before it keep their places.
    for (auto f = to_figure.rbegin(); f != to_figure.rend(); ++f) {
      auto& items = out.sections[f->section].items;
      HandoutItem& it = items[f->item];
      for (std::size_t i : figures_read(*f->rec)) {
        const Slot& slot = f->rec->slots()[i];
        if (slot.decl->span.file == file) continue;  // on the sheet already
        it.figures.emplace_back(slot.name, term_of(*slot.decl->value));  // as the spec writes it: 1307.4 TFLOP/s
      }
      if (it.figures.empty() && it.shown.empty()) items.erase(items.begin() + static_cast<std::ptrdiff_t>(f->item));
    }
  }

  // A library record a formula names outright (`h100_sxm.memory_capacity`,
  // `decode with { gpu = h100_sxm }`) is given too: its name, with the
  // figures of it the file read below it, before the first item naming it.
  void named_records(HandoutSection& s, std::size_t section, const Record* self, const ast::Expr* e, int depth = 0) {
    if (!e || depth > 256) return;
    // `gpu = h200` is the given that lists h200's figures itself.
    if (depth == 0 && e->kind == ExprKind::Name) return;
    if (e->kind == ExprKind::Name && !(self && self->table->find(e->text) != SlotTable::npos)) {
      Binding* b = in.find_binding(module, e->text);
      if (b && b->stmt && b->stmt->span.file != file) {
        Value v;
        try {
          v = in.top_value(b, Span{});
        } catch (const Error&) {
          return;  // where it is used says why
        }
        if (v.kind == Value::Kind::Record && figured.insert(v.rec).second) {
          to_figure.push_back({section, s.items.size(), v.rec});
          HandoutItem it;
          it.name = e->text;
          s.items.push_back(std::move(it));
        }
      }
    }
    ast::for_each_child(*e, [&](const ast::Expr& c) { named_records(s, section, self, &c, depth + 1); });
  }

  // `get` evaluates it, and `traced` is then what its formula read (to
  // tell an alias); `declared`: its declared type, if any.
  template <class Get, class Traced>
  void item(HandoutSection& s, const std::string& qualified, const std::string& name, const ast::Expr* formula,
            bool asked_if_computed, const Key& key, std::uint32_t end, const ast::TypeExpr* declared, Get get,
            Traced traced) {
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
    // a literal): printing it would print the answer. A bare name, an alias
    // of a given (`tp = node.tp`) and a record stay given.
    const auto pin = pinned.find(key);
    const bool alias = formula && (formula->kind == ExprKind::Name ||
                                   (needs.empty() && alias_of_given(formula, *traced())));
    const bool pinned_answer = pin != pinned.end() && !alias && v.kind != Value::Kind::Record &&
                               v.kind != Value::Kind::Function;
    const bool answer = pinned_answer || (!alias && asked_if_computed &&
                                          (needs.empty() ? computed(formula, v) : formula && !is_literal(*formula)));
    if (answer) {
      it.kind = HandoutItem::Kind::Answer;
      if (points && pin != pinned.end()) it.points = pin->second;
      if (v.kind == Value::Kind::Quantity && needs.empty()) {
        it.unit = blank_unit(in, v, declared);
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
      // `s` is the last section, or about to be.
      const std::size_t section = !out.sections.empty() && &out.sections.back() == &s ? out.sections.size() - 1
                                                                                       : out.sections.size();
      if (v.kind == Value::Kind::Record && figured.insert(v.rec).second)
        to_figure.push_back({section, s.items.size(), v.rec});
    }
    s.items.push_back(std::move(it));
  }

  void record(const ast::Stmt& st, Record* r) {
    HandoutSection s;
    s.keyword = r->kind.empty() ? "record" : r->kind;
    s.name = r->name;
    if (st.value) s.origin = term_of(*st.value);
    if (st.base) s.base = text(term_of(*st.base));
    question(s, st.span.begin, true);
    const std::size_t section = out.sections.size();
    named_records(s, section, nullptr, st.value.get());
    const bool scenario = s.keyword == "scenario";
    std::set<std::size_t> listed;
    auto field = [&](std::size_t i, const ast::FieldDecl* fd, const ast::Expr* formula) {
      listed.insert(i);
      if (fd) question(s, fd->span.begin);
      named_records(s, section, r, formula);
      const Slot& slot = r->slots()[i];
      const ast::TypeExpr* declared = fd && fd->type.kind != ast::TypeKind::None ? &fd->type
                                      : slot.type_decl                           ? &slot.type_decl->type
                                                                                 : nullptr;
      item(s, r->name + "." + slot.name, slot.name, formula, scenario && fd, {r, i}, fd ? fd->span.end : 0, declared,
           [&] { return in.field(r, i, Span{}); }, [&] { return &r->state[i].trace; });
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
    if (out.sections.empty() || out.sections.back().kind != SectionKind::lets) {
      out.sections.emplace_back();
      out.sections.back().kind = SectionKind::lets;
    }
    HandoutSection& s = out.sections.back();
    question(s, b->stmt->span.begin);
    named_records(s, out.sections.size() - 1, nullptr, b->stmt->value.get());
    item(s, b->name, b->name, b->stmt->value.get(), false, {b, 0}, b->stmt->span.end, nullptr,
         [&] { return in.top_value(b, Span{}); }, [&] { return &b->state.trace; });
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
  Builder b{in, c, {}, false, h, m->file.get(), m};
  // The opening comment is the first statement's own only when no blank line parts them.
  std::uint32_t above_first = first;
  c.above(first, &above_first);
  if (!opening.empty() && !c.all.empty() && above_first == c.all.front().begin) b.opening_above = first;
  for (const auto& check : run_checks(in, m)) {
    pinned_by(check, b.pinned);
    b.points = b.points || !check.stmt->points_text.empty();
  }
  for (Binding* bind : m->order) {
    const ast::Stmt& st = *bind->stmt;
    if (st.kind == ast::StmtKind::Fn) continue;
    const Value v = in.top_value(bind, Span{});
    if (v.kind == Value::Kind::Record && v.rec->name == bind->name)
      b.record(st, v.rec);
    else
      b.let(bind);
  }
  b.list_figures();
  return h;
}

}  // namespace napkin

namespace napkin {

std::string handout_heading(const HandoutSection& s) {
  if (s.kind == SectionKind::lets) return "values";
  return s.title.empty() ? s.name : s.title + " (" + s.name + ")";
}

}  // namespace napkin
