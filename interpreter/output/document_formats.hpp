#pragma once
// Formats written from a command's JSON document rather than by the
// command itself: one function each, from the document's text to the
// page. Every command whose --format offers json offers these too
// (kDocumentFormats, cli/output_format.hpp), so one function reaches every
// such command at once. A document format declares its function here.
#include <string>
#include <string_view>

namespace napkin {

// What a document format is: `title` names the command ("napkin run"),
// `json` is the command's whole JSON document.
using DocumentFormatter = std::string (*)(std::string_view title, const std::string& json);

// A standalone HTML page (html.cpp).
std::string html_page(std::string_view title, const std::string& json);

}  // namespace napkin
