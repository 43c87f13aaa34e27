#pragma once
// Every probe napkin knows, behind one interface: a name, the unit of what
// it returns, the arguments it takes, and a way to run it. The CPU probes
// are always built; the GPU probes run in libnapkin_gpu.so.
#include <string>
#include <utility>
#include <vector>

#include "measurement.hpp"
#include "settings.hpp"

namespace napkin::measure {

// What an argument takes: one of `choices`; a thread count (default: all);
// a size, a whole number left out of the key unless given; a model, given
// as a record and keyed by its shape (decode_shape.hpp).
enum class ArgKind { Choice, Threads, Count, Model };

struct ProbeArg {
  std::string name;                  // "dtype"
  std::vector<std::string> choices;  // for ArgKind::Choice
  std::string fallback;              // the default; "" for threads means all, for a count or model none
  ArgKind kind = ArgKind::Choice;
  bool whole() const { return kind == ArgKind::Threads || kind == ArgKind::Count; }
};

struct ProbeInfo {
  std::string name;     // "cpu.copy_bandwidth"
  std::string unit;     // "B/s", "FLOP/s" or "s"
  std::string summary;  // one line, for listings and errors
  std::vector<ProbeArg> args;
  bool gpu = false;
};

const std::vector<ProbeInfo>& probe_list();
const ProbeInfo* find_probe(const std::string& name);

// A probe with every argument settled: what runs, and what the cache keys on.
struct Request {
  const ProbeInfo* probe = nullptr;
  std::vector<std::pair<std::string, std::string>> args;  // in the probe's order, defaults filled in

  std::string variant() const;  // "dtype=bf16", "threads=2" or ""
  std::string key() const;      // "gpu.matmul_throughput(dtype=bf16)"
  std::string arg(const std::string& name) const;
  long count(const std::string& name, long otherwise) const;  // a whole-number argument, or `otherwise` when not given
};

// Fills in defaults and checks each value; returns "" or what is wrong.
std::string settle(Request& r, const std::vector<std::pair<std::string, std::string>>& given);

// The variants `napkin measure` runs for a probe: one and all threads,
// every dtype, pinned and pageable.
std::vector<Request> standard_requests(const ProbeInfo& p);

// The device a probe runs on, as the cache names it; "" with `why` set when
// there is none (no GPU, no module).
std::string device_for(const ProbeInfo& p, std::string& why);

// Runs the probe now; throws napkin::Error with the reason it could not.
Measurement run(const Request& r, const Settings& s);

}  // namespace napkin::measure
