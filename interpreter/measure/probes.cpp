#include "probes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "cpu_info.hpp"
#include "decode_shape.hpp"
#include "thread_team.hpp"

namespace napkin::measure {

namespace {

const ProbeArg kThreads{"threads", {}, "", ArgKind::Threads};
constexpr int kOversubscribe = 4;

// A matmul of m×k by k×n; any of the three not given is `n`, or the probe's
// own size when `n` is not given either.
std::vector<ProbeArg> sizes() {
  return {{"m", {}, "", ArgKind::Count}, {"n", {}, "", ArgKind::Count}, {"k", {}, "", ArgKind::Count}};
}

std::vector<ProbeArg> with(std::vector<ProbeArg> a, const std::vector<ProbeArg>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<ProbeInfo> make_list() {
  const std::vector<std::string> gpu_dtypes{"bf16", "fp16", "tf32", "fp32", "fp8"};
  const ProbeArg model{"model", {}, "", ArgKind::Model};
  const ProbeArg batch{"batch", {}, "1", ArgKind::Count}, context{"context", {}, "1", ArgKind::Count};
  return {
      {"cpu.copy_bandwidth", "B/s", "STREAM copy over arrays of max(4 × last-level cache, 1 GiB)", {kThreads}, false},
      {"cpu.triad_bandwidth", "B/s", "STREAM triad over arrays of max(4 × last-level cache, 1 GiB)", {kThreads}, false},
      {"cpu.read_bandwidth", "B/s", "a sum over an array of max(4 × last-level cache, 1 GiB): a decode step's weight read",
       {kThreads}, false},
      {"cpu.matmul_throughput", "FLOP/s",
       "matmul through OpenBLAS (napkin's blocked fp32 kernel without it), 2048³ or the size named",
       with({{"dtype", {"fp32", "bf16"}, "fp32"}, kThreads}, sizes()), false},
      {"cpu.decode_step", "s",
       "one decode step of a model's own shapes through OpenBLAS: every weight matrix, the KV-cache read, the LM head",
       {model, batch, context, {"dtype", {"fp32", "bf16"}, "fp32"}, kThreads}, false},
      {"gpu.copy_bandwidth", "B/s", "STREAM copy over 1 GiB buffers", {}, true},
      {"gpu.triad_bandwidth", "B/s", "STREAM triad over 1 GiB buffers", {}, true},
      {"gpu.read_bandwidth", "B/s", "a sum over a 1 GiB buffer, reduced per block", {}, true},
      {"gpu.memcpy_bandwidth", "B/s", "cudaMemcpy device to device, counted as copy is", {}, true},
      {"gpu.matvec_bandwidth", "B/s", "a decode-like bf16 mat-vec over a 470 MB matrix", {}, true},
      {"gpu.matmul_throughput", "FLOP/s",
       "cuBLASLt matmul, its top algorithms at 4096³, 8192³ and 16384³, or at the size named",
       with({{"dtype", gpu_dtypes, "bf16"}}, sizes()), true},
      {"gpu.decode_step", "s", "one decode step of a model's own shapes through cuBLAS: every weight matrix, the KV-cache read, the LM head",
       {model, batch, context, {"dtype", {"bf16", "fp16", "fp32"}, "bf16"}}, true},
      {"gpu.host_to_device_bandwidth", "B/s", "cudaMemcpy host to device", {{"memory", {"pinned", "pageable"}, "pinned"}},
       true},
      {"gpu.launch_latency", "s", "an empty kernel's launch to its completion, seen by the host", {}, true},
      {"gpu.launch_interval", "s", "the time between back-to-back launches of an empty kernel (1 / launches per second)",
       {}, true},
  };
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
  return s;
}

}  // namespace

const std::vector<ProbeInfo>& probe_list() {
  static const std::vector<ProbeInfo> list = make_list();
  return list;
}

const ProbeInfo* find_probe(const std::string& name) {
  for (const auto& p : probe_list())
    if (p.name == name) return &p;
  return nullptr;
}

std::string Request::variant() const {
  std::string s;
  for (const auto& [k, v] : args) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

std::string Request::key() const {
  const std::string v = variant();
  return v.empty() ? probe->name : probe->name + "(" + v + ")";
}

std::string Request::arg(const std::string& name) const {
  for (const auto& [k, v] : args)
    if (k == name) return v;
  return "";
}

std::string settle(Request& r, const std::vector<std::pair<std::string, std::string>>& given) {
  r.args.clear();
  for (const auto& [k, v] : given) {
    const bool known = std::any_of(r.probe->args.begin(), r.probe->args.end(), [&key = k](const ProbeArg& a) { return a.name == key; });
    if (!known) {
      if (r.probe->args.empty()) return fmt::format("{} takes no arguments, but was given `{}`", r.probe->name, k);
      std::vector<std::string> names;
      for (const auto& a : r.probe->args) names.push_back(a.name);
      return fmt::format("{} has no argument `{}` (it takes {})", r.probe->name, k, join(names));
    }
  }
  for (const ProbeArg& a : r.probe->args) {
    std::string value = a.fallback;
    for (const auto& [k, v] : given)
      if (k == a.name) value = v;
    if (a.kind == ArgKind::Model) {
      if (value.empty())
        return fmt::format("{} needs a model: measure({}, model = llama3_8b)", r.probe->name, r.probe->name);
      std::string why;
      if (!ModelShape::parse(value, why)) return fmt::format("`{}`: {}", a.name, why);
    } else if (a.whole()) {
      if (value.empty() && a.kind == ArgKind::Count) continue;  // not given: left out of the key
      if (value.empty()) value = std::to_string(cpu_info().threads);
      int n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || n < 1 || std::to_string(n) != value)
        return fmt::format("`{}` must be a whole number of at least 1, not {}", a.name, value);
      // More threads than CPUs measures the scheduler; a few times over is
      // allowed, to see what oversubscription costs.
      const int most = std::min(ThreadTeam::kMaxSize, kOversubscribe * cpu_info().threads);
      if (a.kind == ArgKind::Threads && n > most)
        return fmt::format("`{}` must be at most {} ({} × the {} CPUs napkin may run on), not {}", a.name, most,
                           kOversubscribe, cpu_info().threads, value);
    } else if (std::find(a.choices.begin(), a.choices.end(), value) == a.choices.end()) {
      return fmt::format("{} cannot measure {} = {}: it takes {}", r.probe->name, a.name, value, join(a.choices));
    }
    r.args.emplace_back(a.name, value);
  }
  return "";
}

long Request::count(const std::string& name, long otherwise) const {
  const std::string v = arg(name);
  return v.empty() ? otherwise : std::atol(v.c_str());
}

std::vector<Request> standard_requests(const ProbeInfo& p) {
  std::vector<std::vector<std::pair<std::string, std::string>>> sets{{}};
  for (const ProbeArg& a : p.args) {
    if (a.kind == ArgKind::Count || a.kind == ArgKind::Model) continue;  // sizes and models are the file's to name
    std::vector<std::string> values = a.choices;
    // The CPU's bf16 runs only where the BLAS has it (cpu_blas.hpp): a file asks for it.
    if (!p.gpu && a.kind == ArgKind::Choice) values = {a.fallback};
    if (a.kind == ArgKind::Threads) {
      values = {"1"};
      if (cpu_info().threads > 1) values.push_back(std::to_string(cpu_info().threads));
    }
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& s : sets)
      for (const auto& v : values) {
        auto t = s;
        t.emplace_back(a.name, v);
        next.push_back(std::move(t));
      }
    sets = std::move(next);
  }
  std::vector<Request> out;
  for (const auto& s : sets) {
    Request r{&p, {}};
    if (settle(r, s).empty()) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace napkin::measure
