#include "layout_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "interpreter/core/suggest.hpp"
#include "interpreter/sweep/sweep_compile.hpp"
#include "interpreter/sweep/sweep_sharing.hpp"

namespace napkin {
namespace {

// The inputs a layout sets, in this order, and the fields read back: the
// names std/plans gives them (core/stdlib_names.hpp).
constexpr auto kInputs = stdlib_names::layout_inputs;
constexpr auto kColumns = stdlib_names::layout_columns;

[[noreturn]] void usage(std::string message, std::string help = {}) {
  Diagnostic d;
  d.code = codes::usage;
  d.message = std::move(message);
  d.help = std::move(help);
  throw Error(std::move(d));
}

std::size_t slot_of(Record* r, const std::string& record, const char* name) {
  auto it = r->index().find(name);
  if (it != r->index().end()) return it->second;
  usage(fmt::format("{} has no field `{}`, which napkin layout reads", record, name),
        fmt::format("napkin layout searches a std/plans {0}: `scenario plan = {0} with {{ ... }}`", stdlib_names::training_plan));
}

// A number the plan gives (cluster.gpus, model.layers): evaluated in the
// plan's scope.
// A figure the search reads of the plan itself (`global_batch`) fails at
// the plan, where the user made it, not at a name the user never wrote.
Value eval_for_search(Interpreter& in, Module* m, Record* r, const std::string& what) {
  const ast::Expr& e = in.parse_snippet("<layout>", what);
  try {
    return in.eval_in({m, r}, e);
  } catch (Error& err) {
    for (Label& l : err.diagnostic().labels)
      if (l.span.file == e.span.file && r->span.valid()) {
        l.span = r->span;
        l.text = fmt::format("napkin layout reads its {} here", what);
      }
    throw;
  }
}

double number_in(Interpreter& in, Module* m, Record* r, const std::string& what, const std::string& record) {
  Value v = eval_for_search(in, m, r, what);
  if (v.kind == Value::Kind::Bool) return v.b ? 1 : 0;
  if (v.kind != Value::Kind::Quantity || v.samples)
    usage(fmt::format("{}.{} is {}; napkin layout needs a plain number", record, what, describe_kind(v)));
  return v.q.v;
}

bool whole(double x) { return std::floor(x) == x; }

// Past this many candidates a search is refused before it is priced: each
// costs about 150 bytes, and every layout of a 4,096-GPU cluster is some
// thousands.
constexpr std::size_t kMaxLayouts = 1'000'000;

std::vector<double> divisors(double n) {
  std::vector<double> out;
  for (double d = 1; d <= n && d <= 1e6; ++d)
    if (whole(n / d)) out.push_back(d);
  return out;
}

// The name of the j-th field read back: kColumns, then kStepParts, then kValidity.
const char* column_name(std::size_t j) {
  if (j < kColumns.size()) return kColumns[j];
  j -= kColumns.size();
  if (j < kStepParts.size()) return kStepParts[j];
  return kValidity[j - kStepParts.size()];
}

double number(const Value& v) { return v.kind == Value::Kind::Bool ? (v.b ? 1.0 : 0.0) : v.q.v; }

struct Candidate {
  std::array<double, kInputs.size()> x;
};

// The plan a search varies: its record, the slots of its inputs and of the
// fields read back, and the figures that bound the candidates.
struct Plan {
  Record* base = nullptr;
  std::vector<std::size_t> inputs, columns;
  std::size_t validity_at = kColumns.size() + kStepParts.size();
  double layers = 0, batch = 0, experts = 1;
  bool tp_inside = true;
};

Plan read_plan(Interpreter& in, Module* m, const LayoutSpec& spec, LayoutResult& out) {
  Plan p;
  const ast::Expr& rec_expr = in.parse_snippet("<record>", spec.record);
  in.expect_record(&rec_expr);
  Value rv = in.eval_in(m, rec_expr);
  if (rv.kind != Value::Kind::Record)
    fail(codes::not_a_record, rec_expr.span,
         fmt::format("napkin layout searches a training plan, but `{}` is {}", spec.record, describe_kind(rv)));
  out.record = rv.rec->name.empty() ? spec.record : rv.rec->name;
  for (const char* n : kInputs) p.inputs.push_back(slot_of(rv.rec, out.record, n));
  for (const char* n : kColumns) p.columns.push_back(slot_of(rv.rec, out.record, n));
  for (const char* n : kStepParts) p.columns.push_back(slot_of(rv.rec, out.record, n));
  for (const char* n : kValidity) p.columns.push_back(slot_of(rv.rec, out.record, n));
  // The search varies the degrees of the plan, so the plan's own need not
  // be a layout the model can run; its other inputs' domains still hold.
  p.base = in.with_values(rv.rec, {{slot_of(rv.rec, out.record, stdlib_names::plan_strict_layout), Value::boolean(false)}});
  in.validate(p.base);
  out.gpus = number_in(in, m, p.base, stdlib_names::plan_gpus, out.record);
  out.gpus_per_domain = number_in(in, m, p.base, stdlib_names::plan_gpus_per_domain, out.record);
  out.capacity_value = eval_for_search(in, m, p.base, stdlib_names::plan_memory_capacity);
  out.capacity = number(out.capacity_value);
  p.layers = number_in(in, m, p.base, stdlib_names::plan_layers, out.record);
  p.batch = number_in(in, m, p.base, stdlib_names::plan_global_batch, out.record);
  p.experts = number_in(in, m, p.base, stdlib_names::plan_experts, out.record);
  p.tp_inside = number_in(in, m, p.base, stdlib_names::plan_tp_inside_domain, out.record) != 0;
  if (!(out.gpus >= 1 && whole(out.gpus) && out.gpus <= 1e6))
    usage(fmt::format("{}.cluster.gpus is {}; napkin layout needs a whole number of GPUs up to 1,000,000", out.record,
                      out.gpus));
  return p;
}

// The candidates: what the options name, else every divisor that can be a
// layout (tp inside a domain unless the plan allows otherwise, pp up to
// the layers: uneven stages are the plan's to accept or refuse; for a
// mixture of experts, every ep that divides both the experts and dp·cp).
std::vector<Candidate> candidates(Interpreter& in, Module* m, const LayoutSpec& spec, const Plan& plan,
                                  LayoutResult& out) {
  const std::vector<double> all = divisors(out.gpus);
  std::vector<double> tps = spec.tp, pps = spec.pp, cps = spec.cp, mbs = spec.micro_batch, vpps = spec.vpp,
                      zeros = spec.zero_stage, recomputes = spec.recompute;
  if (tps.empty())
    for (double d : all)
      if (!plan.tp_inside || d <= out.gpus_per_domain) tps.push_back(d);
  if (pps.empty())
    for (double d : all)
      if (d <= plan.layers) pps.push_back(d);
  if (cps.empty()) cps.push_back(number_in(in, m, plan.base, stdlib_names::plan_cp, out.record));
  if (mbs.empty()) mbs = {1, 2, 4, 8, 16};
  if (vpps.empty()) vpps = {1, 2, 3, 4, 6, 8};
  // The ZeRO stage and the recomputation are part of the decision: every
  // one is tried unless the command line names some (a plan's software
  // that cannot shard its optimizer or recompute is kept by naming it).
  if (zeros.empty()) zeros = {0, 1, 2, 3};
  if (recomputes.empty()) recomputes = {0, 1, 2};
  std::vector<double> eps = spec.ep;
  const bool every_ep = eps.empty() && plan.experts > 1;
  if (every_ep)
    for (double d : all)
      if (whole(plan.experts / d)) eps.push_back(d);
  if (eps.empty()) eps = {number_in(in, m, plan.base, stdlib_names::plan_ep, out.record)};
  out.expert_parallel = plan.experts > 1 || eps.size() > 1 || eps[0] != 1;
  std::vector<Candidate> cands;
  for (double tp : tps)
    for (double pp : pps)
      for (double cp : cps) {
        const double dp = out.gpus / (tp * pp * cp);
        if (!(dp >= 1 && whole(dp))) continue;
        for (double mb : mbs) {
          if (!(whole(plan.batch / (dp * mb)) && plan.batch / (dp * mb) >= 1)) continue;
          for (double v : vpps) {
            // Virtual stages need a pipeline; without one they are the
            // same layout again.
            if (v > 1 && pp == 1) continue;
            for (double z : zeros)
              for (double rc : recomputes)
                for (double ep : eps) {
                  // An ep tried by default that does not divide dp·cp is no
                  // layout; one the command line names is priced and
                  // reported as not valid.
                  if (every_ep && !whole(dp * cp / ep)) continue;
                  if (cands.size() == kMaxLayouts)
                    usage(fmt::format("more than {} layouts of {} GPUs to try", kMaxLayouts, out.gpus),
                          "name fewer degrees with --tp, --pp, --cp, --ep, --vpp, --zero, --recompute and "
                          "--micro-batch");
                  cands.push_back({{tp, pp, cp, dp, mb, v, z, rc, ep}});
                }
          }
        }
      }
  if (cands.empty()) {
    // Name the culprit where there is one: no tp·pp·cp divides the GPUs, or
    // every replica count does but no micro-batch splits the batch.
    std::vector<double> dps;
    for (double tp : tps)
      for (double pp : pps)
        for (double cp : cps)
          if (const double dp = out.gpus / (tp * pp * cp); dp >= 1 && whole(dp)) dps.push_back(dp);
    std::string why = "tp·pp·cp must divide the GPUs, and the data-parallel replicas times the micro-batch the batch";
    bool batch_splits = false;
    for (double dp : dps)
      for (double mb : mbs) batch_splits = batch_splits || (whole(plan.batch / (dp * mb)) && plan.batch / (dp * mb) >= 1);
    if (dps.empty()) {
      why = "no tp·pp·cp tried divides the GPUs";
    } else if (batch_splits) {
      why = "the virtual stages tried (--vpp) need a pipeline, and the layouts that split the batch have none (pp 1)";
    } else {
      std::string mb_list;
      for (double mb : mbs) mb_list += (mb_list.empty() ? "" : ", ") + fmt::format("{}", mb);
      std::sort(dps.begin(), dps.end());
      dps.erase(std::unique(dps.begin(), dps.end()), dps.end());
      std::string dp_list;
      for (double dp : dps) dp_list += (dp_list.empty() ? "" : ", ") + fmt::format("{}", dp);
      why = fmt::format("micro-batch{} {} times the data-parallel replicas ({}) {} not divide the batch",
                        mbs.size() == 1 ? "" : "es", mb_list, dp_list, mbs.size() == 1 ? "does" : "do");
    }
    usage(fmt::format("no degrees tried split {}'s {} GPUs and its batch of {} sequences: {}", out.record, out.gpus,
                      plan.batch, why),
          "give the degrees to try with --tp, --pp, --cp and --micro-batch");
  }
  return cands;
}

// Every candidate's fields read back, column by column: through the
// compiled sweep program, or the tree walker for a point the program
// marked (or every point, when the plan does not compile).
std::vector<std::vector<double>> price(Interpreter& in, Module* m, const LayoutSpec& spec, const Plan& plan,
                                       const std::vector<Candidate>& cands, LayoutResult& out) {
  std::vector<std::vector<double>> cols(plan.columns.size(), std::vector<double>(cands.size()));
  auto values_of = [&](const Candidate& c) {
    std::vector<std::pair<std::size_t, Value>> v;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) v.emplace_back(plan.inputs[k], Value::quantity(c.x[k]));
    return v;
  };
  const std::vector<bool> dependent = dependent_fields(*plan.base, plan.inputs);
  const std::vector<std::size_t> independent = independent_fields(dependent);
  const std::size_t first_new = in.records_made();
  Record* first = in.with_values(plan.base, values_of(cands[0]));
  std::vector<Value> like_cols;
  for (std::size_t j = 0; j < plan.columns.size(); ++j) like_cols.push_back(in.field(first, plan.columns[j], Span{}));
  out.time_like = like_cols[3];
  out.memory_like = like_cols[2];
  out.bubble_like = like_cols[4];
  out.mfu_like = like_cols[5];
  auto walk = [&](std::size_t p) {
    const std::size_t made = in.records_made();
    Record* r = in.with_values(plan.base, values_of(cands[p]));
    share_independent_fields(*r, *first, independent);
    bool reaches = false;
    for (std::size_t j = 0; j < plan.columns.size(); ++j) {
      Value v = in.field(r, plan.columns[j], Span{});
      if (v.kind != Value::Kind::Quantity && v.kind != Value::Kind::Bool)
        usage(fmt::format("{}.{} is {}; napkin layout needs a number", out.record, column_name(j), describe_kind(v)));
      cols[j][p] = v.samples ? v.q.v : number(v);
      reaches = reaches || !reaches_no_point(v, made);
    }
    if (!reaches && retirable(*r, made)) in.retire(*r);
  };
  std::unique_ptr<CompiledSweep> compiled;
  if (spec.compile) {
    std::vector<Value> like_in;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) like_in.push_back(Value::quantity(cands[0].x[k]));
    compiled = compile_sweep(in, m, first, plan.inputs, like_in, dependent, plan.columns);
  }
  if (!compiled) {
    for (std::size_t p = 0; p < cands.size(); ++p) walk(p);
  } else {
    out.compiled = true;
    constexpr std::size_t L = SweepProgram::kLanes;
    std::vector<double> regs, ins(plan.inputs.size() * L), outs(plan.columns.size() * L);
    std::vector<const double*> in_ptr(plan.inputs.size());
    std::vector<double*> out_ptr(plan.columns.size());
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) in_ptr[k] = ins.data() + k * L;
    for (std::size_t j = 0; j < plan.columns.size(); ++j) out_ptr[j] = outs.data() + j * L;
    std::vector<std::uint8_t> bad(L);
    for (std::size_t start = 0; start < cands.size(); start += L) {
      const std::size_t n = std::min(L, cands.size() - start);
      for (std::size_t l = 0; l < n; ++l)
        for (std::size_t k = 0; k < plan.inputs.size(); ++k) ins[k * L + l] = cands[start + l].x[k];
      compiled->program.run(n, in_ptr.data(), out_ptr.data(), bad.data(), regs);
      for (std::size_t l = 0; l < n; ++l) {
        if (bad[l]) {
          ++out.walked;
          walk(start + l);
          continue;
        }
        for (std::size_t j = 0; j < plan.columns.size(); ++j) cols[j][start + l] = outs[j * L + l];
      }
    }
  }
  if (retirable(*first, first_new)) in.retire(*first);
  return cols;
}

