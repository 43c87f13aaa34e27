#include "commands.hpp"

#include <fmt/format.h>

#include "../../grammar/parser.hpp"
#include "../output.hpp"

namespace napkin::cli {
namespace {

Options options(const Common& c) {
  Options o;
  o.digits = c.digits;
  o.stdlib_dir = c.stdlib_dir;
  return o;
}

// Runs `body` with a fresh interpreter, turning a napkin error into its
// rendered diagnostic and exit 2. The interpreter outlives the error, whose
// spans point into the files it loaded.
template <typename F>
Result guarded(const Common& c, F&& body) {
  Interpreter in(options(c));
  try {
    return body(in);
  } catch (const Error& e) {
    return Result{"", render(e.diagnostic()), 2};
  } catch (const std::bad_alloc&) {
    return Result{"", "error[E0702]: out of memory\n", 2};
  }
}

}  // namespace

Result cmd_run(const RunArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    Report r = build_report(in, m, a.all);
    Result res;
    res.out = a.format == "json" ? report_json(in, r) : report_text(in, r, TextOptions{a.steps});
    res.code = r.failed() ? 1 : 0;
    return res;
  });
}

Result cmd_explain(const ExplainArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* m = in.load_file(a.file);
    ExplainNode root = explain(in, m, a.name, a.depth);
    return Result{explain_text(root), "", 0};
  });
}

Result cmd_check(const CheckArgs& a, const Common& c) {
  Result total;
  int passed = 0, failed = 0, loaded = 0;
  for (const auto& file : a.files) {
    Result r = guarded(c, [&](Interpreter& in) {
      Module* m = in.load_file(file);
      ++loaded;
      auto checks = run_checks(in, m);
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
      return res;
    });
    total.out += r.out;
    total.err += r.err;
    total.code = std::max(total.code, r.code);
  }
  if (loaded > 0) total.out += fmt::format("{} passed, {} failed\n", passed, failed);
  return total;
}

Result cmd_eval(const EvalArgs& a, const Common& c) {
  return guarded(c, [&](Interpreter& in) {
    Module* prelude = in.prelude();
    static SourceFile src;
    src = SourceFile{"<eval>", a.expr, ""};
    ast::ExprPtr e = parse_expression(src);
    Trace trace;
    Value v = in.eval_in(prelude, *e, &trace);
    Result res;
    if (a.steps) {
      for (const auto& line : derivation_lines(derive_text(in, *e, trace, v))) res.out += "= " + line + "\n";
      res.out.erase(0, 2);
    } else {
      res.out = in.show(v) + "\n";
    }
    return res;
  });
}

}  // namespace napkin::cli
