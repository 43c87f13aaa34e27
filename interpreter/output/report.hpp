#pragma once
// Everything `napkin run` shows, evaluated once and then printed by one of
// the output formats: the fields of each record a file defines, its lets,
// its sweeps, its checks, what its `solve` statements found, and every error
// met, all as data. Every format renders this structure; none reads another
// format's text.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "interpreter/derivation/derivation.hpp"
#include "interpreter/derivation/explain.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/sweep/sweep.hpp"
#include "interpreter/core/solve_goal.hpp"
#include "section_kind.hpp"

namespace napkin {

// One value a formula read: a field (`decode.batch`) or a let.
struct DerivationInput {
  std::string name;
  Value value;
};

struct FieldReport {
  std::string qualified;  // "decode.tokens_per_s", or "x" for a let
  std::string name;
  bool ok = false;
  Value value;
  Derivation derivation;
  std::string needs;        // the missing input, when !ok
  std::string declared_at;  // where that input is declared ("std/hardware:12")
  std::optional<Diagnostic> error;  // when it failed for another reason
  // The values its formula read (each once, in the order read): a
  // derivation's inputs, as data. Empty without derivations.
  std::vector<DerivationInput> inputs;
  bool own = true;          // set or defined in the record's own file, not inherited from a library
  bool headline = false;    // one of the fields its record type declares worth showing (`transformer_headline`)
  Span at;                  // the name that gives its value (or declares it); may be in another file
  bool input = false;       // its value is written as a literal: an input, not a result
};

struct Section {
  SectionKind kind = SectionKind::record;
  std::string keyword;  // a record's, as declared: model, hardware, scenario, record
  std::string name;
  std::string base;    // what it extends, if anything
  std::string origin;  // for `NAME = EXPR` records, the expression
  const ast::Expr* origin_expr = nullptr;  // the same, as the AST (LaTeX typesets it)
  std::string doc;     // the comment block written above it (a drill's question): CommentBlock::text
  std::vector<FieldReport> fields;
  Span at;  // the whole statement that makes it
};

// What a `solve` statement found, as data: every format shows it, and
// `napkin diff` compares it like a value (analysis/ finds it; cli/ puts it
// in the report before it is rendered).
struct SolveReport {
  std::string statement;  // "solve decode for batch max where fits", as written
  Span at;                // that statement's place
  std::string qualified;  // "decode.batch": the input it finds
  std::string record;     // "decode"
  std::string input;      // "batch"
  SolveGoal goal = SolveGoal::Equal;
  std::string condition;  // as written: "fits", "tokens_per_s == 2000 token/s"
  std::string compared;   // equal: the condition's left side as written ("tokens_per_s")
  bool ok = false;
  std::optional<Diagnostic> error;  // when not ok: why nothing was found
  // When ok:
  Value solution;
  bool whole_numbers = false;  // searched over whole numbers
  Value lo, hi;                // the bracket searched
  bool at_bracket_end = false;
  int evaluations = 0;
  std::string set_at;  // where the input is declared: "file:line"
  // The condition at one value of the input: whether it holds (max, min),
  // or its two sides (equal).
  struct Seen {
    Value input, value, target;
  };
  Seen at_solution;
  std::optional<Seen> beyond;  // whole numbers: one past the solution, where it does not hold
  std::vector<ExplainNode> derivation;  // every field the condition read at the solution
};

// A check that could not be evaluated: its error, in `Report::errors` too.
struct ErroredCheck {
  const ast::Stmt* stmt = nullptr;
  Diagnostic error;
};

// How much of each value's derivation a report keeps.
enum class Derivations {
  Results,  // the result only: nothing will print a formula
  Lines,    // the formula and the formula with its numbers (`run --brief`)
  Trees,    // and the derivation as data: the inputs it read, the calls it opened
};

struct Report {
  // The file's opening comment block: its first line, and the rest (lines
  // as written, an empty one between paragraphs). What a document's title
  // and introduction are.
  std::string title;
  std::string intro;
  std::vector<Section> sections;
  std::vector<SweepResult> sweeps;
  std::vector<CheckResult> checks;          // passed or failed, in the file's order
  std::vector<ErroredCheck> errored_checks;  // with keep_going: those that could not be evaluated
  std::vector<SolveReport> solves;  // filled by the caller that runs them (run/solve_statements.hpp)
  std::vector<Diagnostic> errors;  // with keep_going: every error met, once each, in order
  // Set for a solution sheet (`run --steps`): how far each derivation opens;
  // every format then shows each derivation's calls too.
  std::optional<StepDepth> steps;
  Derivations derivations = Derivations::Trees;
  int failed() const;
};

// Evaluates every field of every record defined in `m` (and, with `all`, in
// the files it imports). A field that needs a missing input is reported as
// such; any other error is thrown, or with `keep_going` marks the field
// (`error`) and is kept in `errors`, and evaluation carries on.
// `derivations` says how much of each field's derivation is made: its result
// only is what `run` needs when nothing shows a formula.
// With `steps`, each derivation is a solution sheet's (solution_steps).
Report build_report(Interpreter& in, Module* m, bool all, bool keep_going = false,
                    Derivations derivations = Derivations::Trees,
                    std::optional<StepDepth> steps = std::nullopt);

// What `run` shows unless asked for everything (`--all`): the fields a file
// sets or defines itself, the headline fields of its record types, the
// fields its checks use, and every field that could not be computed; not
// the dozens each model inherits from std/.
void keep_own_fields(Report& r);

// The fields a record's types declare worth showing (`training_plan_headline`).
std::vector<std::string> headline_fields(Interpreter& in, Module* m, const Record* r);

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
