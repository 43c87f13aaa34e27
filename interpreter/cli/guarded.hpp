#pragma once
// What every subcommand shares: building the interpreter from the common
// options, and turning a napkin error into its rendered diagnostic (exit 2).
#include <fmt/format.h>

#include <memory>
#include <system_error>

#include "grammar/code_format.hpp"
#include "grammar/parser.hpp"
#include "import_toml.hpp"
#include "prober.hpp"
#include "restricted.hpp"
#include "interpreter/output/output.hpp"
#include "commands.hpp"

namespace napkin::cli {

inline Options options(const Common& c) {
  Options o;
  o.digits = c.digits;
  o.samples = c.samples;
  o.stdlib_dir = c.stdlib_dir;
  // Restricted: no probe runs (each `measure` takes its `else`), so nothing
  // is measured or written to the cache.
  o.prober = measure::make_prober(measure::ProberOptions::from(c.no_measure || c.restricted, c.remeasure && !c.restricted));
  if (c.restricted) {
    o.imports.restricted = true;
    o.imports.root = import_root(c.root_file);
  }
  o.builtins.push_back(measure::import_toml_builtin());
  return o;
}

// Keeps `in` alive until the process ends, never destroyed: freeing every
// tree, record and trace one at a time was a tenth of a short run. A
// sanitizer build destroys it as usual, so that it still checks the frees.
void leave_for_exit(std::unique_ptr<Interpreter> in);

// `memory_limit`: the MiB a restricted run may use (0: none), which running
// out of memory is reported against (E0704) instead of E0702.
template <typename F>
Result run_guarded(Interpreter& in, F&& body, std::size_t memory_limit = 0) {
  try {
    return body(in);
  } catch (const Error& e) {
    return Result{"", render(e.diagnostic()), 2};
  } catch (const std::bad_alloc&) {
    if (memory_limit) return Result{"", render(memory_diagnostic(memory_limit)), 2};
    return Result{"", "error[E0702]: out of memory\n", 2};
  } catch (const std::system_error& e) {  // file I/O a library reports its own way
    return Result{"", fmt::format("error[{}]: {}\n", codes::io, e.what()), 2};
  } catch (const std::exception& e) {
    return Result{"", fmt::format("error[{}]: internal error: {}; please report it\n", codes::internal, e.what()), 2};
  }
}

// Runs `body` with a fresh interpreter. The interpreter outlives the error,
// whose spans point into the files it loaded.
template <typename F>
Result guarded(const Common& c, F&& body) {
  auto in = std::make_unique<Interpreter>(options(c));
  Result r = run_guarded(*in, std::forward<F>(body), c.restricted ? c.memory_limit : 0);
  if (c.process_ends) leave_for_exit(std::move(in));
  return r;
}

}  // namespace napkin::cli
