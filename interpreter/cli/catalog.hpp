#pragma once
// The spec-sheet figures for a measured device, read from std/hardware's
// catalog, so `napkin measure` can print each result beside its spec and
// flag one above it (a cache effect, not a faster chip).
#include <map>
#include <optional>
#include <string>

#include "interpreter/measure/field_names.hpp"

namespace napkin::measure {

struct Spec {
  std::string record;  // "h200"
  std::string name;    // "H200 SXM"
  std::map<std::string, double> figures;  // "memory_bandwidth", "peak_bf16", ...: in base units
};

// The catalog entry whose model name the device name contains ("NVIDIA
// H200" → h200), preferring the one that matches more of its words.
std::optional<Spec> catalog_spec(const std::string& device_name);

// The fields measurements fill in, as std/hardware's `measured_fields`
// declares them: what `napkin measure` compares each probe with and names
// a profile's fields by.
FieldNames measured_fields();

}  // namespace napkin::measure
