// libFuzzer target: `napkin diff OLD NEW` of two fuzzed files. The input is
// both, split at its first NUL byte (no NUL: the input against itself with
// its first line dropped). Both are evaluated as `napkin diff` does (fake
// prober, fuzz_common.hpp) and the diff printed as text, Markdown and JSON,
// with the first moved value's two derivations side by side.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_common.hpp"
#include "interpreter/derivation/explain.hpp"
#include "interpreter/review/diff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;
  using namespace napkin;
  const std::string all(reinterpret_cast<const char*>(data), size);
  std::string old_text, new_text;
  if (const auto nul = all.find('\0'); nul != std::string::npos) {
    old_text = all.substr(0, nul);
    new_text = all.substr(nul + 1);
  } else {
    old_text = all;
    const auto nl = all.find('\n');
    new_text = nl == std::string::npos ? "" : all.substr(nl + 1);
  }
  Interpreter before_in(fuzz::options());
  Interpreter after_in(fuzz::options());
  try {
    Version before{&before_in, before_in.load_source("old.napkin", old_text, fuzz::kNowhere), {}};
    Version after{&after_in, after_in.load_source("new.napkin", new_text, fuzz::kNowhere), {}};
    before.report = build_report(before_in, before.module, false);
    after.report = build_report(after_in, after.module, false);
    for (double threshold : {0.0, 0.001}) {
      const Diff d = diff_versions(before, after, threshold);
      (void)diff_text(d);
      (void)diff_markdown(d);
      (void)diff_json(d);
      (void)d.anything_moved();
      if (threshold == 0 && !d.moved.empty()) {
        const std::string& name = d.moved.front().name;
        std::optional<ExplainNode> a, b;
        try {
          a = explain(before_in, before.module, name, -1);
        } catch (const Error&) {
        }
        try {
          b = explain(after_in, after.module, name, -1);
        } catch (const Error&) {
        }
        if (a && b) fold_unchanged(*a, *b);
        (void)explain_side_by_side({"old", a ? explain_text(*a) : "error"}, {"new", b ? explain_text(*b) : "error"});
      }
    }
  } catch (const Error& e) {
    (void)render(e.diagnostic());
  }
  return 0;
}
