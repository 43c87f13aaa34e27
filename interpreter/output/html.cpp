// A command's JSON document as one HTML page (--format html): read back
// with its keys in the order the command wrote them, objects as definition
// lists, lists of records as tables, and a value that has a `display` shown
// by it, the rest of it (its unit, formula, derivation) folded under it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "document_formats.hpp"
#include "escape.hpp"

namespace napkin {

namespace {

using json = nlohmann::ordered_json;

// Everything in the page that came from the document goes through here.
std::string text(std::string_view s) { return xml_text(s); }

// A string of several lines (a derivation laid out by the command) keeps
// its lines.
std::string lines(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return text(s);
  return fmt::format("<pre>{}</pre>", xml_text(s, true));
}

// Deeper than this, the rest of a value is shown as its JSON text: an
// explain tree follows a chain of a thousand values, and nested lists that
// deep are no help to a reader (nor to the stack).
constexpr int kMaxDepth = 64;

void put(std::string& out, const json& v, int depth = 0);

// A value with a display: the display, and what else it carries (its si
// figure, unit, formula, derivation) folded beneath it.
bool put_displayed(std::string& out, const json& v, int depth) {
  auto display = v.find("display");
  if (display == v.end() || !display->is_string()) return false;
  out += fmt::format("<span class=\"value\">{}</span>", text(display->get<std::string>()));
  json rest = json::object();
  for (const auto& [k, x] : v.items())
    if (k != "display") rest[k] = x;
  if (!rest.empty()) {
    out += "<details><summary>more</summary>";
    put(out, rest, depth + 1);
    out += "</details>";
  }
  return true;
}

// A list whose every item is a record holding no list: a table, one
// column per key in the order the keys first appear. A record that holds a
// list (a handout's section and its items, a question's paragraphs) reads
// better as definition lists, one after another.
bool put_table(std::string& out, const json& list, int depth) {
  std::vector<std::string> columns;
  for (const auto& row : list) {
    if (!row.is_object()) return false;
    for (const auto& [k, x] : row.items())
      if (x.is_array()) return false;
    for (const auto& [k, x] : row.items())
      if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
  }
  out += "<div class=\"table\"><table>\n<thead><tr>";
  for (const auto& c : columns) out += fmt::format("<th>{}</th>", text(c));
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : list) {
    out += "<tr>";
    for (const auto& c : columns) {
      out += "<td>";
      if (auto cell = row.find(c); cell != row.end()) put(out, *cell, depth + 1);
      out += "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>";
  return true;
}

void put(std::string& out, const json& v, int depth) {
  if (depth > kMaxDepth && (v.is_object() || v.is_array())) {
    out += fmt::format("<pre>{}</pre>", xml_text(v.dump()));
    return;
  }
  switch (v.type()) {
    case json::value_t::object:
      if (put_displayed(out, v, depth)) return;
      if (v.empty()) {
        out += "<em>none</em>";
        return;
      }
      out += "<dl>\n";
      for (const auto& [k, x] : v.items()) {
        out += fmt::format("<dt>{}</dt><dd>", text(k));
        put(out, x, depth + 1);
        out += "</dd>\n";
      }
      out += "</dl>";
      return;
    case json::value_t::array:
      if (v.empty()) {
        out += "<em>none</em>";
        return;
      }
      if (put_table(out, v, depth)) return;
      out += "<ul>\n";
      for (const auto& x : v) {
        out += "<li>";
        put(out, x, depth + 1);
        out += "</li>\n";
      }
      out += "</ul>";
      return;
    case json::value_t::string: out += lines(v.get<std::string>()); return;
    case json::value_t::null: out += "<em>null</em>"; return;
    case json::value_t::number_float: {
      // A whole number a document writes as a double (512.0 GPUs, tp 4.0)
      // is shown as one; any other as JSON writes it.
      const double x = v.get<double>();
      if (std::isfinite(x) && std::trunc(x) == x && std::fabs(x) < 1e15) {
        out += fmt::format("{}", static_cast<long long>(x));
        return;
      }
      out += text(v.dump());
      return;
    }
    default: out += text(v.dump()); return;  // integers and booleans as JSON writes them
  }
}

}  // namespace

std::string html_page(std::string_view title, const std::string& document) {
  const json doc = json::parse(document);
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>\n"
      "body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }}\n"
      "dl {{ display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }}\n"
      "dt {{ font-weight: 600; }}\ndd {{ margin: 0; }}\n"
      "div.table {{ overflow-x: auto; }}\n"
      "table {{ border-collapse: collapse; }}\n"
      "th, td {{ border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }}\n"
      "summary {{ color: #555; cursor: pointer; }}\n"
      "</style>\n</head>\n<body>\n<h1>{0}</h1>\n",
      text(title));
  put(out, doc);
  out += "\n</body>\n</html>\n";
  return out;
}

}  // namespace napkin
