#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "grammar/parser.hpp"
#include "interpreter/measure/cache.hpp"
#include "interpreter/measure/cpu_matmul.hpp"
#include "interpreter/measure/cpu_stream.hpp"
#include "interpreter/measure/probes.hpp"
#include "interpreter/measure/profile.hpp"
#include "interpreter/cli/catalog.hpp"
#include "interpreter/cli/import_toml.hpp"
#include "interpreter/io/atomic_write.hpp"
#include "interpreter/cli/prober.hpp"
#include "interpreter/output/output.hpp"
#include "interpreter/output/report.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace napkin;
using napkin::test::TempDir;

namespace {

// Small arrays keep these tests quick; the figures only need to be plausible.
measure::Settings quick() {
  measure::Settings s;
  s.cpu_array_bytes = std::size_t{32} << 20;
  s.cpu_matmul_n = 100;  // not a multiple of the 6×16 tile: the edges run too
  s.cpu_runs = 6;
  return s;
}

// A prober that answers every probe with `value` (or not at all).
Prober fixed(bool ok, double value, Dim dim, std::string why = "no GPU: none in this test") {
  return [=](Interpreter&, const MeasureRequest& req) {
    MeasureResult r;
    if (!measure::find_probe(req.probe)) {
      r.unknown_probe = true;
      return r;
    }
    r.ok = ok;
    r.value = Value::quantity(value, dim);
    r.provenance = "a fixed figure for " + req.probe;
    r.reason = why;
    return r;
  };
}

// B/s as std/units declares B and s.
Dim bytes_per_second() {
  Interpreter in;
  in.load_std("units");
  return in.units().dimension("B/s").value();
}

Value field_of(Interpreter& in, Module* m, const std::string& record, const std::string& field) {
  Binding* b = in.find_binding(m, record);
  REQUIRE(b);
  Value r = in.top_value(b, Span{});
  REQUIRE(r.kind == Value::Kind::Record);
  const auto it = r.rec->index().find(field);
  REQUIRE(it != r.rec->index().end());
  return in.field(r.rec, it->second, Span{});
}

std::string error_of(Interpreter& in, const std::string& text) {
  try {
    Module* m = in.load_source("errors.napkin", text, "");
    build_report(in, m, false);
  } catch (const Error& e) {
    return render(e.diagnostic());
  }
  return "";
}

// Copy bandwidth of a plain memcpy loop over buffers as big as the probe's.
double memcpy_rate(std::size_t bytes) {
  std::vector<char> a(bytes, 1), c(bytes, 0);
  std::vector<double> rates;
  for (int r = 0; r < 6; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(c.data(), a.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) rates.push_back(2.0 * bytes / s);
  }
  std::sort(rates.begin(), rates.end());
  REQUIRE(c[bytes - 1] == 1);
  return rates[rates.size() / 2];
}

}  // namespace

// The command line binds import_toml into the language; these tests do the same.
Options with_import_toml() {
  Options o;
  o.builtins.push_back(measure::import_toml_builtin());
  return o;
}

TEST_CASE("the CPU probes give plausible figures", "[measure]") {
  const measure::Settings s = quick();
  const double reference = memcpy_rate(s.cpu_array_bytes);
  const measure::Measurement copy = measure::cpu_stream(measure::StreamKernel::Copy, 1, s);
  const measure::Measurement triad = measure::cpu_stream(measure::StreamKernel::Triad, 2, s);
  CHECK(copy.unit == "B/s");
  CHECK(copy.n == s.cpu_runs - 1);  // the first run is dropped
  CHECK(copy.value > 0);
  CHECK(copy.min <= copy.value);
  CHECK(copy.value <= copy.max);
  // Within 10× of memcpy either way: a kernel that skips work or counts bytes
  // wrong lands far outside, a loaded machine does not.
  CHECK(copy.value > reference / 10);
  CHECK(copy.value < reference * 10);
  CHECK(triad.value > reference / 10);
  CHECK(triad.value < reference * 10);
  CHECK(triad.key() == "cpu.triad_bandwidth(threads=2)");

  const measure::Measurement mm = measure::cpu_matmul(1, s);
  CHECK(mm.unit == "FLOP/s");
  CHECK(mm.value > 1e8);  // any working fp32 kernel beats 0.1 GFLOP/s
  // OpenBLAS where it is installed, napkin's own kernel where it is not.
  CHECK((mm.method.find("cblas_sgemm") != std::string::npos || mm.method.find("blocked fp32") != std::string::npos));
}

