#pragma once
// A diagnostic as data: what JSON, TOML and XML carry instead of rendered
// text, so that a program reading them finds the code and the place as
// fields, not inside a message.
#include <string>

#include <nlohmann/json.hpp>

#include "grammar/diagnostic.hpp"

namespace napkin {

struct ErrorInfo {
  std::string code;  // "E0100"
  std::string message;
  std::string file;  // "" when it has no place
  int line = 0, column = 0;
  std::string rendered;  // as the terminal shows it
};

// The primary label's place, or the first label's when none is primary.
ErrorInfo error_info(const Diagnostic& d);

// {"code", "message", "file", "line", "column"}: line and column count from
// 1, and are 0 (with file "") for an error that has no place.
nlohmann::ordered_json error_json(const ErrorInfo& e);

// The error on one line, as a document shows it in place of a value:
// "error[E0400]: division by zero", and with `place` its primary label's
// "(plan.napkin:3)".
std::string error_line(const Diagnostic& d, bool place = true);

}  // namespace napkin
