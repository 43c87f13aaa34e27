#pragma once
// Everything `napkin run` shows, evaluated once and then printed by one of
// the output formats: the fields of each record a file defines, its lets,
// and its checks.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "interpreter/derivation/derivation.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/sweep/sweep.hpp"

namespace napkin {

struct FieldReport {
  std::string qualified;  // "decode.tokens_per_s", or "x" for a let
  std::string name;
  bool ok = false;
  Value value;
  Derivation derivation;
  std::string needs;        // the missing input, when !ok
  std::string declared_at;  // where that input is declared ("std/hardware:12")
  std::string error;        // when it failed for another reason: "error[E0400]: division by zero (line 3)"
  std::optional<Diagnostic> diagnostic;  // that error as data, for JSON and TOML
  bool own = true;          // set or defined in the record's own file, not inherited from a library
  bool headline = false;    // one of the fields its record type declares worth showing (`transformer_headline`)
};

struct Section {
  std::string kind;  // model, hardware, scenario, record; "let" for a top-level value
  std::string name;
  std::string base;    // what it extends, if anything
  std::string origin;  // for `NAME = EXPR` records, the expression
  const ast::Expr* origin_expr = nullptr;  // the same, as the AST (LaTeX typesets it)
  std::string doc;     // the comment block written above it (a drill's question): CommentBlock::text
  std::vector<FieldReport> fields;
};

// What a `solve` statement found, as data: `napkin diff` compares it like a
// value (analysis/ finds it; cli/ puts it in the report).
struct SolveReport {
  std::string statement;  // "solve decode for batch max where fits", as written
  std::string qualified;  // "decode.batch": the input it finds
  bool ok = false;
  Value solution;         // when ok
  std::string error;      // when not: "error[E0503]: …"
};

struct Report {
  // The file's opening comment block: its first line, and the rest (lines
  // as written, an empty one between paragraphs). What a document's title
  // and introduction are.
  std::string title;
  std::string intro;
  std::vector<Section> sections;
  std::vector<SweepResult> sweeps;
  std::vector<CheckResult> checks;
  std::vector<SolveReport> solves;  // filled by the caller that runs them (`napkin diff`)
  std::vector<Diagnostic> errors;  // with keep_going: every error met, once each, in order
  // Set for a solution sheet (`run --steps`): how far each derivation opens;
  // every format then shows each derivation's calls too.
  std::optional<StepDepth> steps;
  int failed() const;
};

// Evaluates every field of every record defined in `m` (and, with `all`, in
// the files it imports). A field that needs a missing input is reported as
// such; any other error is thrown, or with `keep_going` marks the field
// (`error`) and is kept in `errors`, and evaluation carries on.
// Without `derivations`, each field carries its result only (no formula is
// printed): what `run` needs when nothing shows a derivation.
// With `steps`, each derivation is a solution sheet's (solution_steps).
Report build_report(Interpreter& in, Module* m, bool all, bool keep_going = false, bool derivations = true,
                    std::optional<StepDepth> steps = std::nullopt);

// What `run` shows unless asked for everything (`--all`): the fields a file
// sets or defines itself, the headline fields of its record types, the
// fields its checks use, and every field that could not be computed; not
// the dozens each model inherits from std/.
void keep_own_fields(Report& r);

// The field a check pins, as a report names it (`parameters.d_head` for
// `check parameters.d_head == 128`, or `≈ … within …`); "" when it pins none.
std::string pinned_field(const CheckResult& c);

// The fields a document shows of a section: all of them, except that a
// record made `with` from another record of the report shows what the
// `with` sets and what moved, and counts the rest in `unchanged`.
std::vector<const FieldReport*> shown_fields(const Report& r, const Section& s, std::size_t* unchanged);

// Which checks a document shows as a ✓ beside the answer they pin: those
// that passed and pin a field the document shows (each such field goes
// into `ticked`); the others it lists.
std::vector<bool> checks_beside(const Report& r, std::set<std::string>& ticked);

// Run the checks of `m` only. With `errors`, a check that cannot be
// evaluated is kept there (once per error) instead of thrown.
std::vector<CheckResult> run_checks(Interpreter& in, Module* m, std::vector<Diagnostic>* errors = nullptr);

}  // namespace napkin