TEST_CASE("a probe that cannot run uses the fallback, marked as such", "[measure]") {
  Options o;
  o.prober = fixed(false, 0, {});
  Interpreter in(o);
  Module* m = in.load_source("fallback.napkin", R"(
hardware mine {
  memory_bandwidth = measure(gpu.copy_bandwidth) else 4.8 TB/s
  half = memory_bandwidth / 2
}
)",
                             "");
  const Value v = field_of(in, m, "mine", "memory_bandwidth");
  CHECK(v.q.v == 4.8e12);
  REQUIRE(v.note);
  CHECK(*v.note == "fallback: no GPU: none in this test");

  const Report r = build_report(in, m, false);
  const std::string text = report_text(in, r, TextOptions{true});
  CHECK(text.find("memory_bandwidth = measure(gpu.copy_bandwidth) else 4.8 TB/s") != std::string::npos);
  CHECK(text.find("= 4.8 TB/s  [fallback: no GPU: none in this test]") != std::string::npos);
}

TEST_CASE("with measuring off, every probe falls back, and a typo is still an error", "[measure]") {
  measure::ProberOptions po;
  po.off = true;
  Options o;
  o.prober = measure::make_prober(po);
  Interpreter in(o);
  Module* m = in.load_source("off.napkin", "let bw = measure(cpu.copy_bandwidth) else 10 GB/s\n", "");
  Binding* b = in.find_binding(m, "bw");
  const Value v = in.top_value(b, Span{});
  CHECK(v.q.v == 1e10);
  REQUIRE(v.note);
  CHECK(*v.note == "fallback: measurements are off");

  Interpreter in2(o);
  const std::string err = error_of(in2, "let bw = measure(cpu.copy_bandwith) else 10 GB/s\n");
  CHECK(err.find("E0901") != std::string::npos);
  CHECK(err.find("cpu.copy_bandwidth") != std::string::npos);  // did you mean

  Interpreter in3(o);
  const std::string bad = error_of(in3, "let t = measure(gpu.matmul_throughput, dtype = \"int4\")\n");
  // A wrong argument is wrong on every machine: an error at the call, not a fallback.
  CHECK(bad.find("E0306") != std::string::npos);
  CHECK(bad.find("cannot measure dtype = int4: it takes bf16, fp16, tf32, fp32, fp8") != std::string::npos);
}

TEST_CASE("without a fallback, a probe that cannot run is an error naming it and why", "[measure]") {
  Options o;
  o.prober = fixed(false, 0, {}, "no GPU found (cudaErrorInsufficientDriver: no driver)");
  Interpreter in(o);
  const std::string err = error_of(in, "hardware mine { memory_bandwidth = measure(gpu.copy_bandwidth) }\n");
  CHECK(err.find("error[E0900]") != std::string::npos);
  CHECK(err.find("`gpu.copy_bandwidth` could not be measured: no GPU found (cudaErrorInsufficientDriver") !=
        std::string::npos);
  CHECK(err.find("measure(gpu.copy_bandwidth) else") != std::string::npos);  // the help shows the way out
}

TEST_CASE("a measured value is marked with how it was measured", "[measure]") {
  Options o;
  o.prober = fixed(true, 3.9e12, bytes_per_second());
  Interpreter in(o);
  Module* m = in.load_source("measured.napkin", "let bw = measure(gpu.copy_bandwidth) else 4.8 TB/s\n", "");
  const Value v = in.top_value(in.find_binding(m, "bw"), Span{});
  CHECK(v.q.v == 3.9e12);
  REQUIRE(v.note);
  CHECK(*v.note == "measured: a fixed figure for gpu.copy_bandwidth");
}

