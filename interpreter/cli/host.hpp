#pragma once
// What the program around the commands gives each interpreter from outside
// the language. `napkin` (main.cpp) gives the probes behind measure(...)
// with their cache, import_toml(...) and the TOML writers; the playground's
// .wasm (playground_main.cpp) checks probe names but runs none, and writes
// no TOML, so that neither toml++ nor the probes' cache is in the page.
#include <string>

namespace napkin {
class Interpreter;
struct Options;
struct Report;
struct Diagnostic;
struct ExplainNode;
}  // namespace napkin

namespace napkin::cli {

struct Common;

struct TomlWriters {
  std::string (*report)(const Interpreter&, const Report&);
  std::string (*unloaded_report)(const Diagnostic&);
  std::string (*explain)(const ExplainNode&);
};

struct Host {
  // Sets Options::prober and adds builtins for an interpreter of these
  // options; none: measure(...) takes its `else` ("measurements are off").
  void (*bind)(Options& o, const Common& c) = nullptr;
  const TomlWriters* toml = nullptr;  // none: --format toml is not written here
};

extern const Host kCommandLineHost;  // command_line_host.cpp
extern const Host kPlaygroundHost;   // playground_host.cpp

// The host's TOML writers; an error (E0800) where it has none.
const TomlWriters& toml_writers(const Common& c);

}  // namespace napkin::cli
