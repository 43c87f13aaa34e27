#pragma once
// `napkin diff`: what changed between two versions of a file. Both are
// evaluated in full; the inputs that changed are fields whose formula
// changed, and every value is compared, largest relative change first.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/derivation/explain.hpp"
#include "interpreter/output/report.hpp"

namespace napkin {

// One value as one version saw it.
struct DiffSide {
  bool present = false;  // the version defines this name
  bool ok = false;       // and could compute it
  Value value;
  std::string needs;                // when !ok: the missing input
  // When !ok for another reason (a solve that found nothing); shared, as a
  // row copies its sides and a Diagnostic is large beside the rest.
  std::shared_ptr<const Diagnostic> error;
  std::string shown;    // "135.8 token/s", "needs peak_fp8", "error[E0503]: no solution in [1, 64]"
  // The formula, null for a declared input without a value; its text (as
  // written, `·` for `*`) is made only for a row that shows it.
  const ast::Expr* formula = nullptr;
  bool literal = false;  // the formula is a literal: the value is the input itself
  std::string si_unit;   // "B/s": the dimension, for comparing and for JSON
  bool own = false;      // declared in the file itself, not inherited from a library record
  bool headline = false; // one of its record's headline figures (a plan's step time): listed next
  std::string alias_of;  // the formula is a plain name (`params = model.params`): that name
};

struct DiffEntry {
  std::string name;  // "decode.tokens_per_s"
  DiffSide before, after;
  bool numeric = false;  // both quantities of one dimension, so `change` means something
  double change = 0;     // (after - before) / |before|; ±inf when before is 0
  // `before` and `after` as printed side by side: one unit when they share it.
  std::string before_text, after_text, unit;
  // Rows that moved identically through a plain alias, folded into this one.
  std::vector<std::string> same_as;
  // An input that names another record (`node.gpu  h200 → mi300x`): the
  // figures of the two records that either version read, old and new
  // (record_figures.hpp), as `node.gpu.memory_bandwidth`.
  std::vector<DiffEntry> figures;
};

struct CheckDiff {
  std::string source;        // "check decode.tokens_per_s ≈ 136 token/s within 1%"
  int before = -1, after = -1;  // -1 absent, 0 failed, 1 passed
  // A comparison's two sides in each version, in the unit the checker wrote
  // the expected value in (not present: a condition, or the version lacks it).
  DiffSide actual_before, actual_after, expected_before, expected_after;
  // It failed in both versions, and its actual or expected value moved.
  bool moved = false;
};

struct Diff {
  std::vector<DiffEntry> inputs;  // fields whose formula changed, once per declaration
  std::vector<DiffEntry> moved;   // values that changed, largest relative change first
  std::vector<DiffEntry> appeared, disappeared;
  std::vector<CheckDiff> checks;  // checks whose outcome changed, or that still fail with other values
  std::size_t hidden = 0;         // moves smaller than the threshold
  // An input names another record in each version: its figures are listed
  // from what the versions' formulas read, which only traced versions
  // (Interpreter::set_tracing) record.
  bool records_changed = false;

  bool values_moved() const { return !moved.empty() || !appeared.empty() || !disappeared.empty(); }
  // What the exit status says (1): a value moved past the threshold, or an
  // input changed and moved nothing at all, which a review must see too.
  bool anything_moved() const { return values_moved() || (!inputs.empty() && hidden == 0); }
};

struct Version {
  Interpreter* in = nullptr;
  Module* module = nullptr;
  Report report;
};

// `threshold` is a fraction: 0.001 hides moves under 0.1%.
Diff diff_versions(Version& before, Version& after, double threshold);

std::string diff_text(const Diff& d);
std::string diff_markdown(const Diff& d);
std::string diff_json(const Diff& d);

// "+100%", "-83.3% (÷6)", "+500% (×6)", "from 0".
std::string change_text(const DiffEntry& e);
// "135.8 → 271.6 token/s"
std::string values_text(const DiffEntry& e);

// `--explain NAME`: both derivations, old on the left and new on the right;
// a line that differs is marked. A side that cannot explain the name says why.
struct ExplainSide {
  std::string title;  // the file
  std::string text;   // the derivation tree, or the error
};
std::string explain_side_by_side(const ExplainSide& before, const ExplainSide& after);

// Folds every input that is the same in both trees to its value alone, so
// what is left is the path from the value down to the inputs that moved it.
void fold_unchanged(ExplainNode& before, ExplainNode& after);

}  // namespace napkin