TEST_CASE("check compares a measured value with a prediction", "[measure]") {
  const char* text = R"(
let predicted = 0.85 * 4.8 TB/s
let measured = measure(gpu.copy_bandwidth) else 4.01 TB/s
check measured ≈ predicted within 20%
)";
  // The prediction is 0.85 × 4.8 TB/s = 4.08 TB/s; within 20% is 3.264 to
  // 4.896 TB/s. A measured 4.2 and the fallback's 4.01 pass; a measured 2.0,
  // half the prediction, fails and the check says so.
  const auto [measured, got, passes] = GENERATE(table<bool, double, bool>({
      {true, 4.2e12, true},
      {false, 4.01e12, true},  // the probe cannot run: the fallback
      {true, 2.0e12, false},
  }));
  CAPTURE(measured, got);
  Options o;
  o.prober = fixed(measured, got, bytes_per_second());
  Interpreter in(o);
  Module* m = in.load_source("check.napkin", text, "");
  const auto checks = run_checks(in, m);
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].passed == passes);
  if (!passes) CHECK(checks[0].detail.find("allowed 20%") != std::string::npos);
}

TEST_CASE("the cache returns what was stored, written atomically", "[measure]") {
  TempDir dir;
  // The cache makes no directory but its own default one (~/.cache/napkin).
  fs::create_directories(dir.path / "sub");
  const std::string path = (dir.path / "sub" / "measurements.toml").string();
  const measure::Cache cache(path);
  CHECK_FALSE(cache.find("cpu: test", "cpu.copy_bandwidth(threads=1)"));

  measure::Measurement m;
  m.probe = "cpu.copy_bandwidth";
  m.variant = "threads=1";
  m.unit = "B/s";
  m.value = 12.5e9;
  m.min = 11e9;
  m.max = 13.25e9;
  m.n = 10;
  m.device = "Test CPU, 1 thread";
  m.method = "STREAM copy over 2 × 1 GiB arrays";
  m.measured_at = "2026-11-29T00:00:00Z";
  m.warnings = {"spread 18% (over 5%)"};
  cache.store("cpu: test", m);
  measure::Measurement other = m;
  other.variant = "threads=8";
  other.value = 80e9;
  cache.store("cpu: test", other);

  const auto back = cache.find("cpu: test", "cpu.copy_bandwidth(threads=1)");
  REQUIRE(back);
  CHECK(back->cached);
  CHECK(back->value == m.value);
  CHECK(back->min == m.min);
  CHECK(back->max == m.max);
  CHECK(back->n == 10);
  CHECK(back->method == m.method);
  CHECK(back->warnings == m.warnings);
  CHECK(cache.find("cpu: test", "cpu.copy_bandwidth(threads=8)")->value == 80e9);
  CHECK_FALSE(cache.find("cpu: another", "cpu.copy_bandwidth(threads=1)"));
  CHECK(measure::provenance(*back).find("cached from 2026-11-29") != std::string::npos);
  // Nothing but the cache itself and the file its writers lock is left
  // behind (the lock stays: removing it could let two writers hold
  // different locks).
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path / "sub")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"measurements.toml", "measurements.toml.lock"});
}

TEST_CASE("a second evaluation reuses the cached measurement, and --remeasure runs it again", "[measure]") {
  TempDir dir;
  measure::ProberOptions po;
  po.cache_path = (dir.path / "cache.toml").string();
  po.settings = quick();
  const char* text = "let bw = measure(cpu.copy_bandwidth, threads = 1)\n";
  auto evaluate = [&](const measure::ProberOptions& p) {
    Options o;
    o.prober = measure::make_prober(p);
    Interpreter in(o);
    Module* m = in.load_source("cached.napkin", text, "");
    return in.top_value(in.find_binding(m, "bw"), Span{});
  };
  const Value first = evaluate(po);
  REQUIRE(first.note);
  CHECK(first.note->find("measured: cpu.copy_bandwidth(threads=1) on ") == 0);
  CHECK(first.note->find("cached") == std::string::npos);
  const Value second = evaluate(po);
  CHECK(second.q.v == first.q.v);
  CHECK(second.note->find("cached from") != std::string::npos);
  po.remeasure = true;
  const Value third = evaluate(po);
  CHECK(third.note->find("cached") == std::string::npos);
}

