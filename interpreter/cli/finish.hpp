#pragma once
// How a command's Result leaves the process: stdout and stderr written
// whole, and the exit status. Shared by `napkin` and the playground's entry.
#include <string>
#include <string_view>

#include "commands.hpp"

namespace napkin::cli {

// Writes r.out to stdout and r.err to stderr, each whole and flushed, and
// returns the exit status: r.code, or 2 when the output could not be
// written (a full disk; a closed pipe ends quietly, as other Unix tools do).
int finish(const Result& r);

// A command's standard output as printed, in `format` (its --format, or
// "source" for `fmt`): no byte of it can drive a terminal, and each syntax
// keeps its own escaping. JSON (json, gradescope) and TOML: DEL and the C1
// controls written as their \u escapes (escape.hpp's document_controls);
// JUnit XML: as written, xml_text having escaped it; `fmt`'s source: the
// file's own bytes; anything else (text, Markdown, LaTeX, CSV): every
// control character but a newline or a tab shown as its escape, `\x1b`.
// Never the terminal's escapes over a machine format: `\x7f` in a JSON
// string is an invalid escape.
std::string printed(std::string out, Format format);

}  // namespace napkin::cli
