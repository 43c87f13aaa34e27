#pragma once
// Every diagnostic has a stable code. Codes are grouped by stage:
// E01xx reading and parsing, E02xx units and dimensions, E03xx names and
// records, E04xx arithmetic, E05xx checks, E06xx files and imports,
// E07xx limits, E08xx usage, E09xx measurements; E00xx napkin itself.
//
// A code is a `Code`; `code_table` gives each its text ("E0201"), which
// never changes once released, and its short name (the docs' heading).
// Add a code in both places, in the same order: the build checks that the
// table lists every code once, in order. fmt::format("{}", code) gives its
// text through the formatter in grammar/code_format.hpp, kept apart so that
// this header, which every layer includes, does not bring <fmt/format.h>
// with it. Only grammar/diagnostic.cpp writes the "error[E0201]" around it.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace napkin {

enum class Code : std::uint8_t {
  internal,  // a failure napkin did not expect: a bug

  syntax,
  bad_number,
  bad_escape,
  bad_encoding,
  misplaced_unit,

  unknown_unit,
  add_mismatch,
  compare_mismatch,
  field_type,
  convert_mismatch,
  bad_power,
  needs_dimensionless,
  type_mismatch,
  unit_redefined,
  exponent_range,  // a unit's power beyond ±100
  range_mismatch,  // `a to b` with ends of unlike dimension
  range_compare,   // a range compared, or checked with ≈, as if it were one number
  range_unit,      // `unit NAME = EXPR` where EXPR is a range
  range_branches,  // an `if` on a range whose two branches cannot be mixed sample by sample
  dimension_named,     // `dimension "NAME" = UNIT` for a dimension that already has a name
  dimension_plain,     // `dimension "NAME" = B/B`: a plain number is not a dimension to name
  prefix_clash,        // a unit whose prefixed spelling (`kWh`) is already a unit
  bad_prefixes,        // `prefixes none, si`, or a family written twice
  suggest_unknown,     // `suggest NAME for ...` where NAME is not defined
  suggest_defined,     // `suggest NAME for WORD` where WORD is itself a name

  unknown_name,
  unknown_field,
  missing_input,
  cycle,
  duplicate,
  not_a_record,
  bad_arguments,
  not_callable,
  likely_typo,  // a new field in `extends` named like an input left at its default
  uncallable_field,  // a field called by name that is not declared `: fn`
  shadowed_parameter,  // a name in `with { }` that is both a field and the enclosing function's parameter
  derived_field,       // `with { }` replacing a field a library record works out, not an input

  division_by_zero,
  not_finite,
  bad_range,  // a range's ends out of order, a negative spread, a range inside a range
  inexact_whole_number,  // a whole number written in digits that a double cannot hold exactly

  check_failed,
  check_not_bool,
  bad_tolerance,  // `within` zero or negative
  no_solution,    // `napkin solve`: the condition does not change in the bracket
  no_root,        // `napkin solve`: A - B changes sign across a jump or a pole, not a root

  import_not_found,
  import_cycle,
  io,
  not_source,      // an import that is not napkin source (or TOML): refused unread
  outside_folder,  // restricted: an import that leaves the submission's folder
  bad_data,        // a data file (import_json) that is not valid, or holds what napkin cannot

  nesting_limit,
  recursion_limit,
  size_limit,
  time_limit,    // restricted: the run's time bound
  memory_limit,  // restricted: the run's memory bound

  usage,
  cannot_plot,

  probe_unavailable,
  unknown_probe,
};

struct CodeInfo {
  Code code;
  std::string_view text;  // "E0201": stable, what users and docs see
  std::string_view name;  // "add_mismatch": the docs' heading
};