TEST_CASE("a hardware profile survives a round trip through TOML into a record", "[measure]") {
  TempDir dir;
  measure::Measurement copy;
  copy.probe = "gpu.copy_bandwidth";
  copy.unit = "B/s";
  copy.value = copy.min = copy.max = 4.2123456789e12;
  copy.n = 25;
  copy.device = "NVIDIA H200";
  copy.method = "STREAM copy (c = a)";
  measure::Measurement mm = copy;
  mm.probe = "gpu.matmul_throughput";
  mm.variant = "dtype=bf16";
  mm.unit = "FLOP/s";
  mm.value = mm.min = mm.max = 7.9e14;
  mm.method = "cuBLASLt \"bf16\"";  // quotes must survive the trip into napkin source

  // Named as the standard library says, and written as `napkin measure --out` writes it.
  const measure::Profile p = measure::make_profile("gpu: NVIDIA H200", {copy, mm}, 141e9, measure::measured_fields());
  const std::string path = (dir.path / "h200.toml").string();
  write_output(path, measure::profile_toml(path, p));
  const measure::Profile back = measure::read_profile(path);
  REQUIRE(back.fields.size() == p.fields.size());
  CHECK(back.device == "gpu: NVIDIA H200");
  REQUIRE(back.measurements.size() == 2);
  CHECK(back.measurements[0].value == copy.value);

  Interpreter in(with_import_toml());
  Module* m = in.load_source("scenario.napkin", R"(
hardware mine = import_toml(")" + path + R"(")
scenario decode {
  gpu = mine
  weights = 16 GB
  time = weights / gpu.memory_bandwidth
}
)",
                             "");
  const Value bw = field_of(in, m, "mine", "memory_bandwidth");
  CHECK(bw.q.v == copy.value);  // exactly: the value is written with every digit
  REQUIRE(bw.note);
  CHECK(bw.note->find("measured: gpu.copy_bandwidth on NVIDIA H200; STREAM copy (c = a); median of 25") == 0);
  CHECK(field_of(in, m, "mine", "peak_bf16").q.v == 7.9e14);
  CHECK(field_of(in, m, "mine", "memory_capacity").q.v == 141e9);
  CHECK(field_of(in, m, "mine", "name").str() == "NVIDIA H200 (measured)");
  CHECK(field_of(in, m, "mine", "ridge_point").q.v == Approx(7.9e14 / copy.value));  // std/hardware's formula
  CHECK(field_of(in, m, "decode", "time").q.v == Approx(16e9 / copy.value));

  const Report r = build_report(in, m, false);
  REQUIRE(!r.sections.empty());
  CHECK(r.sections[0].keyword == "hardware");
  CHECK(r.sections[0].name == "mine");
}

TEST_CASE("a profile that cannot be read is an error at the import", "[measure]") {
  TempDir dir;
  const fs::path bad = dir.path / "bad.toml";
  std::ofstream(bad) << "[hardware]\nmemory_bandwidth = { value = 1.0, unit = \"TBs\" }\n";
  Interpreter in(with_import_toml());
  const std::string err = error_of(in, "hardware mine = import_toml(\"" + bad.string() + "\")\nlet x = mine.name\n");
  CHECK(err.find("E0200") != std::string::npos);
  CHECK(err.find("`TBs`") != std::string::npos);
  Interpreter in2(with_import_toml());
  const std::string missing = error_of(in2, "hardware mine = import_toml(\"no-such-profile.toml\")\n");
  CHECK(missing.find("E0602") != std::string::npos);
  CHECK(missing.find("cannot read no-such-profile.toml") != std::string::npos);
}

