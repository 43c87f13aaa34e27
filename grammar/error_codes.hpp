#pragma once
// Every diagnostic has a stable code. Codes are grouped by stage:
// E01xx reading and parsing, E02xx units and dimensions, E03xx names and
// records, E04xx arithmetic, E05xx checks, E06xx files and imports,
// E07xx limits, E08xx usage, E09xx measurements; E00xx napkin itself.
namespace napkin::codes {
inline constexpr const char* internal = "E0000";  // a failure napkin did not expect: a bug

inline constexpr const char* syntax = "E0100";
inline constexpr const char* bad_number = "E0101";
inline constexpr const char* bad_escape = "E0102";
inline constexpr const char* bad_encoding = "E0103";
inline constexpr const char* misplaced_unit = "E0104";

inline constexpr const char* unknown_unit = "E0200";
inline constexpr const char* add_mismatch = "E0201";
inline constexpr const char* compare_mismatch = "E0202";
inline constexpr const char* field_type = "E0203";
inline constexpr const char* convert_mismatch = "E0204";
inline constexpr const char* bad_power = "E0205";
inline constexpr const char* needs_dimensionless = "E0206";
inline constexpr const char* type_mismatch = "E0207";
inline constexpr const char* unit_redefined = "E0208";

inline constexpr const char* unknown_name = "E0300";
inline constexpr const char* unknown_field = "E0301";
inline constexpr const char* missing_input = "E0302";
inline constexpr const char* cycle = "E0303";
inline constexpr const char* duplicate = "E0304";
inline constexpr const char* not_a_record = "E0305";
inline constexpr const char* bad_arguments = "E0306";
inline constexpr const char* not_callable = "E0307";

inline constexpr const char* division_by_zero = "E0400";
inline constexpr const char* not_finite = "E0401";

inline constexpr const char* check_failed = "E0500";
inline constexpr const char* check_not_bool = "E0501";

inline constexpr const char* import_not_found = "E0600";
inline constexpr const char* import_cycle = "E0601";
inline constexpr const char* io = "E0602";

inline constexpr const char* nesting_limit = "E0700";
inline constexpr const char* recursion_limit = "E0701";
inline constexpr const char* size_limit = "E0702";

inline constexpr const char* usage = "E0800";

inline constexpr const char* probe_unavailable = "E0900";
inline constexpr const char* unknown_probe = "E0901";
}  // namespace napkin::codes
