#pragma once
// What the libFuzzer targets share: an interpreter set up as the command line
// sets it up (import_toml bound), with a fake prober in place of the probes,
// and the rule for what counts as a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <string_view>

#include "grammar/diagnostic.hpp"
#include "interpreter/cli/import_toml.hpp"
#include "interpreter/cli/prober.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/measure/probes.hpp"
#include "interpreter/plot/plot.hpp"

namespace napkin::fuzz {

// Imports resolve against a directory that does not exist, so an input
// cannot reach the files around the fuzzer.
inline constexpr const char* kNowhere = "/nonexistent/napkin-fuzz";

inline std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// `measure(...)` without running anything: the real prober, with measuring
// off, checks the probe's name and arguments (unknown probe, bad argument,
// a choice it does not take); what would then run is answered from a hash
// of the request instead: a GPU probe as this machine answers it when it
// has no GPU, or a made-up figure, or a probe that "could not run". Every
// answer is deterministic, so a finding reproduces.
inline Prober fake_prober() {
  measure::ProberOptions off;
  off.off = true;  // no cache, no probe runs
  Prober real = measure::make_prober(off);
  return [real](Interpreter& in, const MeasureRequest& req) {
    MeasureResult r = real(in, req);
    if (r.unknown_probe || r.bad_argument || r.reason != "measurements are off") return r;
    const measure::ProbeInfo* p = measure::find_probe(req.probe);
    std::string key = req.probe;
    for (const auto& [n, v] : req.args) key += "|" + n + "=" + in.show(v);
    const std::uint64_t h = fnv1a(key);
    r = MeasureResult{};
    if (p && p->gpu && h % 3 == 0) {
      std::string why;
      if (measure::device_for(*p, why).empty()) {  // the GPU is absent: its own reason
        r.reason = why;
        return r;
      }
    }
    if (h % 7 == 1) {
      r.reason = "fake: the probe could not run";
      return r;
    }
    measure::Measurement m;
    m.unit = p ? p->unit : "s";
    // 1e-9 to 1e15 in the probe's unit, and now and then a zero.
    m.value = h % 11 == 0 ? 0.0 : static_cast<double>(h % 1000003) * static_cast<double>(1ull << (h >> 58)) * 1e-9;
    r.ok = true;
    r.value = measure::to_value(m, in.units());
    r.provenance = "fake: " + key;
    return r;
  };
}

inline Options options() {
  Options o;
  o.prober = fake_prober();
  o.builtins.push_back(measure::import_toml_builtin());
  return o;
}

// A napkin::Error (rendered, as the command line would) is an answer
// (a plot's refusals are napkin::Errors too); std::bad_alloc is E0702, as the command line reports it. Anything
// else escapes to libFuzzer and is a finding.
template <typename F>
void answer(Interpreter& in, F&& body) {
  (void)in;
  try {
    body();
  } catch (const Error& e) {
    (void)render(e.diagnostic());
  }
}

// A file holding `bytes`, removed when this goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(std::string_view bytes, const char* suffix = ".toml") {
    char tmpl[] = "/tmp/napkin-fuzz-XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) std::abort();
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    close(fd);
    path = std::string(tmpl) + suffix;
    if (std::rename(tmpl, path.c_str()) != 0) std::abort();
  }
  ~TempFile() { std::remove(path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

}  // namespace napkin::fuzz
