#include "analysis.hpp"

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "grammar/code_format.hpp"
#include "grammar/diagnose.hpp"
#include "interpreter/derivation/check_failure.hpp"
#include "interpreter/output/report.hpp"
#include "interpreter/run/solve_statements.hpp"
#include "uris.hpp"

namespace napkin::lsp {
namespace {

using nlohmann::json;

constexpr int kError = 1, kInformation = 3;  // DiagnosticSeverity

bool in_document(const Analysis& a, const SourceFile* doc, const Span& s) {
  return s.valid() && (s.file == doc || (doc == nullptr && s.file->name == a.path));
}

// The diagnostic at its primary label where that is in the document, else
// its first label there, else the document's start (an error inside an
// imported file still shows, at the top of the one open, its place in the
// message). Every other label is related information, at its own place.
json diagnostic_json(const Analysis& a, const SourceFile* doc, const Diagnostic& d, const Places& places) {
  const Label* at = nullptr;
  for (const Label& l : d.labels)
    if (in_document(a, doc, l.span) && (!at || (l.primary && !at->primary))) at = &l;
  std::string message = d.message;
  if (!at)
    for (const Label& l : d.labels)
      if (l.span.valid()) {
        message += " (at " + l.span.where() + ")";
        break;
      }
  for (const std::string& n : d.notes) message += "\nnote: " + n;
  if (!d.help.empty()) message += "\nhelp: " + d.help;
  json out{{"range", range_json(*a.lines, at ? at->span.begin : 0, at ? at->span.end : 0)},
           {"severity", kError},
           {"code", fmt::format("{}", d.code)},
           {"source", "napkin"},
           {"message", message}};
  json related = json::array();
  for (const Label& l : d.labels) {
    if (&l == at || !l.span.valid()) continue;
    json where = location(doc, l.span, places);
    if (where.is_null()) continue;
    related.push_back(json{{"location", std::move(where)}, {"message", l.text.empty() ? d.message : l.text}});
  }
  if (!related.empty()) out["relatedInformation"] = std::move(related);
  return out;
}

void add_once(json& list, std::set<std::string>& seen, json d) {
  if (seen.insert(d.dump()).second) list.push_back(std::move(d));
}

// Waiting for an input is no error (`napkin run` shows "needs NAME"), but the
// editor says so at the record's name: once for each record and input.
void needs_inputs(Analysis& a, const Report& r, json& list, std::set<std::string>& seen) {
  for (const Section& s : r.sections)
    for (const FieldReport& f : s.fields) {
      if (f.ok) a.shown[f.qualified] = a.in->show(f.value);
      if (f.ok || f.needs.empty()) continue;
      const ast::Stmt* st = nullptr;
      for (const ast::Stmt& x : a.module->ast.statements)
        if (x.name == s.name && (x.kind == ast::StmtKind::Record || x.kind == ast::StmtKind::Let)) st = &x;
      if (!st) continue;
      std::string message = fmt::format("{} needs `{}`, an input with no value", s.name, f.needs);
      if (!f.declared_at.empty()) message += " (declared at " + f.declared_at + ")";
      add_once(list, seen,
               json{{"range", range_json(*a.lines, st->name_span.begin, st->name_span.end)},
                    {"severity", kInformation}, {"source", "napkin"}, {"message", message}});
    }
}

}  // namespace

json range_json(const LineIndex& lines, std::size_t begin, std::size_t end) {
  const Position b = lines.position(begin), e = lines.position(end);
  return json{{"start", {{"line", b.line}, {"character", b.character}}},
              {"end", {{"line", e.line}, {"character", e.character}}}};
}

json location(const SourceFile* doc, Span s, const Places& p) {
  std::string uri;
  if (s.file == doc) {
    uri = p.doc_uri;
  } else if (s.file->name.rfind("std/", 0) == 0 && s.file->dir.empty()) {
    uri = std_file_uri(*s.file, p.std_dir);
    if (uri.empty()) return nullptr;
  } else {
    uri = path_to_uri(std::filesystem::absolute(s.file->name).lexically_normal().generic_string());
  }
  const LineIndex lines(s.file->text);
  return json{{"uri", uri}, {"range", range_json(lines, s.begin, s.end)}};
}

std::unique_ptr<Analysis> load(const OptionsFactory& options, const std::string& path, std::string text,
                               const Places& places) {
  auto a = std::make_unique<Analysis>();
  a->path = path;
  a->text = std::move(text);
  a->lines = std::make_unique<LineIndex>(a->text);
  a->in = std::make_unique<Interpreter>(options());
  const std::string dir = std::filesystem::path(path).parent_path().generic_string();
  try {
    a->module = a->in->load_source(path, a->text, dir);
  } catch (...) {
    a->diagnostics.push_back(diagnostic_json(*a, nullptr, diagnose(std::current_exception()), places));
  }
  return a;
}

void evaluate_file(Analysis& a, const Places& places) {
  if (!a.module) return;
  std::set<std::string> seen;
  for (const json& d : a.diagnostics) seen.insert(d.dump());
  // The lines below point into the interpreter's copy of the text, the same bytes as a.text.
  const SourceFile* doc = a.module->file.get();
  try {
    Report r = build_report(*a.in, a.module, false, /*keep_going=*/true, Derivations::Results);
    for (const Diagnostic& d : r.errors) add_once(a.diagnostics, seen, diagnostic_json(a, doc, d, places));
    // A failed check: E0500 as `napkin check` prints it, over its condition.
    for (const CheckResult& c : r.checks)
      if (!c.passed && c.stmt) add_once(a.diagnostics, seen, diagnostic_json(a, doc, check_failure(*a.in, c), places));
    needs_inputs(a, r, a.diagnostics, seen);
  } catch (...) {
    add_once(a.diagnostics, seen, diagnostic_json(a, doc, diagnose(std::current_exception()), places));
  }
  // A `solve` that finds nothing is an error in `napkin check` (E0503):
  // the editor shows it too, at the same place.
  try {
    for (const SolveReport& s : solve_statements(*a.in, a.module, 0))
      if (s.error) add_once(a.diagnostics, seen, diagnostic_json(a, doc, *s.error, places));
  } catch (...) {
    add_once(a.diagnostics, seen, diagnostic_json(a, doc, diagnose(std::current_exception()), places));
  }
}

std::unique_ptr<Analysis> analyse(const OptionsFactory& options, const std::string& path, std::string text,
                                  const Places& places) {
  auto a = load(options, path, std::move(text), places);
  evaluate_file(*a, places);
  return a;
}

std::string findings(const Analysis& a) {
  return json{{"diagnostics", a.diagnostics}, {"shown", a.shown}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool take_findings(Analysis& a, const std::string& text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  if (const auto d = j.find("diagnostics"); d != j.end() && d->is_array()) a.diagnostics = *d;
  if (const auto s = j.find("shown"); s != j.end() && s->is_object())
    for (const auto& [k, v] : s->items())
      if (v.is_string()) a.shown[k] = v.get<std::string>();
  return true;
}

json stopped_diagnostic(double seconds) {
  return json{{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
              {"severity", kError},
              {"code", std::string(code_text(codes::time_limit))},
              {"source", "napkin"},
              {"message", fmt::format("evaluating this file took longer than {} s, the language server's time limit, "
                                      "and was stopped: no values, checks or solves are shown\n"
                                      "help: a file that takes this long loops or sweeps far more points than it "
                                      "needs; `napkin run FILE` shows how far it gets",
                                      seconds)}};
}

json failed_diagnostic() {
  return json{{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
              {"severity", kError},
              {"code", std::string(code_text(codes::internal))},
              {"source", "napkin"},
              {"message", "the evaluation of this file ended without an answer: a bug in napkin; please report it "
                          "with the file (`napkin check FILE` may say more)"}};
}

}  // namespace napkin::lsp
