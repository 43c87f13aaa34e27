#pragma once
// What `measure(...)` in a napkin file calls: finds the probe, settles its
// arguments, and answers from this process's memory, then the cache, then
// by running the probe (and storing what it found).
#include <string>

#include "interpreter/core/prober.hpp"
#include "interpreter/core/units.hpp"
#include "interpreter/measure/measurement.hpp"
#include "interpreter/measure/settings.hpp"

namespace napkin::measure {

struct ProberOptions {
  bool off = false;        // --no-measure: every probe "cannot run", so fallbacks are used
  bool remeasure = false;  // --remeasure: run probes even when the cache has them
  std::string cache_path;  // "" for no cache
  Settings settings;

  // From the command line's flags and the environment: NAPKIN_NO_MEASURE=1
  // turns measuring off as --no-measure does, and the cache lives at
  // Cache::default_path().
  static ProberOptions from(bool no_measure, bool remeasure);
};

Prober make_prober(ProberOptions o);

// The measurement as a napkin quantity in base units: its unit (`B/s`) read
// in the interpreter's table, where std/units declared B and s.
Value to_value(const Measurement& m, const UnitTable& units);

}  // namespace napkin::measure