// The valid layouts, fastest first, those that fit ranked; each invalid one
// counted under every reason it fails.
void rank(const std::vector<Candidate>& cands, const std::vector<std::vector<double>>& cols, std::size_t validity_at,
          LayoutResult& out) {
  std::vector<LayoutRow> valid;
  for (std::size_t p = 0; p < cands.size(); ++p) {
    LayoutRow r;
    r.tp = cands[p].x[0], r.pp = cands[p].x[1], r.cp = cands[p].x[2], r.dp = cands[p].x[3];
    r.micro_batch = cands[p].x[4], r.vpp = cands[p].x[5], r.zero_stage = cands[p].x[6];
    r.recompute = cands[p].x[7], r.ep = cands[p].x[8];
    r.ok = cols[0][p] != 0;
    for (std::size_t i = 0; i < kValidity.size(); ++i) r.ok = r.ok && cols[validity_at + i][p] != 0;
    r.fits = cols[1][p] != 0;
    r.memory = cols[2][p], r.step_time = cols[3][p], r.bubble = cols[4][p], r.mfu = cols[5][p];
    for (std::size_t i = 0; i < kStepParts.size(); ++i) r.parts[i] = cols[kColumns.size() + i][p];
    r.order = p;
    if (!r.ok) {
      ++out.invalid;
      for (std::size_t i = 0; i < kValidity.size(); ++i) {
        if (cols[validity_at + i][p] != 0) continue;
        ++out.invalid_by[i];
        auto& ex = out.invalid_example[i];
        if (!ex) ex = r;
      }
      continue;
    }
    valid.push_back(r);
  }
  // Ties in step time: a layout that fits first, so one that does not is
  // never named as faster than the chosen one; then the one that needs
  // less memory (recomputation or sharding that costs no time is worth
  // its memory); then the order tried.
  auto faster = [](const LayoutRow& a, const LayoutRow& b) {
    if (a.step_time != b.step_time) return a.step_time < b.step_time;
    if (a.fits != b.fits) return a.fits;
    if (a.memory != b.memory) return a.memory < b.memory;
    return a.order < b.order;
  };
  std::sort(valid.begin(), valid.end(), faster);
  for (const LayoutRow& r : valid) {
    if (r.fits) {
      out.ranked.push_back(r);
      continue;
    }
    ++out.not_fitting;
    if (out.ranked.empty() && !out.fastest_not_fitting) out.fastest_not_fitting = r;
  }
}

