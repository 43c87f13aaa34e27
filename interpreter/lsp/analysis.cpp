#include "analysis.hpp"

#include <filesystem>
#include <set>
#include <tuple>

#include "grammar/code_format.hpp"
#include "grammar/diagnose.hpp"
#include "interpreter/output/report.hpp"
#include "interpreter/run/solve_statements.hpp"

namespace napkin::lsp {
namespace {

using nlohmann::json;

constexpr int kError = 1, kInformation = 3;  // DiagnosticSeverity

// The diagnostic's first label in the document, else the document's start:
// an error inside an imported file still shows, at the top of the one open.
json diagnostic_json(const Analysis& a, const SourceFile* doc, const Diagnostic& d) {
  std::size_t begin = 0, end = 0;
  std::string elsewhere;
  for (const Label& l : d.labels) {
    if (!l.span.valid()) continue;
    if (l.span.file == doc || (doc == nullptr && l.span.file->name == a.path)) {
      begin = l.span.begin;
      end = l.span.end;
      elsewhere.clear();
      break;
    }
    if (elsewhere.empty()) elsewhere = l.span.where();
  }
  std::string message = d.message;
  if (!elsewhere.empty()) message += " (at " + elsewhere + ")";
  for (const std::string& n : d.notes) message += "\nnote: " + n;
  if (!d.help.empty()) message += "\nhelp: " + d.help;
  return json{{"range", range_json(*a.lines, begin, end)},
              {"severity", kError},
              {"code", fmt::format("{}", d.code)},
              {"source", "napkin"},
              {"message", message}};
}

void add_once(json& list, std::set<std::string>& seen, json d) {
  if (seen.insert(d.dump()).second) list.push_back(std::move(d));
}

}  // namespace

json range_json(const LineIndex& lines, std::size_t begin, std::size_t end) {
  const Position b = lines.position(begin), e = lines.position(end);
  return json{{"start", {{"line", b.line}, {"character", b.character}}},
              {"end", {{"line", e.line}, {"character", e.character}}}};
}

std::unique_ptr<Analysis> analyse(const OptionsFactory& options, const std::string& path, std::string text) {
  auto a = std::make_unique<Analysis>();
  a->path = path;
  a->text = std::move(text);
  a->lines = std::make_unique<LineIndex>(a->text);
  a->in = std::make_unique<Interpreter>(options());
  std::set<std::string> seen;
  const std::string dir = std::filesystem::path(path).parent_path().generic_string();
  try {
    a->module = a->in->load_source(path, a->text, dir);
  } catch (...) {
    add_once(a->diagnostics, seen, diagnostic_json(*a, nullptr, diagnose(std::current_exception())));
    return a;
  }
  // The lines below point into the interpreter's copy of the text, the same bytes as a->text.
  const SourceFile* doc = a->module->file.get();
  try {
    Report r = build_report(*a->in, a->module, false, /*keep_going=*/true, Derivations::Results);
    for (const Diagnostic& d : r.errors) add_once(a->diagnostics, seen, diagnostic_json(*a, doc, d));
    for (const CheckResult& c : r.checks) {
      if (c.passed || !c.stmt) continue;
      std::string message = "check failed: " + c.source;
      if (!c.detail.empty()) message += " (" + c.detail + ")";
      add_once(a->diagnostics, seen,
               json{{"range", range_json(*a->lines, c.stmt->span.begin, c.stmt->span.end)},
                    {"severity", kError}, {"code", std::string(code_text(codes::check_failed))}, {"source", "napkin"},
                    {"message", message}});
    }
    for (const Section& s : r.sections)
      for (const FieldReport& f : s.fields) {
        if (f.ok) a->shown[f.qualified] = a->in->show(f.value);
        if (f.ok || f.needs.empty()) continue;
        // Waiting for an input is no error (`napkin run` shows "needs NAME"), but the
        // editor says so at the record's name: once for each record and input.
        const ast::Stmt* st = nullptr;
        for (const ast::Stmt& x : a->module->ast.statements)
          if (x.name == s.name && (x.kind == ast::StmtKind::Record || x.kind == ast::StmtKind::Let)) st = &x;
        if (!st) continue;
        std::string message = fmt::format("{} needs `{}`, an input with no value", s.name, f.needs);
        if (!f.declared_at.empty()) message += " (declared at " + f.declared_at + ")";
        add_once(a->diagnostics, seen,
                 json{{"range", range_json(*a->lines, st->name_span.begin, st->name_span.end)},
                      {"severity", kInformation}, {"source", "napkin"}, {"message", message}});
      }
  } catch (...) {
    add_once(a->diagnostics, seen, diagnostic_json(*a, doc, diagnose(std::current_exception())));
  }
  // A `solve` that finds nothing is an error in `napkin check` (E0503):
  // the editor shows it too, at the same place.
  try {
    for (const SolveReport& s : solve_statements(*a->in, a->module, 0))
      if (s.error) add_once(a->diagnostics, seen, diagnostic_json(*a, doc, *s.error));
  } catch (...) {
    add_once(a->diagnostics, seen, diagnostic_json(*a, doc, diagnose(std::current_exception())));
  }
  return a;
}

}  // namespace napkin::lsp
