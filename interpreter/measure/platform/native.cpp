// The native build's side of the probes (platform.hpp): this machine's CPUs,
// its CPU or the GPU the module finds as the device a probe runs on, and
// the kernels that run there.
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "grammar/diagnostic.hpp"
#include "interpreter/measure/cpu_decode.hpp"
#include "interpreter/measure/cpu_info.hpp"
#include "interpreter/measure/cpu_matmul.hpp"
#include "interpreter/measure/cpu_stream.hpp"
#include "interpreter/measure/gpu_module.hpp"
#include "interpreter/measure/platform/platform.hpp"
#include "interpreter/measure/probes.hpp"

namespace napkin::measure {

int usable_threads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string device_for(const ProbeInfo& p, std::string& why) {
  if (!p.gpu) return "cpu: " + cpu_info().device();
  const GpuDevice& d = gpu_device();
  if (!d.found) {
    why = d.reason;
    return "";
  }
  return "gpu: " + d.name;
}

Measurement run(const Request& r, const Settings& s) {
  const std::string& name = r.probe->name;
  if (!r.probe->gpu) {
    const int threads = std::atoi(r.arg("threads").c_str());
    Measurement m;
    if (name == "cpu.copy_bandwidth") {
      m = cpu_stream(StreamKernel::Copy, threads, s);
    } else if (name == "cpu.triad_bandwidth") {
      m = cpu_stream(StreamKernel::Triad, threads, s);
    } else if (name == "cpu.read_bandwidth") {
      m = cpu_stream(StreamKernel::Read, threads, s);
    } else if (name == "cpu.decode_step") {
      std::string why;
      const auto shape = ModelShape::parse(r.arg("model"), why);  // settle() has read it already
      if (!shape) fail(codes::probe_unavailable, why);
      m = cpu_decode({*shape, r.count("batch", 1), r.count("context", 1), r.arg("dtype"), threads}, s);
    } else {
      const long n = r.count("n", s.cpu_matmul_n > 0 ? s.cpu_matmul_n : 2048);
      const MatmulShape size{static_cast<int>(r.count("m", n)), static_cast<int>(n), static_cast<int>(r.count("k", n))};
      m = cpu_matmul(size, r.arg("dtype"), threads, s);
    }
    m.variant = r.variant();
    return m;
  }
  // The module reads the arguments as the key writes them: "dtype=bf16,n=2048".
  Measurement m = gpu_run(name.substr(4), r.variant());
  m.variant = r.variant();
  return m;
}

}  // namespace napkin::measure
