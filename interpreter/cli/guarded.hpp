#pragma once
// What every subcommand shares: building the interpreter from the common
// options, and turning whatever stops a command into its rendered
// diagnostic (exit 2, diagnose.hpp).
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "grammar/code_format.hpp"
#include "grammar/parser.hpp"
#include "host.hpp"
#include "restricted.hpp"
#include "interpreter/output/output.hpp"
#include "commands.hpp"
#include "diagnose.hpp"

namespace napkin::cli {

inline Options options(const Common& c) {
  Options o;
  o.digits = c.digits;
  o.samples = c.samples;
  o.stdlib_dir = c.stdlib_dir;
  if (c.host && c.host->bind) c.host->bind(o, c);
  if (c.restricted) {
    o.imports.restricted = true;
    o.imports.root = import_root(c.root_file);
  }
  return o;
}

// Keeps `in` alive until the process ends, never destroyed: freeing every
// tree, record and trace one at a time was a tenth of a short run. A
// sanitizer build destroys it as usual, so that it still checks the frees.
void leave_for_exit(std::unique_ptr<Interpreter> in);
void leave_for_exit(std::vector<std::unique_ptr<Interpreter>> ins);  // all of them (napkin diff's two)

// `memory_limit`: the MiB a restricted run may use (0: none). Whatever
// stops `body` is turned into a Diagnostic by diagnose() and rendered; a
// caller that keeps the error as data passes `error`.
template <typename F>
Result run_guarded(Interpreter& in, F&& body, std::size_t memory_limit = 0, Diagnostic* error = nullptr) {
  try {
    return body(in);
  } catch (...) {
    const Diagnostic d = diagnose(std::current_exception(), memory_limit);
    if (error) *error = d;
    return failed(d);
  }
}

// An error that stopped a command: its text, and for a command that writes
// JSON (c.json_document) the document of it too.
inline Result stopped_by(const Common& c, const Diagnostic& d) {
  Result r = failed(d);
  if (c.json_document) r.out = failed_json(d);
  return r;
}

// Runs `body` with a fresh interpreter. The interpreter outlives the error,
// whose spans point into the files it loaded. A command that writes JSON
// (c.json_document) and is stopped by an error writes it as a document,
// so that a face reads it as data.
template <typename F>
Result guarded(const Common& c, F&& body, Diagnostic* error = nullptr) {
  auto in = std::make_unique<Interpreter>(options(c));
  Diagnostic stopped;
  stopped.code = Code::internal;
  bool was_stopped = false;
  Result r = run_guarded(
      *in,
      [&](Interpreter& i) {
        was_stopped = true;  // until body returns
        Result done = body(i);
        was_stopped = false;
        return done;
      },
      c.restricted ? c.memory_limit : 0, &stopped);
  if (error && was_stopped) *error = stopped;
  if (was_stopped && r.out.empty()) r = stopped_by(c, stopped);
  if (c.process_ends) leave_for_exit(std::move(in));
  return r;
}

}  // namespace napkin::cli
