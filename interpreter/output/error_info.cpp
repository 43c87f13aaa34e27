#include "error_info.hpp"

#include <fmt/format.h>

#include <tuple>

#include "grammar/code_format.hpp"

namespace napkin {

namespace {

PlaceInfo place_of(const Span& s) {
  PlaceInfo p;
  p.file = s.file->name;
  std::tie(p.line, p.column) = s.file->line_col(s.begin);
  std::tie(p.end_line, p.end_column) = s.file->line_col(s.end);
  return p;
}

nlohmann::ordered_json place_json(nlohmann::ordered_json j, const PlaceInfo& p) {
  j["file"] = p.file;
  j["line"] = p.line;
  j["column"] = p.column;
  j["end_line"] = p.end_line;
  j["end_column"] = p.end_column;
  return j;
}

}  // namespace

ErrorInfo error_info(const Diagnostic& d) {
  ErrorInfo e;
  e.code = std::string(code_text(d.code));
  e.message = d.message;
  bool placed_by_primary = false;
  for (const auto& l : d.labels) {
    if (!l.span.valid()) continue;
    const PlaceInfo p = place_of(l.span);
    e.labels.push_back({p, l.text, l.primary});
    if (!placed_by_primary && (l.primary || e.file.empty())) {
      e.file = p.file;
      e.line = p.line;
      e.column = p.column;
      e.end_line = p.end_line;
      e.end_column = p.end_column;
      placed_by_primary = l.primary;
    }
  }
  e.notes = d.notes;
  e.help = d.help;
  for (const auto& m : d.mentions) {
    const auto [line, column] = m.span.file->line_col(m.span.begin);
    const char* in = m.in == Mention::In::note ? "note" : m.in == Mention::In::help ? "help" : "message";
    e.mentions.push_back({m.text, in, m.note, m.span.file->name, line, m.column ? column : 0});
  }
  e.rendered = render(d);
  return e;
}

nlohmann::ordered_json error_json(const ErrorInfo& e) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["code"] = e.code;
  j["message"] = e.message;
  j = place_json(std::move(j), {e.file, e.line, e.column, e.end_line, e.end_column});
  nlohmann::ordered_json labels = nlohmann::ordered_json::array();
  for (const auto& l : e.labels) {
    nlohmann::ordered_json label = nlohmann::ordered_json::object();
    label["message"] = l.message;
    label["primary"] = l.primary;
    labels.push_back(place_json(std::move(label), l.place));
  }
  j["labels"] = std::move(labels);
  j["notes"] = e.notes;
  j["help"] = e.help;
  nlohmann::ordered_json mentions = nlohmann::ordered_json::array();
  for (const auto& m : e.mentions)
    mentions.push_back({{"text", m.text}, {"in", m.in}, {"index", m.index}, {"file", m.file}, {"line", m.line},
                        {"column", m.column}});
  j["mentions"] = std::move(mentions);
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
