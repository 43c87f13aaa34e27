#include "gpu_module.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>
#include "grammar/diagnostic.hpp"

namespace napkin::measure {

namespace {

constexpr const char* kModule = "libnapkin_gpu.so";

struct Module {
  void* handle = nullptr;
  std::string error;
  decltype(&napkin_gpu_device_info) device_info = nullptr;
  decltype(&napkin_gpu_run) run = nullptr;
};

std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("NAPKIN_GPU_MODULE"); env && *env) {
    out.emplace_back(env);
    return out;  // an explicit choice is the only one
  }
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back((exe.parent_path() / kModule).string());
    out.push_back((exe.parent_path() / ".." / "lib" / "napkin" / kModule).lexically_normal().string());
  }
  out.emplace_back(kModule);
  return out;
}

Module open_module() {
  Module m;
  std::string errors;
  bool seen = false;  // a file was there but would not load
  for (const auto& path : candidates()) {
    const bool by_path = path.find('/') != std::string::npos;
    std::error_code ec;
    if (by_path && !std::filesystem::exists(path, ec)) continue;
    m.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (m.handle) break;
    const char* e = dlerror();
    const std::string why = e ? e : path;
    if (by_path || why.find("cannot open shared object file") == std::string::npos || why.find(kModule) != 0) {
      seen = true;
      errors += (errors.empty() ? "" : "; ") + why;
    }
  }
  if (!m.handle) {
    m.error = seen ? fmt::format("the GPU module could not be loaded ({})", errors)
                   : fmt::format("the GPU module {} was not found (looked for {}); it is built where the CUDA toolkit is",
                                 kModule, gpu_module_search());
    return m;
  }
  auto version = reinterpret_cast<decltype(&napkin_gpu_abi_version)>(dlsym(m.handle, "napkin_gpu_abi_version"));
  m.device_info = reinterpret_cast<decltype(&napkin_gpu_device_info)>(dlsym(m.handle, "napkin_gpu_device_info"));
  m.run = reinterpret_cast<decltype(&napkin_gpu_run)>(dlsym(m.handle, "napkin_gpu_run"));
  if (!version || !m.device_info || !m.run || version() != NAPKIN_GPU_ABI_VERSION) {
    m.error = "the GPU module belongs to another napkin version";
    m.device_info = nullptr;
    m.run = nullptr;
  }
  return m;
}

Module& module() {
  static Module m = open_module();
  return m;
}

std::mutex& gpu_lock() {
  static std::mutex mu;
  return mu;
}

}  // namespace

const GpuDevice& gpu_device() {
  static const GpuDevice dev = [] {
    std::lock_guard lock(gpu_lock());
    GpuDevice d;
    Module& m = module();
    if (!m.device_info) {
      d.reason = "no GPU: " + m.error;
      return d;
    }
    napkin_gpu_device info{};
    m.device_info(&info);
    d.found = info.found != 0;
    d.name = info.name;
    d.detail = info.detail;
    d.memory_bytes = info.memory_bytes;
    if (!d.found) d.reason = info.error[0] ? std::string(info.error) : "no GPU found";
    return d;
  }();
  return dev;
}

Measurement gpu_run(const std::string& probe, const std::string& arg) {
  const GpuDevice& dev = gpu_device();
  if (!dev.found) fail(codes::probe_unavailable, dev.reason);
  std::lock_guard lock(gpu_lock());
  auto r = std::make_unique<napkin_gpu_result>();
  module().run(probe.c_str(), arg.c_str(), r.get());
  if (!r->ok) fail(codes::probe_unavailable, r->error[0] ? r->error : "the GPU probe failed");
  Measurement m;
  m.probe = "gpu." + probe;
  m.unit = r->unit;
  m.device = dev.name;
  m.method = r->method;
  summarize(m, std::vector<double>(r->samples, r->samples + std::min(r->n, NAPKIN_GPU_MAX_SAMPLES)));
  m.measured_at = utc_now();
  return m;
}

std::string gpu_module_search() {
  std::string s;
  for (const auto& c : candidates()) s += (s.empty() ? "" : ", ") + c;
  return s;
}

}  // namespace napkin::measure
