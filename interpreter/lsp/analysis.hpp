#pragma once
// One evaluation of a document's text: the interpreter that loaded it (its
// spans point into it), the diagnostics it found, and each field's value.
// The server makes a new one on every change; the whole file is evaluated
// again, a few milliseconds for the examples (bench/README.md).
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/core/interpreter.hpp"
#include "positions.hpp"

namespace napkin::lsp {

struct Analysis {
  std::string path;  // the document's file, as napkin names it
  std::string text;
  std::unique_ptr<Interpreter> in;
  Module* module = nullptr;        // null when the text did not load (a parse error)
  nlohmann::json diagnostics = nlohmann::json::array();  // LSP Diagnostic objects, each once
  std::map<std::string, std::string> shown;  // "decode.batch" or a let's name: its value as `run` shows it
  std::unique_ptr<LineIndex> lines;

  const SourceFile* file() const { return module ? module->file.get() : nullptr; }
};

using OptionsFactory = std::function<Options()>;

// Loads and evaluates `text` as the file `path` (imports resolve beside it).
std::unique_ptr<Analysis> analyse(const OptionsFactory& options, const std::string& path, std::string text);

// An LSP Range of a span within `text`.
nlohmann::json range_json(const LineIndex& lines, std::size_t begin, std::size_t end);

}  // namespace napkin::lsp
