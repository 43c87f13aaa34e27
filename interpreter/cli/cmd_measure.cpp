// `napkin measure`: runs the probes, prints each figure beside the catalog's
// spec for the detected GPU, and writes a hardware profile for import_toml.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "grammar/code_format.hpp"
#include "grammar/diagnostic.hpp"
#include "interpreter/io/atomic_write.hpp"
#include "interpreter/measure/cache.hpp"
#include "catalog.hpp"
#include "interpreter/measure/cpu_info.hpp"
#include "interpreter/measure/gpu_module.hpp"
#include "interpreter/measure/probes.hpp"
#include "interpreter/measure/profile.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/core/suggest.hpp"
#include "commands.hpp"
#include "grammar/text_width.hpp"

namespace napkin::cli {

namespace {

using namespace napkin::measure;

struct Row {
  std::string probe, measured, spec, fraction, spread;
};

std::string table(const std::vector<Row>& rows) {
  std::size_t w[5] = {0, 0, 0, 0, 0};
  const Row head{"probe", "measured", "spec", "of spec", "spread (n)"};
  auto widen = [&](const Row& r) {
    const std::string* cells[5] = {&r.probe, &r.measured, &r.spec, &r.fraction, &r.spread};
    for (int i = 0; i < 5; ++i) {
      w[i] = std::max(w[i], code_points(*cells[i]));  // so "³" and "×" count as one
    }
  };
  for (const auto& r : rows) widen(r);
  const bool spec = w[2] > 0;  // no spec column without a GPU from the catalog
  widen(head);
  auto line = [&](const Row& r) {
    auto pad = [](const std::string& s, std::size_t width, bool right) {
      const std::size_t n = code_points(s);
      const std::string fill(width > n ? width - n : 0, ' ');
      return right ? fill + s : s + fill;
    };
    std::string s = pad(r.probe, w[0], false) + "  " + pad(r.measured, w[1], true) + "  ";
    if (spec) s += pad(r.spec, w[2], true) + "  " + pad(r.fraction, w[3], true) + "  ";
    s += pad(r.spread, w[4], true);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(head);
  for (const auto& r : rows) out += line(r);
  return out;
}

// The ratios `napkin measure` prints come from std/roofline's functions,
// evaluated by napkin, not from formulas written here.
class Roofline {
 public:
  Roofline() : lib_(in_.load_std(stdlib_names::roofline_module)) {}
  // `value` in `unit` ("B/s", "FLOP/s") as a napkin quantity.
  Value quantity(double value, const std::string& unit) {
    const Value one = in_.eval_in(lib_, in_.parse_snippet("<unit>", "1 " + unit));
    return Value::quantity(value * one.q.v, one.q.dim);
  }
  double ridge_point(double flops, double bytes) {
    return in_.call_function(lib_, stdlib_names::ridge_point_fn, {quantity(flops, "FLOP/s"), quantity(bytes, "B/s")}).q.v;
  }
  double fraction_of_peak(double achieved, double peak, const std::string& unit) {
    return in_.call_function(lib_, stdlib_names::fraction_of_peak_fn, {quantity(achieved, unit), quantity(peak, unit)}).q.v;
  }

 private:
  Interpreter in_;
  Module* lib_;
};

void progress(const std::string& what) {
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "measuring {} ...\n", what);
}

// The probes named on the command line, or every probe; an unknown name is
// a usage error with the closest name.
bool choose_probes(const MeasureArgs& a, std::vector<const ProbeInfo*>& chosen, Result& res) {
  for (const auto& name : a.probes) {
    const ProbeInfo* p = find_probe(name);
    if (!p) {
      std::vector<std::string> names;
      for (const auto& q : probe_list()) names.push_back(q.name);
      const auto close = closest(name, names);
      res.err = render(unplaced(codes::usage, fmt::format("there is no probe `{}`{}", name,
                                                          close.empty() ? "" : fmt::format("; did you mean `{}`?", close.front()))));
      res.code = 2;
      return false;
    }
    chosen.push_back(p);
  }
  if (chosen.empty())
    for (const auto& p : probe_list()) chosen.push_back(&p);
  return true;
}

// What a run of the probes found, row by row, with what to say about it.
struct Measured {
  std::vector<Row> rows;
  std::vector<Measurement> done;
  std::vector<std::string> notes;
  std::string not_cached;  // why a measurement could not be cached, if one could not
  int cached = 0;
  bool failed = false;

