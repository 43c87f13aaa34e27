// What `napkin layout` prints: the ranked layouts as text, Markdown or
// JSON, and why each loses to the first.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "layout_output.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

// What each part of the step is called in the explanation.
constexpr std::array<const char*, kStepParts.size()> kPartNames = {
    "compute", "tensor parallel", "context parallel", "expert parallel", "pipeline hand-offs", "bubble",
    "data parallel (exposed)", "optimizer step"};

std::string shown(const Interpreter& in, const Value& like, double x) {
  Value v = like;
  v.samples = nullptr;
  if (v.kind == Value::Kind::Bool)
    v.b = x != 0;
  else
    v.q.v = x;
  return in.show(v);
}

std::string count(double x) { return fmt::format("{}", static_cast<long long>(x)); }

// What each recomputation level is called (std/activations' modes).
const char* recompute_name(double level) { return level == 0 ? "none" : level == 2 ? "full" : "selective"; }

// A layout by its degrees; ep only where the search has it (a mixture of
// experts, or ep named).
std::string degrees(const LayoutResult& res, const LayoutRow& r) {
  return fmt::format("tp {} · pp {} · vpp {} · cp {}{} · dp {} · micro_batch {} · zero {} · recompute {}", count(r.tp),
                     count(r.pp), count(r.vpp), count(r.cp), res.expert_parallel ? " · ep " + count(r.ep) : "",
                     count(r.dp), count(r.micro_batch), count(r.zero_stage), recompute_name(r.recompute));
}

bool same_layout(const LayoutRow& a, const LayoutRow& b) {
  return a.tp == b.tp && a.pp == b.pp && a.cp == b.cp && a.dp == b.dp && a.micro_batch == b.micro_batch &&
         a.vpp == b.vpp && a.zero_stage == b.zero_stage && a.recompute == b.recompute && a.ep == b.ep;
}

// What an empty ranking means: every candidate broke a rule of the plan's
// (the reasons are listed above it), or the valid ones all overflowed memory.
std::string none_text(const LayoutResult& r) {
  return r.invalid == r.tried ? "no layout is valid" : "no layout fits";
}

std::string best_text(const Interpreter& in, const LayoutResult& r) {
  if (r.ranked.empty()) return none_text(r);
  return fmt::format("{} ({})", degrees(r, r.ranked[0]), shown(in, r.time_like, r.ranked[0].step_time));
}

std::string signed_time(const Interpreter& in, const Value& like, double d) {
  return (d < 0 ? "−" : "+") + shown(in, like, std::abs(d));
}

// The parts in which `r` differs from `best`, the one that costs it most
// first: "bubble +0.4 s, data parallel (exposed) −92 ms". A part that moves
// less than 0.01% of the best step is left out: no plan is known that well.
std::vector<std::pair<std::size_t, double>> part_deltas(const LayoutRow& r, const LayoutRow& best) {
  std::vector<std::pair<std::size_t, double>> out;
  const double tiny = 1e-4 * std::abs(best.step_time);
  for (std::size_t i = 0; i < kStepParts.size(); ++i) {
    const double d = r.parts[i] - best.parts[i];
    if (std::abs(d) > tiny) out.emplace_back(i, d);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string why_text(const Interpreter& in, const LayoutResult& res, const LayoutRow& r, const LayoutRow& best) {
  const double d = r.step_time - best.step_time;
  // A share under 0.05% would print as +0.0%: it keeps two digits instead.
  const double share = 100 * d / best.step_time;
  std::string s = std::abs(share) >= 0.05 || share == 0
                      ? fmt::format("{} ({:+.1f}%)", signed_time(in, res.time_like, d), share)
                      : fmt::format("{} ({:+.2g}%)", signed_time(in, res.time_like, d), share);
  const auto parts = part_deltas(r, best);
  for (std::size_t i = 0; i < parts.size(); ++i)
    s += fmt::format("{}{} {}", i == 0 ? ": " : ", ", kPartNames[parts[i].first],
                     signed_time(in, res.time_like, parts[i].second));
  return s;
}

std::size_t shown_rows(const LayoutResult& r, std::size_t top) { return std::min(top, r.ranked.size()); }

// A GPU's memory in its own unit too: an H100's 85.9 GB is its 80 GiB.
std::string capacity_text(const Interpreter& in, const LayoutResult& r) {
  const double gib = r.capacity / 1073741824.0;
  const std::string shown = in.show(r.capacity_value);
  if (gib >= 1 && gib == std::floor(gib) && shown.find("GiB") == std::string::npos)
    return fmt::format("{} ({:g} GiB)", shown, gib);
  return shown;
}

std::string header_line(const Interpreter& in, const LayoutResult& r) {
  return fmt::format("layout {}: {} GPUs, domains of {}; {} layout{} tried, {} not valid, {} {} not fit in {}",
                     r.record, count(r.gpus), count(r.gpus_per_domain), r.tried, r.tried == 1 ? "" : "s", r.invalid,
                     r.not_fitting, r.not_fitting == 1 ? "does" : "do", capacity_text(in, r));
}

std::string not_chosen_line(const Interpreter& in, const LayoutResult& r) {
  if (!r.fastest_not_fitting) return {};
  const LayoutRow& f = *r.fastest_not_fitting;
  return fmt::format("not chosen: {} would take {}, faster than any layout that fits, but needs {} per GPU, over {}",
                     degrees(r, f), shown(in, r.time_like, f.step_time), shown(in, r.memory_like, f.memory),
                     capacity_text(in, r));
}

// Why candidates were not layouts: one line per reason that dropped any,
// with how many and the first of them ("  12 tp does not divide the heads
// or KV heads (e.g. tp 6 · pp 2 · ...)").
std::vector<std::string> dropped_lines(const LayoutResult& r) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kValidity.size(); ++i)
    if (r.invalid_by[i] > 0)
      out.push_back(fmt::format("{} {} (e.g. {})", r.invalid_by[i], kValidityNames[i], degrees(r, *r.invalid_example[i])));
  return out;
}

