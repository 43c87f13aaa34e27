#include "nesting.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>

#include "diagnostic.hpp"
#include "parser.hpp"

namespace napkin {

namespace {

// The characters the count looks at; every other byte is skipped in a tight loop.
constexpr std::array<bool, 256> kMarks = [] {
  std::array<bool, 256> m{};
  for (unsigned char c : std::string_view("#\"([{)]}")) m[c] = true;
  return m;
}();

}  // namespace

void check_nesting(const SourceFile& file) {
  const std::string& t = file.text;
  const std::size_t n = t.size();
  std::size_t depth = 0;
  for (std::size_t i = 0; i < n; ++i) {
    while (i < n && !kMarks[static_cast<unsigned char>(t[i])]) ++i;
    if (i == n) break;
    const char c = t[i];
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (c == '"') {
      // Strings end at a quote or at the end of the line, as in the grammar.
      for (++i; i < t.size() && t[i] != '"' && t[i] != '\n'; ++i)
        if (t[i] == '\\') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxNesting) {
        const Span at{&file, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)};
        fail(codes::nesting_limit, at, fmt::format("brackets nested deeper than {} levels", kMaxNesting),
             "name the inner parts: `let inner = ...`, then use `inner`");
      }
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

}  // namespace napkin
