#include "error_info.hpp"

#include <fmt/format.h>

#include <tuple>

#include "grammar/code_format.hpp"

namespace napkin {

ErrorInfo error_info(const Diagnostic& d) {
  ErrorInfo e;
  e.code = std::string(code_text(d.code));
  e.message = d.message;
  for (const auto& l : d.labels)
    if (l.span.valid() && (l.primary || e.file.empty())) {
      e.file = l.span.file->name;
      std::tie(e.line, e.column) = l.span.file->line_col(l.span.begin);
      if (l.primary) break;
    }
  e.rendered = render(d);
  return e;
}

nlohmann::ordered_json error_json(const ErrorInfo& e) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["code"] = e.code;
  j["message"] = e.message;
  j["file"] = e.file;
  j["line"] = e.line;
  j["column"] = e.column;
  return j;
}

std::string error_line(const Diagnostic& d, bool place) {
  std::string out = headline(d);
  if (place)
    for (const auto& l : d.labels)
      if (l.primary && l.span.valid()) {
        out += fmt::format(" ({})", l.span.where_line());
        break;
      }
  return out;
}

}  // namespace napkin
