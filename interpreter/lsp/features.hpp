#pragma once
// The answers to the editor's questions about one analysed document. Each
// takes the byte offset the request's position maps to and returns the
// request's `result` (JSON null where there is no answer).
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis.hpp"

namespace napkin::lsp {

nlohmann::json hover(Analysis& a, std::size_t offset);
nlohmann::json definition(Analysis& a, std::size_t offset, const Places& places);
// `text` and `offset`: the document as it is now (it may not parse);
// `a`: the last analysis that loaded.
nlohmann::json completion(Analysis& a, const std::string& text, std::size_t offset);
nlohmann::json document_symbols(const Analysis& a);
nlohmann::json inlay_hints(const Analysis& a, std::size_t begin, std::size_t end);
// A request that cannot be answered: the server sends RequestFailed with this message.
struct RequestFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The edits that make `text` what `napkin fmt` prints; throws RequestFailed
// (the rendered diagnostic) when it does not parse.
nlohmann::json formatting(const std::string& path, const std::string& text);

}  // namespace napkin::lsp
