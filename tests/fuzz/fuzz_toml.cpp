// libFuzzer target: one input is the bytes of a TOML hardware profile,
// written to a temporary file and read by `import_toml` as a napkin file
// would (`hardware mine = import_toml("…")`), then evaluated and printed.
// A napkin::Error is the answer to a malformed profile; anything else is a
// finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/output/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;
  using namespace napkin;
  const fuzz::TempFile profile(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string source = "import \"std/hardware\"\nhardware mine = import_toml(\"" + profile.path +
                             "\")\nlet bw = mine.memory_bandwidth\nlet ridge = mine.peak_bf16 / mine.memory_bandwidth\n";
  Interpreter in(fuzz::options());
  fuzz::answer(in, [&] {
    Module* m = in.load_source("fuzz.napkin", source, fuzz::kNowhere);
    Report r = build_report(in, m, true, /*keep_going=*/true);
    (void)report_text(in, r, TextOptions{true});
    (void)report_json(in, r);
    (void)report_toml(in, r);
  });
  return 0;
}