inline constexpr CodeInfo code_table[] = {
    {Code::internal, "E0000", "internal"},

    {Code::syntax, "E0100", "syntax"},
    {Code::bad_number, "E0101", "bad_number"},
    {Code::bad_escape, "E0102", "bad_escape"},
    {Code::bad_encoding, "E0103", "bad_encoding"},
    {Code::misplaced_unit, "E0104", "misplaced_unit"},

    {Code::unknown_unit, "E0200", "unknown_unit"},
    {Code::add_mismatch, "E0201", "add_mismatch"},
    {Code::compare_mismatch, "E0202", "compare_mismatch"},
    {Code::field_type, "E0203", "field_type"},
    {Code::convert_mismatch, "E0204", "convert_mismatch"},
    {Code::bad_power, "E0205", "bad_power"},
    {Code::needs_dimensionless, "E0206", "needs_dimensionless"},
    {Code::type_mismatch, "E0207", "type_mismatch"},
    {Code::unit_redefined, "E0208", "unit_redefined"},
    {Code::exponent_range, "E0209", "exponent_range"},
    {Code::range_mismatch, "E0210", "range_mismatch"},
    {Code::range_compare, "E0211", "range_compare"},
    {Code::range_unit, "E0212", "range_unit"},
    {Code::range_branches, "E0213", "range_branches"},
    {Code::dimension_named, "E0214", "dimension_named"},
    {Code::dimension_plain, "E0215", "dimension_plain"},
    {Code::prefix_clash, "E0216", "prefix_clash"},
    {Code::bad_prefixes, "E0217", "bad_prefixes"},
    {Code::suggest_unknown, "E0218", "suggest_unknown"},
    {Code::suggest_defined, "E0219", "suggest_defined"},

    {Code::unknown_name, "E0300", "unknown_name"},
    {Code::unknown_field, "E0301", "unknown_field"},
    {Code::missing_input, "E0302", "missing_input"},
    {Code::cycle, "E0303", "cycle"},
    {Code::duplicate, "E0304", "duplicate"},
    {Code::not_a_record, "E0305", "not_a_record"},
    {Code::bad_arguments, "E0306", "bad_arguments"},
    {Code::not_callable, "E0307", "not_callable"},
    {Code::likely_typo, "E0308", "likely_typo"},
    {Code::uncallable_field, "E0309", "uncallable_field"},
    {Code::shadowed_parameter, "E0310", "shadowed_parameter"},
    {Code::derived_field, "E0311", "derived_field"},

    {Code::division_by_zero, "E0400", "division_by_zero"},
    {Code::not_finite, "E0401", "not_finite"},
    {Code::bad_range, "E0402", "bad_range"},
    {Code::inexact_whole_number, "E0403", "inexact_whole_number"},

    {Code::check_failed, "E0500", "check_failed"},
    {Code::check_not_bool, "E0501", "check_not_bool"},
    {Code::bad_tolerance, "E0502", "bad_tolerance"},
    {Code::no_solution, "E0503", "no_solution"},
    {Code::no_root, "E0504", "no_root"},

    {Code::import_not_found, "E0600", "import_not_found"},
    {Code::import_cycle, "E0601", "import_cycle"},
    {Code::io, "E0602", "io"},
    {Code::not_source, "E0603", "not_source"},
    {Code::outside_folder, "E0604", "outside_folder"},
    {Code::bad_data, "E0605", "bad_data"},

    {Code::nesting_limit, "E0700", "nesting_limit"},
    {Code::recursion_limit, "E0701", "recursion_limit"},
    {Code::size_limit, "E0702", "size_limit"},
    {Code::time_limit, "E0703", "time_limit"},
    {Code::memory_limit, "E0704", "memory_limit"},

    {Code::usage, "E0800", "usage"},
    {Code::cannot_plot, "E0805", "cannot_plot"},

    {Code::probe_unavailable, "E0900", "probe_unavailable"},
    {Code::unknown_probe, "E0901", "unknown_probe"},
};

// The table is the enum, in order: code_table[c] describes c.
constexpr bool code_table_in_order() {
  for (std::size_t i = 0; i < std::size(code_table); ++i) {
    if (static_cast<std::size_t>(code_table[i].code) != i) return false;
    const auto t = code_table[i].text;
    if (t.size() != 5 || t[0] != 'E') return false;
    if (i > 0 && !(code_table[i - 1].text < t)) return false;  // ascending, so no text twice
  }
  return static_cast<std::size_t>(code_table[std::size(code_table) - 1].code) + 1 == std::size(code_table);
}
static_assert(code_table_in_order(), "code_table must list every Code once, in the enum's order");

constexpr std::string_view code_text(Code c) { return code_table[static_cast<std::size_t>(c)].text; }

// Call sites spell a code `codes::add_mismatch`.
namespace codes {
using enum Code;
}  // namespace codes

}  // namespace napkin
