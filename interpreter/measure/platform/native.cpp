// The native build's side of the probes (platform.hpp): this machine's CPUs,
// and its CPU or the GPU the module finds as the device a probe runs on.
#include <sched.h>

#include <algorithm>
#include <thread>

#include "interpreter/measure/cpu_info.hpp"
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

}  // namespace napkin::measure
