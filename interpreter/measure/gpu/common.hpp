#pragma once
// What every GPU probe's host side shares: checked CUDA calls, owned
// buffers, and timing with CUDA events around batches of launches long
// enough (≥ 5 ms) that event resolution does not matter.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/measure/gpu_abi.h"

namespace napkin::gpu {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::string strf(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Failure(strf("%s failed: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e)));
}
#define NAPKIN_CUDA(call) ::napkin::gpu::check((call), #call)

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : n_(count) {
    const cudaError_t e = cudaMalloc(&p_, count * sizeof(T));
    if (e != cudaSuccess) {
      cudaGetLastError();
      throw Failure(strf("cannot allocate %.0f MiB on the GPU: %s", count * sizeof(T) / 1048576.0, cudaGetErrorName(e)));
    }
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

class EventPair {
 public:
  EventPair() {
    NAPKIN_CUDA(cudaEventCreate(&a_));
    NAPKIN_CUDA(cudaEventCreate(&b_));
  }
  ~EventPair() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  void start() { NAPKIN_CUDA(cudaEventRecord(a_)); }
  double stop_seconds() {
    NAPKIN_CUDA(cudaEventRecord(b_));
    NAPKIN_CUDA(cudaEventSynchronize(b_));
    float ms = 0;
    NAPKIN_CUDA(cudaEventElapsedTime(&ms, a_, b_));
    return ms / 1e3;
  }

 private:
  cudaEvent_t a_{}, b_{};
};

struct Timing {
  int warmups = 3;           // batches before sampling
  double warmup_s = 0;       // and at least this long (clocks settle, cuBLAS picks kernels)
  int samples = 25;
  double min_sample_s = 5e-3;
};

// Seconds per launch, one figure per sample.
inline std::vector<double> time_launches(const std::function<void()>& launch, const Timing& t) {
  EventPair ev;
  auto once = [&] {
    launch();
    NAPKIN_CUDA(cudaGetLastError());
  };
  once();
  NAPKIN_CUDA(cudaDeviceSynchronize());
  auto calibrate = [&] {
    ev.start();
    once();
    const double one = std::max(ev.stop_seconds(), 1e-7);
    return static_cast<int>(std::clamp(std::ceil(t.min_sample_s / one), 1.0, 100000.0));
  };
  int batch = calibrate();
  const auto begin = std::chrono::steady_clock::now();
  for (int w = 0;; ++w) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (w >= t.warmups && spent >= t.warmup_s) break;
    for (int i = 0; i < batch; ++i) once();
    NAPKIN_CUDA(cudaDeviceSynchronize());
  }
  batch = calibrate();  // clocks may have risen during the warm-up
  std::vector<double> out;
  for (int s = 0; s < t.samples && s < NAPKIN_GPU_MAX_SAMPLES; ++s) {
    ev.start();
    for (int i = 0; i < batch; ++i) once();
    out.push_back(ev.stop_seconds() / batch);
  }
  return out;
}

// Device memory free now, so buffers can shrink on a smaller or busy GPU.
inline std::size_t free_memory() {
  std::size_t free = 0, total = 0;
  NAPKIN_CUDA(cudaMemGetInfo(&free, &total));
  return free;
}

inline std::string mib(double bytes) {
  if (bytes >= 1073741824.0 && std::fmod(bytes, 1073741824.0) == 0) return strf("%.0f GiB", bytes / 1073741824.0);
  return strf("%.0f MiB", bytes / 1048576.0);
}

inline void set_text(char* dst, std::size_t cap, const std::string& s) {
  std::snprintf(dst, cap, "%s", s.c_str());
}

// Turns per-launch seconds into rates of `work` units per second.
inline void fill_rates(napkin_gpu_result* out, const std::vector<double>& seconds, double work, const char* unit,
                       const std::string& method) {
  out->n = 0;
  for (double s : seconds)
    if (out->n < NAPKIN_GPU_MAX_SAMPLES) out->samples[out->n++] = work / s;
  set_text(out->unit, sizeof out->unit, unit);
  set_text(out->method, sizeof out->method, method);
  out->ok = 1;
}

// A probe's arguments, "dtype=bf16,n=2048". A model's shape has commas
// inside its brackets ("model=x[L=2,d=64],batch=1"): they do not split.
class Args {
 public:
  explicit Args(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t end = at;
      int depth = 0;
      for (; end < text.size() && (text[end] != ',' || depth > 0); ++end) depth += text[end] == '[' ? 1 : text[end] == ']' ? -1 : 0;
      const std::string item = text.substr(at, end - at);
      const std::size_t eq = item.find('=');
      if (eq != std::string::npos) pairs_.emplace_back(item.substr(0, eq), item.substr(eq + 1));
      at = end + 1;
    }
  }
  std::string get(const std::string& key, const std::string& otherwise = "") const {
    for (const auto& [k, v] : pairs_)
      if (k == key) return v;
    return otherwise;
  }
  long count(const std::string& key, long otherwise) const {
    const std::string v = get(key);
    return v.empty() ? otherwise : std::atol(v.c_str());
  }

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// The probes, one file each.
void run_stream(const std::string& kind, napkin_gpu_result* out);
void run_memcpy(napkin_gpu_result* out);
void run_matvec(napkin_gpu_result* out);
void run_matmul(const Args& args, napkin_gpu_result* out);
void run_decode_step(const Args& args, napkin_gpu_result* out);
void run_host_to_device(const std::string& memory, napkin_gpu_result* out);
void run_launch_latency(napkin_gpu_result* out);
void run_launch_interval(napkin_gpu_result* out);

}  // namespace napkin::gpu
