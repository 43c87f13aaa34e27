#pragma once
// Finds and opens libnapkin_gpu.so on first use. A module that is missing,
// cannot be loaded (no CUDA libraries) or finds no device reads the same as
// a machine without a GPU: a reason, never a crash.
#include <string>

#include "gpu_abi.h"
#include "measurement.hpp"

namespace napkin::measure {

struct GpuDevice {
  bool found = false;
  std::string name;    // "NVIDIA H200"
  std::string detail;  // SMs, clocks, versions
  double memory_bytes = 0;
  std::string reason;  // why not found: "no GPU found (cudaErrorInsufficientDriver: ...)"
};

// Opens the module once per process; later calls return the same answer.
const GpuDevice& gpu_device();

// Runs one GPU probe; throws napkin::Error with the reason on failure.
Measurement gpu_run(const std::string& probe, const std::string& arg);

// Where the module was looked for, in order: $NAPKIN_GPU_MODULE, beside the
// executable, ../lib/napkin beside it, then the loader's search path.
std::string gpu_module_search();

}  // namespace napkin::measure