  const Measurement* find(const std::string& key) const {
    for (const auto& m : done)
      if (m.key() == key) return &m;
    return nullptr;
  }
};

// One request measured, cached, and set beside the spec sheet's figure.
void measure_one(const ProbeInfo& p, const Request& r, const std::optional<Spec>& spec, const FieldNames& names,
                 const Cache& cache, const Settings& settings, Roofline& roofline, Measured& out) {
  progress(r.key());
  std::string why;
  const std::string device = device_for(p, why);
  Measurement m;
  try {
    m = run(r, settings);
  } catch (const Error& e) {
    out.rows.push_back({r.key(), "failed", "", "", ""});
    out.notes.push_back(fmt::format("{}: {}", r.key(), e.what()));
    out.failed = true;
    return;
  }
  try {
    cache.store(device, m);
    ++out.cached;
  } catch (const Error& e) {
    if (out.not_cached.empty()) out.not_cached = e.what();  // the same reason for every probe: said once, below
  }
  Row row{r.key(), show(m.value, m.unit), "", "", ""};
  row.spread = m.value > 0 ? fmt::format("{:.1f}% ({})", (m.max - m.min) / m.value * 100, m.n) : "";
  const std::string field = names.spec_field(r.probe->name, r.arg("dtype"));
  if (p.gpu && spec && spec->figures.count(field)) {
    const double s = spec->figures.at(field);
    row.spec = show(s, m.unit);
    row.fraction = fmt::format("{:.1f}%", roofline.fraction_of_peak(m.value, s, m.unit) * 100);
    if (m.value > s) m.warnings.push_back(fmt::format("above the spec sheet's {}: a cache effect, not a faster chip", row.spec));
  }
  for (const auto& w : m.warnings) out.notes.push_back(fmt::format("{}: {}", r.key(), w));
  out.rows.push_back(std::move(row));
  out.done.push_back(std::move(m));
}

// The ridge points: FLOPs per byte above which the chip is compute-bound.
void ridge_rows(const CpuInfo& cpu, const std::optional<Spec>& spec, Roofline& roofline, Measured& out) {
  const std::string all = std::to_string(cpu.threads);
  const Measurement* flops = out.find("gpu.matmul_throughput(dtype=bf16)");
  const Measurement* bytes = out.find("gpu.copy_bandwidth");
  if (flops && bytes) {
    Row row{"ridge point (bf16 / copy)", show(roofline.ridge_point(flops->value, bytes->value), "FLOP/B"), "", "", ""};
    // std/hardware's own ridge_point field of the catalog entry.
    if (spec && spec->figures.count(stdlib_names::ridge_point))
      row.spec = show(spec->figures.at(stdlib_names::ridge_point), "FLOP/B");
    out.rows.push_back(row);
  }
  flops = out.find("cpu.matmul_throughput(dtype=fp32,threads=" + all + ")");
  bytes = out.find("cpu.copy_bandwidth(threads=" + all + ")");
  if (flops && bytes)
    out.rows.push_back(
        {"CPU ridge point (fp32 / copy)", show(roofline.ridge_point(flops->value, bytes->value), "FLOP/B"), "", "", ""});
}

std::string cache_note(const Measured& m, const Cache& cache) {
  if (m.not_cached.empty()) return fmt::format("\nMeasurements are cached in {}.\n", cache.path());
  if (m.cached == 0) return fmt::format("\nNothing was cached: {}.\n", m.not_cached);
  return fmt::format("\n{} of the measurements are cached in {}; the others are not: {}.\n", m.cached, cache.path(),
                     m.not_cached);
}

// `--out`: the measurements as a hardware profile a file can import.
void write_profile(const MeasureArgs& a, const Measured& m, const GpuDevice* gpu, const CpuInfo& cpu,
                   const FieldNames& names, Result& res) {
  const bool on_gpu = gpu && gpu->found && std::any_of(m.done.begin(), m.done.end(), [](const Measurement& x) {
                        return x.probe.rfind("gpu.", 0) == 0;
                      });
  const std::string device = on_gpu ? "gpu: " + gpu->name : "cpu: " + cpu.device();
  if (m.done.empty()) {
    res.err += render(unplaced(codes::usage, "nothing was measured, so no profile was written"));
    res.code = 2;
    return;
  }
  try {
    // Through write_output: only a regular file is replaced; a device or FIFO is written to.
    const std::string note =
        write_output(a.out, profile_toml(a.out, make_profile(device, m.done, on_gpu ? gpu->memory_bytes : 0, names)));
    if (!note.empty()) res.err += "note: " + note + "\n";
    res.out += fmt::format("Wrote the hardware profile {}; use it as: hardware mine = import_toml(\"{}\")\n", a.out, a.out);
  } catch (const Error& e) {
    res.err += render(e.diagnostic());
    res.code = 2;
  }
}

}  // namespace

Result cmd_measure(const MeasureArgs& a, const Common&) {
  Result res;
  std::vector<const ProbeInfo*> chosen;
  if (!choose_probes(a, chosen, res)) return res;

  const CpuInfo& cpu = cpu_info();
  const Settings settings = Settings::from_environment();
  const Cache cache(Cache::default_path());
  bool wants_gpu = false;
  for (const ProbeInfo* p : chosen) wants_gpu = wants_gpu || p->gpu;
  const GpuDevice* gpu = wants_gpu ? &gpu_device() : nullptr;

  res.out += fmt::format("CPU: {}, last-level cache {} MiB\n", cpu.device(), cpu.llc_bytes >> 20);
  if (gpu && gpu->found) res.out += fmt::format("GPU: {}\n", gpu->detail);
  else if (gpu) res.out += fmt::format("GPU: {}; the GPU probes were skipped.\n", gpu->reason);
  std::optional<Spec> spec;
  if (gpu && gpu->found) {
    spec = catalog_spec(gpu->name);
    res.out += spec ? fmt::format("Spec: std/hardware's {} ({})\n", spec->record, spec->name)
                    : std::string("Spec: this GPU is not in std/hardware's catalog\n");
  }
  res.out += "\n";

  Roofline roofline;
  const FieldNames names = measured_fields();
  Measured m;
  for (const ProbeInfo* p : chosen) {
    if (p->gpu && !(gpu && gpu->found)) continue;
    const std::vector<Request> requests = standard_requests(*p);
    if (requests.empty())  // a decode step needs a model, which only a file names
      m.notes.push_back(fmt::format("{} times a model a file names: measure({}, model = llama3_8b, batch = 8)", p->name,
                                    p->name));
    for (const Request& r : requests) measure_one(*p, r, spec, names, cache, settings, roofline, m);
  }
  if (m.failed) res.code = 1;
  ridge_rows(cpu, spec, roofline, m);

  if (!m.rows.empty()) res.out += table(m.rows);
  for (const auto& n : m.notes) res.out += "note: " + n + "\n";
  for (const auto& x : m.done)
    if (x.probe == "cpu.matmul_throughput") {
      res.out += "note: " + x.key() + " is " + x.method + "\n";
      break;
    }
  res.out += cache_note(m, cache);
  if (!a.out.empty()) write_profile(a, m, gpu, cpu, names, res);
  return res;
}

}  // namespace napkin::cli
