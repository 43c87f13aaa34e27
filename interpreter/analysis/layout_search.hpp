#pragma once
// `napkin layout`: every parallel layout of a training plan (std/plans'
// training_plan) on its cluster, the ones that do not fit in memory
// dropped, the rest ranked by step time.
//
// A layout is tensor, pipeline and context parallel degrees, virtual
// stages, a micro-batch, a ZeRO stage and a recomputation level; data parallelism takes the GPUs
// they leave. The candidates are enumerated here (degrees whose product is
// the cluster's GPUs, tp no larger than a scale-up domain unless the plan
// says otherwise, pp up to the layers, micro-batches dividing the batch,
// every ZeRO stage and recomputation level);
// whether one is a layout the model can run (layout_ok, and the reason
// when it is not) and every formula that prices it are the plan's own,
// evaluated by the compiled sweep program (interpreter/sweep/) where it can
// take the plan, else by the tree walker.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_names.hpp"

namespace napkin {

struct LayoutSpec {
  std::string record;                        // the plan: "plan"
  std::vector<double> tp, pp, cp, micro_batch, vpp, zero_stage, recompute, ep;  // the values to try (recompute: 0 none, 1 selective, 2 full); empty: the defaults above
  bool compile = true;                       // false: the tree walker at every point (tests compare the two)
  bool prune = true;                         // false: every candidate priced, even where its group is not valid (tests compare)
};

// The parts of a step, as std/plans' training_plan names them, summing to
// step_time.
inline constexpr auto kStepParts = stdlib_names::step_parts;

// Why a candidate is not a layout: the plan's boolean fields, each false
// for a reason, and what `napkin layout` calls it.
inline constexpr auto kValidity = stdlib_names::layout_validity;
inline constexpr std::array<const char*, kValidity.size()> kValidityNames = {
    "the degrees do not fill the cluster",
    "tp does not divide the heads or KV heads",
    "tp does not divide the FFN or expert width",
    "ep does not divide the experts or dp·cp",
    "a tp group would leave its scale-up domain",
    "the layers do not split into the stages and virtual stages",
    "the batch does not split into micro-batches",
    "the micro-batches are no multiple of pp, as virtual stages need"};

struct LayoutRow {
  double tp = 1, pp = 1, cp = 1, dp = 1, micro_batch = 1, vpp = 1, zero_stage = 1, recompute = 1, ep = 1;
  bool ok = false, fits = false;
  double step_time = 0, memory = 0, bubble = 0, mfu = 0;
  std::array<double, kStepParts.size()> parts{};
  std::size_t order = 0;  // enumeration order: ties in step time keep it
};

struct LayoutResult {
  bool expert_parallel = false;  // a mixture of experts, or ep named: ep is a degree of the layout and shown
  std::string record;
  double gpus = 0, gpus_per_domain = 0, capacity = 0;
  std::size_t tried = 0;        // candidates evaluated
  std::size_t invalid = 0;      // evaluated, but layout_ok is false
  std::array<std::size_t, kValidity.size()> invalid_by{};  // how many fail each test (one may fail several)
  std::array<std::optional<LayoutRow>, kValidity.size()> invalid_example;  // the first that fails it
  std::size_t not_fitting = 0;  // a valid layout whose memory_per_gpu is over the capacity
  std::vector<LayoutRow> ranked;                  // valid and fitting, fastest first
  std::optional<LayoutRow> fastest_not_fitting;   // faster than ranked[0] (or nothing fits), not chosen
  bool compiled = false;        // the compiled program priced the layouts
  std::size_t walked = 0;       // layouts the program marked, priced by the tree walker instead (each costs milliseconds)
  // Display templates (kind, dimension, unit) of step_time, memory_per_gpu,
  // bubble, implied_mfu and each part, taken from the plan.
  Value time_like, memory_like, bubble_like, mfu_like, capacity_value;
};

LayoutResult search_layouts(Interpreter& in, Module* m, const LayoutSpec& spec);

}  // namespace napkin
