// The native build's side of the probes (platform.hpp): this machine's CPUs,
// its CPU or the GPU the module finds as the device a probe runs on, and
// the kernels that run there.
#include <sched.h>

#include <algorithm>
#include <thread>

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
    if (name == "cpu.copy_bandwidth") return cpu_stream(StreamKernel::Copy, threads, s);
    if (name == "cpu.triad_bandwidth") return cpu_stream(StreamKernel::Triad, threads, s);
    return cpu_matmul(threads, s);
  }
  const std::string arg = r.args.empty() ? "" : r.args.front().second;
  Measurement m = gpu_run(name.substr(4), arg);
  m.variant = r.variant();
  return m;
}

}  // namespace napkin::measure
