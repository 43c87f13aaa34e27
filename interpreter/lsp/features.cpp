#include "features.hpp"

#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "grammar/ast_equal.hpp"
#include "grammar/parser.hpp"
#include "interpreter/derivation/explain.hpp"
#include "interpreter/layout/formatter.hpp"
#include "interpreter/output/output.hpp"
#include "lookup.hpp"
#include "uris.hpp"

namespace napkin::lsp {

using nlohmann::json;

namespace {

std::string describe(const Analysis& a, const std::string& expr, const Value& v) {
  switch (v.kind) {
    case Value::Kind::Record:
      return fmt::format("### `{}`\n\n{} `{}`, {} fields\n", expr, v.rec->kind, v.rec->name, v.rec->slots().size());
    case Value::Kind::Function:
      return fmt::format("### `{}`\n\nfunction `{}`\n", expr, v.fn->signature.empty() ? v.fn->name : v.fn->signature);
    default:
      return fmt::format("### `{}`\n\n`{}`\n", expr, a.in->show(v));
  }
}

// Where a slot's name is written: the declaration that gives its value, else the one that types it.
Span slot_span(const Slot* s) {
  if (!s) return {};
  if (s->decl) return s->decl->name_span;
  return s->type_decl ? s->type_decl->name_span : Span{};
}

Span definition_span(Analysis& a, const Target& t) {
  if (t.stmt) return t.stmt->name_span;
  if (t.field) return t.field->name_span;
  const ast::Expr& e = *t.node;
  if (e.kind == ast::ExprKind::Member) {
    const std::string object = t.expr.substr(0, t.expr.size() - e.text.size() - 1);
    if (Record* r = record_named(a, object)) return slot_span(r->find(e.text));
    return {};
  }
  if (!t.record.empty() && t.expr != e.text)  // qualified: a field of the enclosing record
    if (Record* r = record_named(a, t.record)) return slot_span(r->find(e.text));
  if (Binding* b = a.in->find_binding(a.module, e.text); b && b->stmt) return b->stmt->name_span;
  return {};
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// LSP CompletionItemKind and SymbolKind numbers.
constexpr int kCompleteFunction = 3, kCompleteField = 5, kCompleteVariable = 6, kCompleteUnit = 11,
              kCompleteStruct = 22;
constexpr int kSymbolField = 8, kSymbolFunction = 12, kSymbolVariable = 13, kSymbolConstant = 14,
              kSymbolStruct = 23;

std::string signature(const ast::Stmt& st) {
  std::string s = st.name + "(";
  for (std::size_t i = 0; i < st.params.size(); ++i) {
    if (i) s += ", ";
    s += st.params[i].name;
    if (st.params[i].default_value) s += " = " + std::string(st.params[i].default_value->span.text());
  }
  return s + ")";
}

json field_items(Analysis& a, Record* r) {
  json items = json::array();
  const auto slots = r->slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    json item{{"label", slots[i].name}, {"kind", kCompleteField}};
    if (a.stopped) {  // its values are not known: a field's would take as long again
      items.push_back(std::move(item));
      continue;
    }
    try {
      item["detail"] = a.in->show(a.in->field(r, i, r->span));
    } catch (const Error& e) {
      item["detail"] = e.diagnostic().message;
    }
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace

json hover(Analysis& a, std::size_t offset) {
  const auto t = target_at(a, offset);
  if (!t) return nullptr;
  std::string md;
  try {
    // A record or a function has no derivation to show: what it is instead.
    const Value v = evaluate(a, t->expr);
    md = v.kind == Value::Kind::Record || v.kind == Value::Kind::Function
             ? describe(a, t->expr, v)
             : explain_markdown(explain(*a.in, a.module, t->expr, 1));
  } catch (const Error& e) {
    md = fmt::format("### `{}`\n\n{}\n", t->expr, e.diagnostic().message);
  }
  return json{{"contents", {{"kind", "markdown"}, {"value", md}}},
              {"range", range_json(*a.lines, t->span.begin, t->span.end)}};
}

json definition(Analysis& a, std::size_t offset, const Places& places) {
  const auto t = target_at(a, offset);
  if (!t) return nullptr;
  const Span s = definition_span(a, *t);
  return s.valid() ? location(a.file(), s, places) : json(nullptr);
}

json completion(Analysis& a, const std::string& text, std::size_t offset) {
  json items = json::array();
  if (!a.module) return items;
  std::size_t word = std::min(offset, text.size());
  while (word > 0 && word_char(text[word - 1])) --word;
  if (word > 0 && text[word - 1] == '.') {
    std::size_t begin = word - 1;
    while (begin > 0 && (word_char(text[begin - 1]) || text[begin - 1] == '.')) --begin;
    const std::string object = text.substr(begin, word - 1 - begin);
    if (object.empty()) return items;
    // Inside a record, `model.` may be that record's field: its enclosing
    // record is found where the last analysis had the same place.
    Record* r = nullptr;
    if (const auto t = target_at(a, std::min(begin, a.text.size())); t && !t->record.empty())
      if (Record* in = record_named(a, t->record); in && in->find(object.substr(0, object.find('.'))))
        r = record_named(a, t->record + "." + object);
    if (!r) r = record_named(a, object);
    return r ? field_items(a, r) : items;
  }
  std::vector<Module*> modules{a.module};
  for (Module* m : a.module->imports) modules.push_back(m);
  for (Module* m : modules)
    for (const Binding* b : m->order) {
      if (!b->stmt) continue;
      const ast::Stmt& st = *b->stmt;
      json item{{"label", b->name}};
      if (!m->file->name.empty() && m != a.module) item["labelDetails"] = {{"description", m->file->name}};
      switch (st.kind) {
        case ast::StmtKind::Record:
          item["kind"] = kCompleteStruct;
          item["detail"] = st.record_kind.empty() ? "record" : st.record_kind;
          break;
        case ast::StmtKind::Fn:
          item["kind"] = kCompleteFunction;
          item["detail"] = signature(st);
          break;
        case ast::StmtKind::Let:
          item["kind"] = kCompleteVariable;
          break;
        default:
          continue;
      }
      items.push_back(std::move(item));
    }
  for (const UnitTable::Symbol& u : a.in->units().symbols()) {
    items.push_back(json{{"label", u.name}, {"kind", kCompleteUnit}});
    if (u.si)
      for (const char* p : {"k", "M", "G", "T", "P", "E"})
        items.push_back(json{{"label", p + u.name}, {"kind", kCompleteUnit}});
    if (u.iec)
      for (const char* p : {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"})
        items.push_back(json{{"label", p + u.name}, {"kind", kCompleteUnit}});
  }
  return items;
}

json document_symbols(const Analysis& a) {
  json out = json::array();
  if (!a.module) return out;
  auto symbol = [&](const std::string& name, int kind, Span whole, Span name_span) {
    if (!name_span.valid()) name_span = whole;
    return json{{"name", name.empty() ? "?" : name}, {"kind", kind},
                {"range", range_json(*a.lines, whole.begin, whole.end)},
                {"selectionRange", range_json(*a.lines, name_span.begin, name_span.end)}};
  };
  for (const ast::Stmt& st : a.module->ast.statements) {
    switch (st.kind) {
      case ast::StmtKind::Record: {
        json s = symbol(st.name, kSymbolStruct, st.span, st.name_span);
        s["detail"] = st.record_kind;
        s["children"] = json::array();
        for (const ast::FieldDecl& f : st.fields) s["children"].push_back(symbol(f.name, kSymbolField, f.span, f.name_span));
        out.push_back(std::move(s));
        break;
      }
      case ast::StmtKind::Let: out.push_back(symbol(st.name, kSymbolVariable, st.span, st.name_span)); break;
      case ast::StmtKind::Fn: out.push_back(symbol(st.name, kSymbolFunction, st.span, st.name_span)); break;
      case ast::StmtKind::Unit: out.push_back(symbol(st.name, kSymbolConstant, st.span, st.name_span)); break;
      default: break;
    }
  }
  return out;
}

json inlay_hints(const Analysis& a, std::size_t begin, std::size_t end) {
  json out = json::array();
  if (!a.module) return out;
  auto hint = [&](std::size_t at, const std::string& key) {
    if (at < begin || at > end) return;
    const auto it = a.shown.find(key);
    if (it == a.shown.end()) return;
    const Position p = a.lines->position(at);
    out.push_back(json{{"position", {{"line", p.line}, {"character", p.character}}},
                       {"label", "= " + it->second}, {"paddingLeft", true}});
  };
  // A literal says its value already: only formulas get a hint.
  auto literal = [](const ast::Expr* e) {
    return e->kind == ast::ExprKind::Number || e->kind == ast::ExprKind::String || e->kind == ast::ExprKind::Bool;
  };
  for (const ast::Stmt& st : a.module->ast.statements) {
    if (st.kind == ast::StmtKind::Let && st.value && !literal(st.value.get())) hint(st.value->span.end, st.name);
    if (st.kind != ast::StmtKind::Record) continue;
    for (const ast::FieldDecl& f : st.fields)
      if (f.value && !literal(f.value.get())) hint(f.value->span.end, st.name + "." + f.name);
  }
  return out;
}

json formatting(const std::string& path, const std::string& text) {
  const SourceFile src{path, text, std::filesystem::path(path).parent_path().generic_string()};
  std::string out;
  try {
    out = format_source(src);
    const SourceFile again{path, out, src.dir};
    if (const std::string d = ast_difference(parse_module(src), parse_module(again)); !d.empty())
      throw RequestFailed("napkin fmt: the new layout would mean something else (" + d + "); the text is left as it is");
  } catch (const Error& e) {
    throw RequestFailed(render(e.diagnostic()));  // rendered here: its spans point into `src`
  }
  if (out == text) return json::array();
  const LineIndex lines(text);
  return json::array({json{{"range", range_json(lines, 0, text.size())}, {"newText", out}}});
}

}  // namespace napkin::lsp
