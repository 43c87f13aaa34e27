// libFuzzer target: `napkin fmt` of one input. A file that does not parse is
// an Error; one that does must format to text that parses to the same tree
// (grammar/ast_equal.hpp) and formats to itself again. A difference, a crash
// or another exception is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "grammar/ast_equal.hpp"
#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "interpreter/layout/formatter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;
  using namespace napkin;
  const SourceFile src{"fuzz.napkin", std::string(reinterpret_cast<const char*>(data), size), "/nonexistent"};
  std::string once;
  try {
    once = format_source(src);
  } catch (const Error& e) {
    (void)render(e.diagnostic());
    return 0;
  }
  const SourceFile again{"fuzz.napkin", once, "/nonexistent"};
  try {
    const std::string d = ast_difference(parse_module(src), parse_module(again));
    if (!d.empty()) {
      std::fprintf(stderr, "fmt changed the meaning: %s\n--- formatted:\n%s\n", d.c_str(), once.c_str());
      std::abort();
    }
    const std::string twice = format_source(again);
    if (twice != once) {
      std::fprintf(stderr, "fmt is not idempotent\n--- once:\n%s\n--- twice:\n%s\n", once.c_str(), twice.c_str());
      std::abort();
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "fmt's output does not parse:\n%s\n--- formatted:\n%s\n", render(e.diagnostic()).c_str(),
                 once.c_str());
    std::abort();
  }
  return 0;
}