// Which inputs the plan's validity (layout_ok and each test) depends on,
// by its own formulas: a layout's validity is the same for candidates that
// differ only in the others (a ZeRO stage, a recomputation mode).
std::vector<bool> validity_inputs(const Plan& plan) {
  std::vector<bool> used(plan.inputs.size(), false);
  for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
    const std::vector<bool> dependent = dependent_fields(*plan.base, {plan.inputs[k]});
    used[k] = dependent[plan.columns[0]];
    for (std::size_t i = 0; i < kValidity.size(); ++i) used[k] = used[k] || dependent[plan.columns[plan.validity_at + i]];
  }
  return used;
}

// Every candidate's columns, pricing only what can be a layout: the first
// candidate of each group that differs only in inputs validity does not
// depend on is priced, and the rest of its group only if it is valid. An
// invalid group's members take its first one's validity (the reasons are
// counted for each, as if each had been priced); their other columns are
// never read.
std::vector<std::vector<double>> price_valid(Interpreter& in, Module* m, const LayoutSpec& spec, const Plan& plan,
                                             const std::vector<Candidate>& cands, LayoutResult& out) {
  const std::vector<bool> used = spec.prune ? validity_inputs(plan) : std::vector<bool>(plan.inputs.size(), true);
  using Key = std::array<double, kInputs.size()>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::size_t h = 0;
      for (double x : k) h = h * 1'000'003 + std::hash<double>{}(x);
      return h;
    }
  };
  std::unordered_map<Key, std::size_t, KeyHash> group_of;
  group_of.reserve(cands.size() / 4);
  std::vector<std::size_t> group(cands.size());
  std::vector<Candidate> firsts;
  for (std::size_t p = 0; p < cands.size(); ++p) {
    Key key{};
    for (std::size_t k = 0; k < used.size(); ++k)
      if (used[k]) key[k] = cands[p].x[k];
    auto [it, added] = group_of.emplace(key, firsts.size());
    if (added) firsts.push_back(cands[p]);
    group[p] = it->second;
  }
  if (!spec.prune || firsts.size() == cands.size()) return price(in, m, spec, plan, cands, out);
  const auto first_cols = price(in, m, spec, plan, firsts, out);
  auto valid = [&](std::size_t g) {
    bool ok = first_cols[0][g] != 0;
    for (std::size_t i = 0; i < kValidity.size(); ++i) ok = ok && first_cols[plan.validity_at + i][g] != 0;
    return ok;
  };
  std::vector<Candidate> rest;
  std::vector<std::size_t> rest_at;
  for (std::size_t p = 0; p < cands.size(); ++p)
    if (valid(group[p])) rest.push_back(cands[p]), rest_at.push_back(p);
  std::vector<std::vector<double>> cols(plan.columns.size(), std::vector<double>(cands.size(), 0.0));
  for (std::size_t p = 0; p < cands.size(); ++p)
    if (!valid(group[p])) {
      cols[0][p] = first_cols[0][group[p]];
      for (std::size_t i = 0; i < kValidity.size(); ++i)
        cols[plan.validity_at + i][p] = first_cols[plan.validity_at + i][group[p]];
    }
  if (!rest.empty()) {
    const auto rest_cols = price(in, m, spec, plan, rest, out);
    for (std::size_t j = 0; j < cols.size(); ++j)
      for (std::size_t q = 0; q < rest.size(); ++q) cols[j][rest_at[q]] = rest_cols[j][q];
  }
  return cols;
}

}  // namespace

LayoutResult search_layouts(Interpreter& in, Module* m, const LayoutSpec& spec) {
  LayoutResult out;
  const Plan plan = read_plan(in, m, spec, out);
  const std::vector<Candidate> cands = candidates(in, m, spec, plan, out);
  out.tried = cands.size();
  const auto cols = price_valid(in, m, spec, plan, cands, out);
  rank(cands, cols, plan.validity_at, out);
  return out;
}

}  // namespace napkin
