#pragma once
// What the CPU probes need to know about this machine, read from /proc and
// /sys: the figures STREAM sizes its arrays by.
#include <cstddef>
#include <string>

namespace napkin::measure {

struct CpuInfo {
  std::string model;               // "AMD EPYC 9654 96-Core Processor"
  int threads = 1;                 // CPUs this process may run on
  std::size_t llc_bytes = 0;       // every last-level cache together, 0 when unknown
  std::size_t available_bytes = 0; // MemAvailable, 0 when unknown

  // "AMD EPYC 9654 96-Core Processor, 192 threads": the cache's device key.
  std::string device() const;
};

const CpuInfo& cpu_info();

}  // namespace napkin::measure
