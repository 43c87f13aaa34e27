// libFuzzer target: one input is one .napkin file, parsed, evaluated and
// printed as `napkin run --steps` would. A napkin::Error is a correct answer
// to bad input; anything else (a crash, a sanitizer report, a hang, another
// exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "grammar/diagnostic.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/output/report.hpp"

namespace {
// Bigger inputs only make each run slower; the size limits have their own tests.
constexpr std::size_t kMaxInput = 64 * 1024;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  napkin::Options opts;  // no prober: every measure() uses its fallback
  napkin::Interpreter in(opts);
  try {
    // Relative imports resolve against a directory that does not exist, so
    // an input cannot reach the files around the fuzzer.
    napkin::Module* m = in.load_source("fuzz.napkin", std::string(reinterpret_cast<const char*>(data), size),
                                       "/nonexistent/napkin-fuzz");
    napkin::Report r = napkin::build_report(in, m, false);
    (void)napkin::report_text(in, r, napkin::TextOptions{true});
    (void)napkin::report_json(in, r);
  } catch (const napkin::Error& e) {
    (void)napkin::render(e.diagnostic());
  }
  return 0;
}
