#pragma once
// A hardware profile: what `napkin measure --out FILE.toml` writes and
// `import_toml("FILE.toml")` reads back as a `hardware` record. [hardware]
// holds the record's fields (a string, a plain number, or a table with
// value, unit and provenance); [measurements] keeps every probe in full.
#include <string>
#include <vector>

#include "field_names.hpp"
#include "measurement.hpp"

namespace napkin::measure {

struct ProfileField {
  std::string name;        // "memory_bandwidth"
  std::string text;        // for a string field: "NVIDIA H200"
  bool is_string = false;
  double value = 0;        // in `unit`
  std::string unit;        // "B/s", "" for a plain number
  std::string provenance;  // how it was measured, "" for a figure given by hand
  // Where the file read writes it (1-based; 0 when made, not read): its key
  // and its value. profile_source puts the field there, so that an error in
  // it names the file's own line and column.
  unsigned line = 0, key_column = 0, value_column = 0;
};

struct Profile {
  unsigned hardware_line = 0;  // the line of `[hardware]` in the file read (0: made, not read)
  std::string device;       // "gpu: NVIDIA H200"
  std::string measured_at;
  std::vector<ProfileField> fields;
  std::vector<Measurement> measurements;
};

// The record's fields from a run of `napkin measure`: the GPU's when there
// is one, else the CPU's, named as `names` says (the copy probe's figure
// under its field, memory_bandwidth; a matmul's under its prefix and dtype,
// peak_bf16; every other probe under its own name). `gpu_memory_bytes` is
// the device memory the runtime reports.
Profile make_profile(const std::string& device, const std::vector<Measurement>& ms, double gpu_memory_bytes,
                     const FieldNames& names);

// The profile as the TOML text `napkin measure --out PATH` writes (through
// io's write_output).
std::string profile_toml(const std::string& path, const Profile& p);
// Throws napkin::Error naming the file and what is wrong with it.
Profile read_profile(const std::string& path);

// napkin source for the profile: `hardware profile extends gpu { ... }`.
std::string profile_source(const Profile& p);

}  // namespace napkin::measure
