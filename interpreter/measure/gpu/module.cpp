// The module's C entry points: device discovery and probe dispatch. No
// exception or C++ object crosses this boundary.
#include <cublasLt.h>

#include "common.hpp"

#define NAPKIN_GPU_EXPORT extern "C" __attribute__((visibility("default")))

using namespace napkin::gpu;

NAPKIN_GPU_EXPORT int napkin_gpu_abi_version(void) { return NAPKIN_GPU_ABI_VERSION; }

NAPKIN_GPU_EXPORT void napkin_gpu_device_info(napkin_gpu_device* out) {
  *out = napkin_gpu_device{};
  // Without a driver the runtime answers cudaErrorInsufficientDriver and
  // leaves the count alone: it starts at 0, which means "no GPU".
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    cudaGetLastError();
    set_text(out->error, sizeof out->error,
             e == cudaSuccess ? std::string("no GPU found (the CUDA runtime sees no device)")
                              : strf("no GPU found (%s: %s)", cudaGetErrorName(e), cudaGetErrorString(e)));
    return;
  }
  try {
    cudaDeviceProp p{};
    NAPKIN_CUDA(cudaGetDeviceProperties(&p, 0));
    int clock = 0, mem_clock = 0, bus = 0, runtime = 0, driver = 0;
    NAPKIN_CUDA(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
    NAPKIN_CUDA(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0));
    NAPKIN_CUDA(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
    NAPKIN_CUDA(cudaRuntimeGetVersion(&runtime));
    NAPKIN_CUDA(cudaDriverGetVersion(&driver));
    set_text(out->name, sizeof out->name, p.name);
    out->memory_bytes = static_cast<double>(p.totalGlobalMem);
    set_text(out->detail, sizeof out->detail,
             strf("%s: compute capability %d.%d, %d SMs, %.0f MHz peak, memory %.0f MHz × %d bits, %.1f GiB; "
                  "CUDA runtime %d.%d, driver %d.%d, cuBLASLt %zu; %d device%s",
                  p.name, p.major, p.minor, p.multiProcessorCount, clock / 1e3, mem_clock / 1e3, bus,
                  p.totalGlobalMem / 1073741824.0, runtime / 1000, runtime % 1000 / 10, driver / 1000,
                  driver % 1000 / 10, cublasLtGetVersion(), count, count == 1 ? "" : "s, the first measured"));
    out->found = 1;
  } catch (const std::exception& ex) {
    set_text(out->error, sizeof out->error, strf("no usable GPU (%s)", ex.what()));
  }
}

NAPKIN_GPU_EXPORT void napkin_gpu_run(const char* probe, const char* arg, napkin_gpu_result* out) {
  *out = napkin_gpu_result{};
  const std::string p = probe ? probe : "";
  try {
    const Args args(arg ? arg : "");
    NAPKIN_CUDA(cudaSetDevice(0));
    if (p == "copy_bandwidth") run_stream("copy", out);
    else if (p == "triad_bandwidth") run_stream("triad", out);
    else if (p == "read_bandwidth") run_stream("read", out);
    else if (p == "memcpy_bandwidth") run_memcpy(out);
    else if (p == "matvec_bandwidth") run_matvec(out);
    else if (p == "matmul_throughput") run_matmul(args, out);
    else if (p == "decode_step") run_decode_step(args, out);
    else if (p == "host_to_device_bandwidth") run_host_to_device(args.get("memory", "pinned"), out);
    else if (p == "launch_latency") run_launch_latency(out);
    else if (p == "launch_interval") run_launch_interval(out);
    else throw Failure("the GPU module has no probe " + p);
    NAPKIN_CUDA(cudaDeviceSynchronize());
  } catch (const std::exception& ex) {
    out->ok = 0;
    set_text(out->error, sizeof out->error, ex.what());
  }
}
