// The WebAssembly build's side of the probes (platform.hpp), for the
// playground and Node.js. A page can neither time the machine's memory nor
// load the GPU module (there is no dlopen, and no sched_getaffinity), so
// every probe reads as one that cannot run here: `measure(...) else X` uses
// X, and a measure without `else` is E0900 with this reason. No kernel is
// built in: run() is never reached, since no probe has a device.
#include "grammar/diagnostic.hpp"
#include "interpreter/measure/platform/platform.hpp"
#include "interpreter/measure/probes.hpp"

namespace napkin::measure {

int usable_threads() { return 1; }

std::string device_for(const ProbeInfo&, std::string& why) {
  why = "the browser has no probes (napkin runs here as WebAssembly)";
  return "";
}

Measurement run(const Request& r, const Settings&) {
  fail(codes::probe_unavailable, r.probe->name + ": the browser has no probes (napkin runs here as WebAssembly)");
}

}  // namespace napkin::measure
