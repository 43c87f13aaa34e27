#include <fmt/format.h>

#include "guarded.hpp"

namespace napkin::cli {

Result cmd_check(const CheckArgs& a, const Common& c) {
  Result total;
  int passed = 0, failed = 0, loaded = 0, errors = 0;
  for (const auto& file : a.files) {
    Result r = guarded(c, [&](Interpreter& in) {
      Module* m = in.load_file(file);
      ++loaded;
      // Every field the file defines is evaluated, not only what the checks
      // use: a file that cannot be evaluated never passes.
      // It prints no derivation (a failed check derives its own): none is built.
      Report report = build_report(in, m, false, /*keep_going=*/true, /*derivations=*/false);
      const auto& checks = report.checks;
      Result res;
      int p = 0;
      for (const auto& ch : checks) {
        if (ch.passed) {
          ++p;
          if (a.verbose) res.out += fmt::format("✓ {}:{}: {}\n", file, ch.line, ch.source);
        } else {
          res.out += check_failure_text(in, ch);
        }
      }
      passed += p;
      failed += static_cast<int>(checks.size()) - p;
      res.code = static_cast<int>(checks.size()) == p ? 0 : 1;
      for (const auto& d : report.errors) res.err += render(d);
      errors += static_cast<int>(report.errors.size());
      // A `solve` statement that finds nothing is an error here too.
      const SolveStatements solves = run_solve_statements(in, m, false);
      res.err += solves.err;
      errors += solves.errors;
      if (solves.errors) res.code = 2;
      if (!report.errors.empty()) res.code = 2;
      return res;
    });
    total.out += r.out;
    total.err += r.err;
    total.code = std::max(total.code, r.code);
  }
  if (loaded > 0)
    total.out += errors ? fmt::format("{} passed, {} failed, {} {}\n", passed, failed, errors, errors == 1 ? "error" : "errors")
                        : fmt::format("{} passed, {} failed\n", passed, failed);
  return total;
}

}  // namespace napkin::cli
