#pragma once
// What a command prints, named once: every --format is read into a Format
// here (main.cpp through CLI11, the playground's entry by hand), and the
// commands, the terminal-safe printing (finish.hpp) and a stopped run's
// document (restricted.hpp) compare the enum, never the option's text.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/output/document_formats.hpp"
#include "word_table.hpp"

namespace napkin::cli {

enum class Format { text, json, toml, markdown, latex, junit, gradescope, csv, source, html };

inline constexpr WordTable<Format, 10> kFormatNames{{
    {Format::text, "text"},
    {Format::json, "json"},
    {Format::toml, "toml"},
    {Format::markdown, "markdown"},
    {Format::latex, "latex"},
    {Format::junit, "junit"},
    {Format::gradescope, "gradescope"},
    {Format::csv, "csv"},
    {Format::source, "source"},  // napkin fmt's output: napkin source, printed as it is
    {Format::html, "html"},
}};

inline std::string_view format_name(Format f) { return word_for(kFormatNames, f); }

inline std::optional<Format> format_named(std::string_view name) { return value_named(kFormatNames, name); }

// The names of `formats`, in order: what an option lists as its choices.
inline std::vector<std::string> format_names(const std::vector<Format>& formats) {
  std::vector<std::string> out;
  for (Format f : formats) out.emplace_back(format_name(f));
  return out;
}

// The formats written from a command's JSON document by one function each
// (output/document_formats.hpp): every command whose --format offers json
// offers them, and `dispatch` (main.cpp) runs the command for its JSON and
// hands the document to the function.
inline constexpr std::array<std::pair<Format, DocumentFormatter>, 1> kDocumentFormats{{{Format::html, html_page}}};

// The function that writes `f` from a JSON document, or nullptr when the
// command writes `f` itself.
inline DocumentFormatter document_formatter(Format f) {
  for (const auto& [k, write] : kDocumentFormats)
    if (k == f) return write;
  return nullptr;
}

// `allowed` and, where it holds json, every document format after it.
inline std::vector<Format> with_document_formats(std::vector<Format> allowed) {
  for (Format f : allowed)
    if (f == Format::json) {
      for (const auto& [k, write] : kDocumentFormats) allowed.push_back(k);
      break;
    }
  return allowed;
}

// A machine-readable document: JSON, TOML or a results.json.
inline bool is_data(Format f) { return f == Format::json || f == Format::toml || f == Format::gradescope; }

}  // namespace napkin::cli
