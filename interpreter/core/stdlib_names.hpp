#pragma once
// Every name of the standard library that napkin's C++ relies on, in one
// place. Formulas live in stdlib/*.napkin and C++ evaluates them through the
// interpreter (Interpreter::call_function, a record's field); what C++ still
// needs is the names to look up. Renaming one of these in stdlib/ means
// changing it here, and the tests that use it (named beside each) fail until
// then.
//
// Not here yet: `napkin quick` (cli/cmd_quick.cpp) writes a scenario
// `serving with { model, gpu, batch, context, prompt, price, mfu }` over
// std/models, std/hardware and std/serving and reads its fields
// memory_fits, memory_needed, gpu.memory_capacity, tokens_per_s,
// tokens_per_s_per_sequence, usd_per_million_tokens, step_time and
// decode_bound by their names; those belong in a std/serving section here.
//
// interpreter/measure/ holds none of these: which field each probe fills
// and is compared with is std/hardware's `measured_fields` record, which
// cli/catalog.cpp reads (measured_fields below) and hands to measure/.
namespace napkin::stdlib_names {

// ---- std/hardware --------------------------------------------------------
// The module `napkin measure` reads its spec sheets from (catalog.cpp) and
// `napkin quick` lists GPUs from (cmd_quick.cpp).
inline constexpr const char* hardware_module = "hardware";
// The catalog's base record, which is no device (catalog.cpp); also the field
// by which a scenario names its GPU (plot roofline's default GPU,
// cmd_quick.cpp). Tests: measure.cli, golden.plot.roofline, cli.
inline constexpr const char* gpu = "gpu";
// A hardware record's model name, matched against the detected device's.
inline constexpr const char* name = "name";
// The memory roof of the roofline plot; with the peak, what makes a
// hardware record plottable (roofline.cpp). Test: golden.plot.roofline.
inline constexpr const char* memory_bandwidth = "memory_bandwidth";
// What one GPU holds, shown by `napkin quick` (cmd_quick.cpp). Test: cli.
inline constexpr const char* memory_capacity = "memory_capacity";
// The compute roof: `napkin plot roofline --peak`'s default (plot.hpp,
// commands.hpp).
inline constexpr const char* peak_bf16 = "peak_bf16";
// The field std/hardware computes as peak_bf16 / memory_bandwidth: the spec
// ridge point `napkin measure` prints (cmd_measure.cpp). A field of this
// name, or `ridge`, is the hardware's, not an operation, so the roofline
// plot does not put it on as a point (roofline.cpp).
inline constexpr const char* ridge_point = "ridge_point";
inline constexpr const char* ridge = "ridge";
// The record that says, by probe, which field `napkin measure` compares a
// figure with and writes it to in a profile; its fields device_name and
// device_memory name the fields for the device's name and memory
// (catalog.cpp measured_fields). Tests: measure.unit ("the standard
// library names the fields"), measure.cli.
inline constexpr const char* measured_fields = "measured_fields";
inline constexpr const char* measured_device_name = "device_name";
inline constexpr const char* measured_device_memory = "device_memory";

// ---- std/roofline ----------------------------------------------------------
// The functions the roofline plot and `napkin measure` evaluate instead of
// writing the formulas in C++. Tests: golden.plot.roofline, measure.cli,
// stdlib.roofline_helpers.
inline constexpr const char* roofline_module = "roofline";
inline constexpr const char* ridge_point_fn = "ridge_point";                        // (peak, bandwidth)
inline constexpr const char* attainable_performance_fn = "attainable_performance";  // (intensity, peak, bandwidth)
inline constexpr const char* intensity_bound_fn = "intensity_bound";                // (intensity, peak, bandwidth)
inline constexpr const char* fraction_of_peak_fn = "fraction_of_peak";              // (achieved, peak)

// ---- std/units -------------------------------------------------------------
// The module napkin loads before any other (load.cpp): the base dimensions,
// their spellings and the names messages give dimensions. The symbols below
// are those whose values C++ shows by its own conventions (UnitTable::Shown,
// format.cpp). Tests: tests/unit/declared_units_test.cpp and every golden
// output.
inline constexpr const char* units_module = "units";
inline constexpr const char* byte_unit = "B";
inline constexpr const char* flop_unit = "FLOP";
inline constexpr const char* second_unit = "s";
inline constexpr const char* token_unit = "token";
inline constexpr const char* param_unit = "param";
inline constexpr const char* usd_unit = "USD";

}  // namespace napkin::stdlib_names
