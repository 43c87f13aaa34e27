#pragma once
// What `measure(...)` asked, checked against the probes napkin knows before
// anything is measured: an unknown probe or a bad argument is an error at
// the call, whatever the machine; measurements turned off, or no device
// here for the probe, mean its `else` applies.
#include <optional>
#include <string>

#include "interpreter/core/prober.hpp"
#include "interpreter/measure/probes.hpp"

namespace napkin::measure {

struct CheckedRequest {
  Request request;     // the probe, every argument settled
  std::string device;  // where it runs, as the cache names it
};

// The request to run, or nothing with `r` saying why not (r.unknown_probe,
// r.bad_argument, or r.reason for a probe that cannot run: `off` is
// --no-measure's).
// A model argument is read from its record through `in`.
std::optional<CheckedRequest> check_request(Interpreter& in, const MeasureRequest& req, bool off, MeasureResult& r);

// A prober that checks each request and runs none: where nothing can be
// measured (the playground), measure(...) says why and takes its `else`,
// and a misspelt probe, a missing model and an argument the probe does not
// take or of the wrong kind are the same errors as on the command line.
// What only a probe about to run checks (a model record that cannot be
// stepped, threads past this machine's) is not checked: the `else` applies.
Prober unmeasured_prober();

}  // namespace napkin::measure
