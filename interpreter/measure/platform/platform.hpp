#pragma once
// What the probes ask of the platform, one source file per platform chosen
// by the build (interpreter/measure/CMakeLists.txt): native.cpp (Linux) and
// wasm.cpp (WebAssembly, where there are no probes). probes.hpp's
// device_for, where a probe runs, and run, which runs it, are theirs too.
namespace napkin::measure {

// The CPUs this process may run on (its affinity mask), at least 1.
int usable_threads();

}  // namespace napkin::measure