// A table's cells: ep after cp only where the search has it.
std::vector<std::string> row_cells(const Interpreter& in, const LayoutResult& res, const LayoutRow& r,
                                   std::size_t rank) {
  std::vector<std::string> cells = {count(rank),
                                    count(r.tp),
                                    count(r.pp),
                                    count(r.vpp),
                                    count(r.cp),
                                    count(r.dp),
                                    count(r.micro_batch),
                                    count(r.zero_stage),
                                    recompute_name(r.recompute),
                                    shown(in, res.time_like, r.step_time),
                                    shown(in, res.memory_like, r.memory),
                                    shown(in, res.bubble_like, r.bubble),
                                    shown(in, res.mfu_like, r.mfu)};
  if (res.expert_parallel) cells.insert(cells.begin() + 5, count(r.ep));
  return cells;
}

std::vector<std::string> heads(const LayoutResult& res) {
  std::vector<std::string> h = {"#",  "tp",          "pp",   "vpp",       "cp",        "dp",          "micro_batch",
                                "zero", "recompute", "step_time", "memory_per_gpu", "bubble", "implied_mfu"};
  if (res.expert_parallel) h.insert(h.begin() + 5, "ep");
  return h;
}

}  // namespace

std::string layout_text(const Interpreter& in, const LayoutResult& r, std::size_t top) {
  std::string s = header_line(in, r) + "\n";
  for (const auto& line : dropped_lines(r)) s += "  not valid: " + line + "\n";
  const std::size_t n = shown_rows(r, top);
  if (n == 0) {
    s += none_text(r) + "\n";
    if (auto line = not_chosen_line(in, r); !line.empty()) s += line + "\n";
    return s;
  }
  std::vector<std::vector<std::string>> rows = {heads(r)};
  for (std::size_t i = 0; i < n; ++i) rows.push_back(row_cells(in, r, r.ranked[i], i + 1));
  std::vector<std::size_t> w(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t j = 0; j < row.size(); ++j) w[j] = std::max(w[j], code_points(row[j]));
  s += "\n";
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t j = 0; j < row.size(); ++j) line += " " + std::string(w[j] - code_points(row[j]), ' ') + row[j];
    s += line + "\n";
  }
  if (auto line = not_chosen_line(in, r); !line.empty()) s += "\n" + line + "\n";
  if (n > 1) {
    const LayoutRow& best = r.ranked[0];
    s += fmt::format("\nwhy each loses to #1 ({}, {}):\n", degrees(r, best), shown(in, r.time_like, best.step_time));
    for (std::size_t i = 1; i < n; ++i)
      s += fmt::format("  #{} {}: {}\n", i + 1, degrees(r, r.ranked[i]), why_text(in, r, r.ranked[i], best));
  }
  return s;
}

