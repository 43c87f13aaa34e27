#include <fmt/format.h>

#include <system_error>

#include "interpreter/io/import_policy.hpp"
#include "interpreter/io/read_source.hpp"
#include "graded.hpp"
#include "guarded.hpp"
#include "interpreter/run/solve_statements.hpp"
#include "restricted.hpp"

namespace napkin::cli {

namespace {

// The file whose checks are run. Restricted, its checks see the builtins and
// the standard library before anything the files it imports define: a
// submission it imports cannot redefine `abs` or `kv_cache_bytes` for them.
Module* checker(Interpreter& in, const std::string& file, const Common& c) {
  Module* m = in.load_file(file);
  if (c.restricted) {
    m->builtins_first = true;
    m->lookup_cache.clear();
  }
  return m;
}

// The text of a file whose checks are listed, errored, when it cannot be
// run; restricted, read as the run would read it, or not at all: a link to
// the reference must not list the reference's checks.
std::string checks_text(const std::string& file, bool restricted) {
  std::string text;
  if (restricted ? read_restricted_file(file, text).has_value() : read_source(file, text, /*allow_pipe=*/false) != 0)
    text.clear();
  return text;
}

// The text the command line has shown since before check results were data:
// failures with their derivations, passes with -v, a count at the end.
Result check_text(const CheckArgs& a, const Common& common) {
  Result total;
  int passed = 0, failed = 0, loaded = 0, errors = 0;
  for (const auto& file : a.files) {
    Common c = common;
    c.root_file = file;
    Result r = guarded(c, [&](Interpreter& in) {
      Module* m = checker(in, file, c);
      ++loaded;
      // Every field the file defines is evaluated, not only what the checks
      // use: a file that cannot be evaluated never passes.
      // It prints no derivation (a failed check derives its own): none is built.
      Report report = build_report(in, m, false, /*keep_going=*/true, Derivations::Results);
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
      for (const SolveReport& s : solve_statements(in, m, 0))
        if (s.error) {
          res.err += render(*s.error);
          ++errors;
          res.code = 2;
        }
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

// Each failed check's account, as the text prints it under the check's own
// line: a notebook shows it from the data (disclose() keeps it only with
// the expected values).
void add_derivations(const Interpreter& in, const std::vector<CheckResult>& ran, std::vector<CheckOutcome>& out) {
  for (const CheckResult& ch : ran) {
    if (ch.passed) continue;
    for (CheckOutcome& o : out) {
      if (o.status != CheckOutcome::Status::failed || o.line != ch.line || o.source != ch.source) continue;
      const std::string text = check_failure_text(in, ch);
      std::size_t at = text.find('\n');  // past the check's own line
      while (at != std::string::npos && at + 1 < text.size()) {
        const std::size_t end = text.find('\n', at + 1);
        o.derivation.push_back(text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1));
        at = end;
      }
      break;
    }
  }
}

// One file's checks as data, whatever happens to the file.
GradedFile graded_file(const std::string& file, const Common& common) {
  Common c = common;
  c.root_file = file;
  GradedFile g;
  g.file = file;
  // An error past the checks is the file's; before them, every check's.
  auto failed = [&](const Diagnostic& d) {
    if (g.checks.empty()) g = unrunnable(file, "", d);
    else g.errors.push_back(error_info(d));
  };
  Diagnostic stopped;  // what stopped the file, if the body did not catch it
  const Result r = guarded(c, [&](Interpreter& in) {
    Module* m = nullptr;
    try {
      m = checker(in, file, c);
    } catch (const Error& e) {
      g = unrunnable(file, checks_text(file, c.restricted), e.diagnostic());
      return Result{};
    }
    try {
      const Report report = build_report(in, m, false, /*keep_going=*/true, Derivations::Results);
      g.checks = graded_checks(in, m);
      add_derivations(in, report.checks, g.checks);
      add_file_errors(g, report.errors);
      // A `solve` statement that finds nothing: its error, as data, with its place.
      for (const SolveReport& s : solve_statements(in, m, 0))
        if (s.error) g.errors.push_back(error_info(*s.error));
    } catch (const std::bad_alloc&) {
      g = all_errored({file}, diagnose(std::current_exception(), c.restricted ? c.memory_limit : 0), c.restricted).front();
    } catch (...) {  // what keeping going does not keep: the file's result, as data
      failed(diagnose(std::current_exception()));
    }
    return Result{};
  }, &stopped);
  if (g.checks.empty() && !r.err.empty()) g = unrunnable(file, "", stopped);
  return g;
}

}  // namespace

std::string render_graded(std::vector<GradedFile> files, Format format, const std::string& title,
                          const Disclosure& d) {
  disclose(files, d);
  if (format == Format::json) return graded_json(files);
  if (format == Format::junit) return graded_junit(files, title);
  if (format == Format::gradescope) return graded_gradescope(files, d.visibility);
  return graded_text(files);
}

int graded_status(const std::vector<GradedFile>& files) {
  int code = 0;
  for (const auto& f : files) {
    if (!f.errors.empty()) code = 2;
    for (const auto& c : f.checks)
      code = std::max(code, c.status == CheckOutcome::Status::errored ? 2 : c.status == CheckOutcome::Status::failed ? 1 : 0);
  }
  return code;
}

std::vector<GradedFile> all_errored(const std::vector<std::string>& files, const Diagnostic& d, bool restricted) {
  std::vector<GradedFile> out;
  for (const auto& f : files) out.push_back(unrunnable(f, checks_text(f, restricted), d));
  return out;
}

void add_file_errors(GradedFile& g, const std::vector<Diagnostic>& errors) {
  // The same error is the same code and message at the same place.
  auto same = [](const ErrorInfo& a, const ErrorInfo& b) {
    return a.code == b.code && a.message == b.message && a.file == b.file && a.line == b.line && a.column == b.column;
  };
  for (const auto& d : errors) {
    ErrorInfo e = error_info(d);
    bool carried = false;
    for (const auto& c : g.checks) carried = carried || (c.error && same(*c.error, e));
    if (!carried) g.errors.push_back(std::move(e));
  }
}

Result cmd_check(const CheckArgs& a, const Common& c) {
  if (a.format == Format::text) return check_text(a, c);
  // The checkers hold the expected values.
  Disclosure shown = a.disclosure;
  shown.secret_files = a.files;
  if (c.restricted && c.process_ends)
    on_stop([&, shown](const Diagnostic& d) {
      return render_graded(all_errored(a.files, d, c.restricted), a.format, "napkin check", shown);
    }, a.format);
  std::vector<GradedFile> files;
  for (const auto& f : a.files) files.push_back(graded_file(f, c));
  Result r;
  r.out = render_graded(files, a.format, "napkin check", shown);
  r.code = graded_status(files);
  return r;
}

}  // namespace napkin::cli