// toml++ built header-only without NDEBUG aborts on these three bytes; the
// distribution's compiled library throws, and napkin turns that into E0602.
TEST_CASE("a profile of malformed TOML bytes is an error, not an abort", "[measure]") {
  TempDir dir;
  const fs::path bad = dir.path / "bytes.toml";
  std::ofstream(bad, std::ios::binary) << std::string("[\x08\x08", 3);
  Interpreter in(with_import_toml());
  const std::string err = error_of(in, "hardware mine = import_toml(\"" + bad.string() + "\")\nlet x = mine.name\n");
  // Control bytes: not a TOML profile, refused unread (E0603, import_policy.hpp).
  CHECK(err.find("E0603") != std::string::npos);
  CHECK(err.find("bytes.toml") != std::string::npos);
}

// measure/ holds no std/hardware field names: which field a probe fills and
// is compared with is std/hardware's `measured_fields` (docs/measure.md).
TEST_CASE("the standard library names the fields a profile writes and a probe is compared with", "[measure]") {
  const measure::FieldNames names = measure::measured_fields();
  // std/hardware's `gpu` declares memory_bandwidth (B/s), memory_capacity (B)
  // and peak_bf16 … peak_fp32 (FLOP/s): the specs these probes measure.
  CHECK(names.spec_field("gpu.copy_bandwidth", "") == "memory_bandwidth");
  CHECK(names.spec_field("cpu.triad_bandwidth", "") == "memory_bandwidth");
  CHECK(names.spec_field("gpu.matmul_throughput", "bf16") == "peak_bf16");
  CHECK(names.spec_field("cpu.matmul_throughput", "fp32") == "peak_fp32");
  CHECK(names.spec_field("gpu.launch_latency", "") == "");  // no spec sheet gives it
  CHECK(names.device_name == "name");
  CHECK(names.device_memory == "memory_capacity");

  // Every field named is one std/hardware's `gpu` declares, with each dtype
  // gpu.matmul_throughput takes: a rename in the library that forgets the
  // declaration fails here.
  Interpreter in;
  Module* hw = in.load_std("hardware");
  const Value gpu = in.top_value(in.find_binding(hw, "gpu"), Span{});
  REQUIRE(gpu.kind == Value::Kind::Record);
  const auto declared = [&](const std::string& field) { return gpu.rec->index().count(field) == 1; };
  CHECK(declared(names.device_name));
  CHECK(declared(names.device_memory));
  REQUIRE(names.by_probe.size() == 6);
  for (const auto& [probe, field] : names.by_probe) {
    INFO(probe << " → " << field);
    if (!measure::FieldNames::is_prefix(field)) CHECK(declared(field));
    else
      for (const char* dtype : {"bf16", "fp16", "tf32", "fp32", "fp8"}) CHECK(declared(field + dtype));
  }
}

TEST_CASE("a profile names its fields as it is told, not as measure/ would", "[measure]") {
  measure::Measurement copy;
  copy.probe = "gpu.copy_bandwidth";
  copy.unit = "B/s";
  copy.value = copy.min = copy.max = 3e12;
  measure::Measurement mm = copy;
  mm.probe = "gpu.matmul_throughput";
  mm.variant = "dtype=fp8";
  mm.unit = "FLOP/s";
  mm.value = mm.min = mm.max = 1e15;
  measure::FieldNames names;
  names.device_name = "model";
  names.device_memory = "hbm";
  names.by_probe = {{"copy_bandwidth", "bw"}, {"matmul_throughput", "flops_"}};
  const measure::Profile p = measure::make_profile("gpu: Test GPU", {copy, mm}, 96e9, names);
  std::vector<std::string> fields;
  for (const auto& f : p.fields) fields.push_back(f.name);
  // The copy probe's field first, then the memory, then every probe by its
  // own name or its prefix and dtype.
  CHECK(fields == std::vector<std::string>{"model", "bw", "hbm", "copy_bandwidth", "flops_fp8"});
  CHECK(p.fields[0].text == "Test GPU (measured)");
  CHECK(p.fields[2].value == 96e9);

  const measure::Profile bare = measure::make_profile("gpu: Test GPU", {copy, mm}, 96e9, measure::FieldNames{});
  fields.clear();
  for (const auto& f : bare.fields) fields.push_back(f.name);
  CHECK(fields == std::vector<std::string>{"copy_bandwidth", "matmul_throughput"});
}
