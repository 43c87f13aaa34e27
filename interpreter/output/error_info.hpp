#pragma once
// A diagnostic as data: what JSON, TOML and XML carry instead of rendered
// text, so that a program reading them finds the code and the place as
// fields, not inside a message.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grammar/diagnostic.hpp"

namespace napkin {

// A span as data: where it starts, and the line and column just past its
// end (as an editor's range), all counting from 1.
struct PlaceInfo {
  std::string file;  // "" when it has no place
  int line = 0, column = 0, end_line = 0, end_column = 0;
};

struct LabelInfo {
  PlaceInfo place;
  std::string message;  // what the terminal writes under the caret
  bool primary = false;
};

// A place the words of an error name (Mention): the words, and where they point.
struct MentionInfo {
  std::string text;  // "plan.napkin:12:3", as it stands in the message, a note or the help
  std::string in;    // "message", "note" or "help"
  std::size_t index = 0;  // which note, from 0 (0 for the message and the help)
  std::string file;
  int line = 0;
  int column = 0;  // 0 where `text` names only the line
};

struct ErrorInfo {
  std::string code;  // "E0100"
  std::string message;
  std::string file;  // "" when it has no place
  int line = 0, column = 0;
  int end_line = 0, end_column = 0;  // just past the primary label's span
  std::vector<LabelInfo> labels;     // every label with a place, in the diagnostic's order
  std::vector<std::string> notes;
  std::string help;
  std::vector<MentionInfo> mentions;  // the places the message, notes and help name, in the order written
  std::string rendered;  // as the terminal shows it
};

// The primary label's place, or the first label's when none is primary;
// every label, note and help as the terminal shows them.
ErrorInfo error_info(const Diagnostic& d);

// {"code", "message", "file", "line", "column", "end_line", "end_column",
// "labels", "notes", "help", "mentions"}: lines and columns count from 1,
// and are 0 (with file "") for an error that has no place; each label is
// {"message", "primary", "file", "line", "column", "end_line", "end_column"},
// each mention {"text", "in", "index", "file", "line", "column"}.
nlohmann::ordered_json error_json(const ErrorInfo& e);

// The error on one line, as a document shows it in place of a value:
// "error[E0400]: division by zero", and with `place` its primary label's
// "(plan.napkin:3)".
std::string error_line(const Diagnostic& d, bool place = true);

}  // namespace napkin
