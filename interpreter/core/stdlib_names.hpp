#pragma once
// Every name of the standard library that napkin's C++ relies on, in one
// place. Formulas live in stdlib/*.napkin and C++ evaluates them through the
// interpreter (Interpreter::call_function, a record's field); what C++ still
// needs is the names to look up. Renaming one of these in stdlib/ means
// changing it here, and the tests that use it (named beside each) fail until
// then.
//
// interpreter/measure/ holds none of these: which field each probe fills
// and is compared with is std/hardware's `measured_fields` record, which
// cli/catalog.cpp reads (measured_fields below) and hands to measure/.
#include <array>

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

// ---- std/plans -------------------------------------------------------------
// What `napkin layout` (analysis/layout_search.cpp) sets in and reads of a
// training_plan. Tests: cli.layout, check.bench_validation,
// stdlib.layout_search.
inline constexpr const char* training_plan = "training_plan";
// The inputs a layout sets, in this order (recompute_level: 0 none, 1
// selective, 2 full; ep: expert-parallel GPUs, carved out of dp·cp).
inline constexpr std::array<const char*, 9> layout_inputs = {"tp",  "pp",         "cp",        "dp", "micro_batch",
                                                             "vpp", "zero_stage", "recompute_level", "ep"};
// Where the search starts when not told: the plan's own cp and ep
// (layout_inputs' 3rd and 9th); every ZeRO stage and recomputation level
// is tried.
inline constexpr const char* plan_cp = layout_inputs[2];
inline constexpr const char* plan_ep = layout_inputs[8];
// The fields read back for each layout, in this order.
inline constexpr std::array<const char*, 6> layout_columns = {"layout_ok", "memory_fits", "memory_per_gpu",
                                                              "step_time", "bubble",      "implied_mfu"};
// The parts of a step, summing to step_time: why one layout loses to another.
inline constexpr std::array<const char*, 8> step_parts = {"step_compute", "step_tp",     "step_cp",    "step_ep",
                                                          "step_pp",      "step_bubble", "dp_exposed", "optimizer_step"};
// The plan's validity tests, each a boolean false for one reason
// (analysis/layout_search.hpp names the reasons).
inline constexpr std::array<const char*, 8> layout_validity = {"fills_cluster",  "heads_split",  "widths_split",
                                                               "experts_split",  "tp_fits_domain", "stages_split",
                                                               "batch_split",    "interleave_split"};
// The figures that bound the search, evaluated in the plan's scope.
inline constexpr const char* plan_gpus = "cluster.gpus";
inline constexpr const char* plan_gpus_per_domain = "cluster.gpus_per_domain";
inline constexpr const char* plan_layers = "model.layers";
inline constexpr const char* plan_experts = "model.experts";  // above 1: a mixture of experts, ep searched
inline constexpr const char* plan_global_batch = "global_batch";
inline constexpr const char* plan_tp_inside_domain = "tp_inside_domain";
inline constexpr const char* plan_memory_capacity = "memory_capacity";
// Set false in the plan the search starts from: a candidate that breaks a
// layout rule is priced and counted under each reason, not an error.
inline constexpr const char* plan_strict_layout = "strict_layout";

// ---- std/models, std/serving, std/hf -----------------------------------------
// `napkin quick` (cli/cmd_quick.cpp) writes one scenario, `serving with
// { model, gpu, batch, context, prompt, price, mfu }`, over these modules,
// and lists the catalogs' entries by their base records. Tests: cli,
// cli.hf_config.
inline constexpr const char* models_module = "models";
inline constexpr const char* model_record = "model";        // std/models' base record
inline constexpr const char* hardware_record = "hardware";  // std/hardware's
inline constexpr const char* serving_module = "serving";
inline constexpr const char* serving = "serving";  // the record quick's scenario extends
inline constexpr const char* serving_model = "model";
inline constexpr const char* serving_gpu = "gpu";
inline constexpr const char* serving_batch = "batch";
inline constexpr const char* serving_context = "context";
inline constexpr const char* serving_prompt = "prompt";
inline constexpr const char* serving_price = "price";
inline constexpr const char* serving_mfu = "mfu";
// What quick reads back when the set-up does not fit.
inline constexpr const char* serving_memory_fits = "memory_fits";
inline constexpr const char* serving_memory_needed = "memory_needed";
// A model from a Hugging Face config.json (`--config`).
inline constexpr const char* hf_module = "hf";
inline constexpr const char* from_hf_config_fn = "from_hf_config";

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
