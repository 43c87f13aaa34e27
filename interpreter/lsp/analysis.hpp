#pragma once
// One evaluation of a document's text: the interpreter that loaded it (its
// spans point into it), the diagnostics it found, and each field's value.
// The server makes a new one on every change; the whole file is evaluated
// again, a few milliseconds for the examples (bench/README.md). Loading
// and evaluating are apart, so that the evaluation can run where a time
// bound can stop it (evaluation.hpp).
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/core/interpreter.hpp"
#include "positions.hpp"

namespace napkin::lsp {

// Where a place in another file opens: the standard library's modules are
// written, as they are built into this binary, to `std_dir`.
struct Places {
  std::string doc_uri;
  std::string std_dir;
};

struct Analysis {
  std::string path;  // the document's file, as napkin names it
  std::string text;
  std::unique_ptr<Interpreter> in;
  Module* module = nullptr;        // null when the text did not load (a parse error)
  nlohmann::json diagnostics = nlohmann::json::array();  // LSP Diagnostic objects, each once
  std::map<std::string, std::string> shown;  // "decode.batch" or a let's name: its value as `run` shows it
  std::unique_ptr<LineIndex> lines;
  // Its evaluation ran past the server's time bound and was stopped:
  // nothing evaluates this text again (a hover would run as long).
  bool stopped = false;

  const SourceFile* file() const { return module ? module->file.get() : nullptr; }
};

using OptionsFactory = std::function<Options()>;

// Loads `text` as the file `path` (imports resolve beside it): a parse or
// load error is its one diagnostic.
std::unique_ptr<Analysis> load(const OptionsFactory& options, const std::string& path, std::string text,
                               const Places& places);
// Evaluates what `a` loaded (fields, lets, sweeps, checks, solves): every
// diagnostic `napkin check` reports, and each value as `run` shows it.
void evaluate_file(Analysis& a, const Places& places);
// Both, in this process.
std::unique_ptr<Analysis> analyse(const OptionsFactory& options, const std::string& path, std::string text,
                                  const Places& places);

// What `evaluate_file` found, as JSON text, and read back into an analysis of
// the same text: how an evaluation in another process reports.
// take_findings is false if `text` holds none (the process failed).
std::string findings(const Analysis& a);
bool take_findings(Analysis& a, const std::string& text);

// The diagnostic of an evaluation stopped after `seconds` (E0703), and of
// one whose process ended without its findings (E0000, a bug).
nlohmann::json stopped_diagnostic(double seconds);
nlohmann::json failed_diagnostic();

// An LSP Range of a span within `text`.
nlohmann::json range_json(const LineIndex& lines, std::size_t begin, std::size_t end);
// An LSP Location of a span: in the document (`doc`, as `places.doc_uri`), in
// std/ (its copy under places.std_dir) or in another file; null where none.
nlohmann::json location(const SourceFile* doc, Span s, const Places& places);

}  // namespace napkin::lsp
