#include "cpu_blas.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <vector>

namespace napkin::measure {

namespace {

CpuBlas open_blas(const std::string& choice) {
  CpuBlas b;
  if (choice == "none") {
    b.reason = "no BLAS (NAPKIN_CPU_BLAS=none)";
    return b;
  }
  // The soname Debian's alternatives point at, whichever threading flavour is installed.
  const std::vector<std::string> files =
      choice.empty() ? std::vector<std::string>{"libopenblas.so.0", "libopenblas.so"} : std::vector<std::string>{choice};
  std::string errors;
  void* handle = nullptr;
  for (const auto& f : files) {
    // RTLD_LOCAL keeps its symbols away from anything else napkin loads.
    handle = dlopen(f.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      b.file = f;
      break;
    }
    const char* e = dlerror();
    errors += (errors.empty() ? "" : "; ") + std::string(e ? e : f);
  }
  if (!handle) {
    b.reason = choice.empty() ? fmt::format("OpenBLAS not found ({}); Debian's libopenblas0-pthread provides it", errors)
                              : fmt::format("the BLAS {} could not be loaded ({})", choice, errors);
    return b;
  }
  b.sgemm = reinterpret_cast<CpuBlas::Sgemm>(dlsym(handle, "cblas_sgemm"));
  if (!b.sgemm) {
    b.reason = fmt::format("{} has no cblas_sgemm", b.file);
    dlclose(handle);
    return b;
  }
  b.sbgemm = reinterpret_cast<CpuBlas::Sbgemm>(dlsym(handle, "cblas_sbgemm"));
  b.set_threads = reinterpret_cast<void (*)(int)>(dlsym(handle, "openblas_set_num_threads"));
  b.get_threads = reinterpret_cast<int (*)()>(dlsym(handle, "openblas_get_num_threads"));
  // The handle stays open for the life of the process: the probe may run again.
  if (auto config = reinterpret_cast<const char* (*)()>(dlsym(handle, "openblas_get_config")))
    b.name = config();
  else
    b.name = b.file;
  b.found = true;
  return b;
}

}  // namespace

const CpuBlas& cpu_blas(const std::string& choice) {
  static std::mutex mu;
  static std::map<std::string, CpuBlas> opened;
  std::lock_guard lock(mu);
  auto it = opened.find(choice);
  if (it == opened.end()) it = opened.emplace(choice, open_blas(choice)).first;
  return it->second;
}

}  // namespace napkin::measure
