#pragma once
// The hardware record's field names that measurements fill in, as the
// standard library declares them (std/hardware's `measured_fields`, read by
// cli/catalog.cpp): measure/ knows its probes, not the record they fill, so
// none of std/hardware's names is written here.
#include <map>
#include <string>

namespace napkin::measure {

struct FieldNames {
  std::string device_name;    // the field for the device's own name ("name")
  std::string device_memory;  // the field for its memory ("memory_capacity")
  // By probe, without its "gpu." or "cpu.": "copy_bandwidth" → "memory_bandwidth".
  // A field ending in '_' is completed by the dtype measured ("peak_" → "peak_bf16").
  std::map<std::string, std::string> by_probe;

  // The field the probe `probe` ("gpu.matmul_throughput") measured with
  // `dtype` is compared with; "" when the library names none.
  std::string spec_field(const std::string& probe, const std::string& dtype) const {
    const auto it = by_probe.find(probe.substr(probe.find('.') + 1));
    if (it == by_probe.end()) return "";
    return is_prefix(it->second) ? it->second + dtype : it->second;
  }
  static bool is_prefix(const std::string& field) { return !field.empty() && field.back() == '_'; }
};

}  // namespace napkin::measure