std::string layout_markdown(const Interpreter& in, const LayoutResult& r, std::size_t top) {
  std::string s = fmt::format("## {}\n\n", header_line(in, r));
  for (const auto& line : dropped_lines(r)) s += "- not valid: " + line + "\n";
  if (r.invalid > 0) s += "\n";
  const std::size_t n = shown_rows(r, top);
  if (n == 0) s += "No layout fits.\n";
  if (n > 0) {
    s += "|";
    for (const auto& h : heads(r)) s += " " + h + " |";
    s += "\n|";
    for (std::size_t j = 0; j < heads(r).size(); ++j) s += "---:|";
    s += "\n";
    for (std::size_t i = 0; i < n; ++i) {
      s += "|";
      for (const auto& c : row_cells(in, r, r.ranked[i], i + 1)) s += " " + c + " |";
      s += "\n";
    }
  }
  if (auto line = not_chosen_line(in, r); !line.empty()) s += "\n" + line + "\n";
  if (n > 1) {
    s += fmt::format("\nWhy each loses to #1 ({}, {}):\n\n", degrees(r, r.ranked[0]),
                     shown(in, r.time_like, r.ranked[0].step_time));
    for (std::size_t i = 1; i < n; ++i)
      s += fmt::format("- #{} {}: {}\n", i + 1, degrees(r, r.ranked[i]), why_text(in, r, r.ranked[i], r.ranked[0]));
  }
  return s;
}

namespace {

// A degree, a GPU count or a stage: whole, so a JSON integer (4, not 4.0).
std::int64_t whole_number(double x) { return static_cast<std::int64_t>(std::llround(x)); }

}  // namespace

std::string layout_json(const Interpreter& in, const LayoutResult& r, std::size_t top, const LayoutResult* against) {
  using nlohmann::ordered_json;
  auto row = [&](const LayoutRow& x) {
    ordered_json j;
    j["tp"] = whole_number(x.tp), j["pp"] = whole_number(x.pp), j["vpp"] = whole_number(x.vpp), j["cp"] = whole_number(x.cp);
    if (r.expert_parallel) j["ep"] = whole_number(x.ep);
    j["dp"] = whole_number(x.dp), j["micro_batch"] = whole_number(x.micro_batch);
    j["zero_stage"] = whole_number(x.zero_stage);
    j["recompute"] = recompute_name(x.recompute);
    j["step_time"] = {{"si", x.step_time}, {"display", shown(in, r.time_like, x.step_time)}};
    j["memory_per_gpu"] = {{"si", x.memory}, {"display", shown(in, r.memory_like, x.memory)}};
    j["fits"] = x.fits;
    j["bubble"] = x.bubble;
    j["implied_mfu"] = x.mfu;
    ordered_json parts;
    for (std::size_t i = 0; i < kStepParts.size(); ++i) parts[kStepParts[i]] = x.parts[i];
    j["parts"] = parts;
    return j;
  };
  ordered_json j;
  j["record"] = r.record;
  j["gpus"] = whole_number(r.gpus);
  j["gpus_per_domain"] = whole_number(r.gpus_per_domain);
  j["memory_capacity"] = {{"si", r.capacity}, {"display", in.show(r.capacity_value)}};
  j["tried"] = r.tried;
  j["not_valid"] = r.invalid;
  ordered_json why_not = ordered_json::object();
  for (std::size_t i = 0; i < kValidity.size(); ++i) why_not[kValidity[i]] = r.invalid_by[i];
  j["not_valid_by"] = std::move(why_not);
  j["not_fitting"] = r.not_fitting;
  j["compiled"] = r.compiled;
  ordered_json ranked = ordered_json::array();
  for (std::size_t i = 0; i < shown_rows(r, top); ++i) {
    ordered_json x = row(r.ranked[i]);
    if (i > 0) {
      x["loses_by"] = r.ranked[i].step_time - r.ranked[0].step_time;
      x["why"] = why_text(in, r, r.ranked[i], r.ranked[0]);
    }
    ranked.push_back(std::move(x));
  }
  j["ranked"] = std::move(ranked);
  j["fastest_not_fitting"] = r.fastest_not_fitting ? row(*r.fastest_not_fitting) : ordered_json(nullptr);
  if (against) {
    ordered_json x;
    x["record"] = against->record;
    x["best"] = against->ranked.empty() ? ordered_json(nullptr) : row(against->ranked[0]);
    x["changed"] = r.ranked.empty() || against->ranked.empty() || !same_layout(r.ranked[0], against->ranked[0]);
    j["against"] = std::move(x);
  }
  return j.dump(2) + "\n";
}

std::string layout_change_text(const Interpreter& in, const LayoutResult& r, const LayoutResult& other) {
  if (!r.ranked.empty() && !other.ranked.empty() && same_layout(r.ranked[0], other.ranked[0]))
    return fmt::format("against {}: the best layout stays {} ({} → {})", other.record, degrees(r, r.ranked[0]),
                       shown(in, r.time_like, r.ranked[0].step_time),
                       shown(in, other.time_like, other.ranked[0].step_time));
  return fmt::format("against {}: the best layout changes: {} → {}", other.record, best_text(in, r),
                     best_text(in, other));
}

}  // namespace napkin
