#pragma once
// The evaluator: modules and their top-level bindings, lazy late-bound
// records, functions and builtins. Evaluation records, per field, the value
// of every name its formula used, so derivations can be printed afterwards.
//
// The core's surface, one concept a header: options.hpp (how an interpreter
// is made), prober.hpp (what `measure` asks and gets), module.hpp (a loaded
// file and its bindings), function.hpp (functions and builtins),
// check_result.hpp (a check run), record.hpp and value.hpp (the values),
// prelude.hpp (the modules `napkin eval` runs in), and this class.
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/diagnostic.hpp"
#include "check_result.hpp"
#include "format.hpp"
#include "function.hpp"
#include "module.hpp"
#include "options.hpp"
#include "record.hpp"
#include "samples.hpp"
#include "units.hpp"
#include "value.hpp"

namespace napkin {

// A place in a file of the standard library, which its users read but do
// not edit: an error there is mended in the user's inputs.
inline bool from_library(Span s) { return s.file && s.file->dir.empty() && s.file->name.starts_with("std/"); }

// An error raised inside the library gets a note naming `what` at `use`, the
// first place in the user's own files that needed it, unless a note already
// names a place in that file.
inline void note_needed_by(Diagnostic& d, const std::string& what, Span use) {
  if (d.labels.empty() || !from_library(d.labels.front().span) || !use.valid() || from_library(use)) return;
  for (const std::string& n : d.notes)
    if (n.starts_with("needed by ") || n.find(use.file->name + ":") != std::string::npos) return;
  d.notes.push_back("needed by " + what + " at " + use.where());
}

struct CompiledAst;

// The fields of all records made, counted once per record that holds them
// (a record holds every field it inherits): past this, making a record is
// E0702. A report shows every one, at about 0.9 KB and 2 µs each: 249,571
// fields (a 705-deep chain adding one per level) take 0.6 s and 223 MB in
// `napkin run`. Real files hold under 1,400 (docs/reliability.md).
inline constexpr std::size_t kMaxFieldsHeld = 250'000;

// Where an expression is evaluated: the top level of `module`, or, with
// `self`, the scope of a formula of that record written in `module`, where a
// bare name is first a field of `self` (`napkin solve`'s condition).
struct Where {
  Module* module = nullptr;
  Record* self = nullptr;
  Where(Module* m, Record* r = nullptr) : module(m), self(r) {}  // implicit: a module is a place
};

// What the layers above use, by job: loading files, evaluating in them,
// types and units, making points (copies of a record at other inputs) for
// the analyses, showing values, and switching derivations off. The public
// members at the end of the class are for builtins only.
class Interpreter {
 public:
  explicit Interpreter(Options opts = {});
  ~Interpreter();
  const Options& options() const { return opts_; }

  // --- Loading (load.cpp). A module is loaded once, by its display name;
  // it and everything it imports live as long as the interpreter.
  Module* load_file(const std::string& path);
  Module* load_source(std::string name, std::string text, std::string dir);
  Module* load_std(const std::string& name);  // "transformer"; null if there is none
  static std::vector<std::string> std_modules();
  // A module that imports the whole standard library (prelude.cpp; the
  // smaller one `napkin eval` tries first is prelude_for, prelude.hpp).
  Module* prelude();
  Module* module_of(const SourceFile* file) const;
  // Parses one expression typed on the command line. The interpreter keeps
  // its text and tree, since errors and derivations point into them.
  const ast::Expr& parse_snippet(std::string name, std::string text);

  // --- Evaluating. With `trace`, what `e` used is recorded there, for its
  // derivation.
  Value eval_in(Where where, const ast::Expr& e, Trace* trace = nullptr);
  Value top_value(Binding* b, Span use);
  Value field(Record* r, std::size_t i, Span use);  // `use`: where it is asked for, for errors
  Binding* find_binding(Module* m, const std::string& name);
  std::string record_with_field(const std::string& name, Env* env);
  // The binding the name node `e` finds in module `m`: as find_binding, but
  // in a `let`'s own formula its own name is the imported name it hides.
  Binding* lookup_binding(Module* m, const ast::Expr& e);
  // Calls the function `name` that `m` sees with positional `args`, as
  // napkin code calling it would: how C++ asks the standard library for a
  // formula instead of writing it (the roofline plot, `napkin measure`).
  // The call's tree is made once per name and kept.
  Value call_function(Module* m, const std::string& name, std::vector<Value> args);
  // `scope`: the module whose names the check sees, when not its own file's
  // (`napkin grade` runs a reference's checks against a submission).
  CheckResult run_check(const ast::Stmt& check, Module* scope = nullptr);
  // The scope `napkin grade` runs the reference's checks in (grading_scope.cpp):
  // the names the reference gives its answers (records, lets) are the
  // submission's; its functions, the standard library and the builtins are
  // the reference's own, whatever the submission defines.
  Module* grading_scope(const Module& reference, Module* submission);
  // Builtins are looked up by name after every scope.
  const Function* builtin(const std::string& name) const;

  // --- Types and units: the scale and dimension of a unit as written
  // (`TB/s`), and whether `v` may be field `i` of `r` by its declared type
  // (the error if not). A compiled sweep settles these once, not per point.
  UnitDef resolve_unit(const ast::UnitExpr& u);  // unit_resolution.cpp
  void check_type(Record* r, std::size_t i, const Value& v);
  // A value of the wrong kind, as builtins and the analyses report it: `v`
  // must be a quantity (`what` names it in the error), or is not `expected`.
  const Quantity& expect_quantity(const Value& v, const ast::Expr* node, const char* what);
  [[noreturn]] void type_error(const Value& v, const ast::Expr* node, const char* expected);

  // --- Points: a sweep's points, a search's probes, a ranking's variations.
  // A copy of `base` whose fields `values` are given values instead of
  // their formulas; each value is checked against the field's declared type.
  Record* with_values(Record* base, const std::vector<std::pair<std::size_t, Value>>& values);
  // Checks the domains `r`'s fields state (require.cpp), as asking a field of
  // a new record does; a point made by with_values is not checked unless
  // this is called. A broken domain is thrown, and every later field of `r`
  // is that error.
  void validate(Record* r);
  // Throws E0311 where `s`, a field of `base`, is one a library record works
  // out (not an input) and `at`, where the user replaces it, is theirs.
  void refuse_derived(const Record* base, const Slot& s, Span at, const char* label);
  // The expression `e` names a record (napkin layout's plan, solve's
  // record): an unknown name in it is offered records' spellings only.
  void expect_record(const ast::Expr* e) { record_operand_ = e; }
  // How many records have been made so far: a record whose serial is at
  // least this was made after the call (retirable() and reaches_no_point()
  // in record.hpp tell from it whether a point may be retired).
  std::size_t records_made() const { return records_.size(); }
  // A point that nothing reaches any more: its memo is freed and its fields
  // no longer count against kMaxFieldsHeld.
  void retire(Record& point);

  // --- Showing values and dimensions as messages and reports do.
  std::string show(const Value& v) const;
  std::string show(const Value& v, int digits) const;  // with this many significant digits
  std::string dim_name(const Dim& d) const;  // "B/s", or "dimensionless"
  UnitTable& units() { return units_; }
  const UnitTable& units() const { return units_; }

  // --- Derivations: recorded unless switched off (sweeps and searches
  // print none, and recording costs time at every name).
  void set_tracing(bool on) { tracing_ = on; }
  // Derivation recording off while it lives, then back to what it was,
  // however the scope ends (a sweep's points, a search's probes).
  class TracingOff {
   public:
    explicit TracingOff(Interpreter& in) : in_(in), was_(in.tracing_) { in.tracing_ = false; }
    ~TracingOff() { in_.tracing_ = was_; }
    TracingOff(const TracingOff&) = delete;
    TracingOff& operator=(const TracingOff&) = delete;

   private:
    Interpreter& in_;
    bool was_;
  };

 private:
  Options opts_;
  UnitTable units_;
  std::deque<Record> records_;
  std::deque<Env> envs_;
  std::deque<Binding> bindings_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::deque<SourceFile> snippets_;
  std::vector<ast::ExprPtr> snippet_trees_;
  std::unordered_map<std::string, Module*> loaded_;  // by display name
  std::vector<std::string> loading_;                 // import chain, for cycles
  std::unordered_map<std::string, Function> builtins_;
  std::unordered_map<std::string, UnitDef> unit_cache_;
  std::unordered_map<std::string, const ast::Expr*> call_sites_;  // call_function's trees, by name

  // What is being computed: a field of `rec`, or a top-level binding. Its
  // label ("decode.batch") is only spelled out when a cycle is reported.
  struct Frame {
    const Record* rec = nullptr;
    std::size_t slot = 0;
    const Binding* binding = nullptr;
    Span span;
  };
  static std::string frame_label(const Frame& f);

  // Per name or member node, what its lookup found last time: its slot in a
  // record's field table, its binding in a module. Tables do not change once
  // built, so a name resolves by a pointer comparison instead of a hash of
  // its text; a sweep evaluates the same formulas over records that share
  // one table. The entries are direct-mapped by the node's identity
  // (ast::Expr::id & cache_mask_, checked against the node's address); a
  // node that finds its entry taken evicts it, which only costs a lookup,
  // and the table doubles when half its entries are used.
  struct NodeCache {
    const ast::Expr* node = nullptr;
    const SlotTable* table = nullptr;
    std::size_t slot = 0;  // kNoSlot: not a field of `table`
    const Module* module = nullptr;
    Binding* binding = nullptr;
  };
  static constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);
  std::vector<NodeCache> node_cache_ = std::vector<NodeCache>(1024);
  std::size_t cache_mask_ = 1023;  // node_cache_.size() - 1, a power of two
  std::size_t cache_used_ = 0;     // entries filled since the table last grew
  NodeCache& cache_of(const ast::Expr& e);
  [[gnu::noinline]] NodeCache& new_cache(const ast::Expr& e);
  std::size_t slot_of(const ast::Expr& e, const Record* r);  // the field named e.text, or kNoSlot
  Binding* binding_of(const ast::Expr& e, Module* m);
  std::vector<Frame> stack_;
  // A field or binding on the stack for as long as it is being computed.
  struct FrameScope {
    Interpreter& in;
    FrameScope(Interpreter& i, Frame f) : in(i) { i.stack_.push_back(f); }
    ~FrameScope() { in.stack_.pop_back(); }
    FrameScope(const FrameScope&) = delete;
    FrameScope& operator=(const FrameScope&) = delete;
  };
  // Called in a catch block: the field remembers the error it ended in, so
  // asking for it again rethrows it; then the error goes on.
  [[noreturn]] static void remember_failure(FieldState& st) {
    st.status = FieldState::Status::Failed;
    st.error = std::current_exception();
    throw;
  }
  // Where evaluation records what it sees (null: nowhere). TraceScope
  // points it elsewhere for one evaluation and puts it back on every exit.
  Trace* trace_ = nullptr;
  struct TraceScope {
    Interpreter& in;
    Trace* saved;
    TraceScope(Interpreter& i, Trace* t) : in(i), saved(i.trace_) { i.trace_ = t; }
    ~TraceScope() { in.trace_ = saved; }
    TraceScope(const TraceScope&) = delete;
    TraceScope& operator=(const TraceScope&) = delete;
  };
  bool tracing_ = true;
  std::size_t call_depth_ = 0;
  std::size_t eval_depth_ = 0;

  // `compiled`: the file's tree as the build stored it (the built-in
  // standard library), read back instead of parsing the text.
  Module* load_parsed(std::unique_ptr<SourceFile> file, const CompiledAst* compiled = nullptr);
  std::unique_ptr<SourceFile> read_import(Module* from, const ast::Stmt& imp);
  Module* load_import(Module* from, const ast::Stmt& imp);
  void register_bindings(Module* m);
  void declare_units(Module* m);
  void check_units(const ast::Expr& e);
  void check_units(const std::vector<ast::FieldDecl>& fields);

  Env* new_env(Env* parent, Record* self, Module* module);
  void release_env(Env* e);  // after its evaluation: reused unless captured
  std::vector<Env*> free_envs_;
  Record* new_record();
  Record* make_record(const ast::Stmt& s, Module* m);
  // `where`: the place a record past kMaxFieldsHeld is reported at.
  Record* derive(Record* base, const std::vector<ast::FieldDecl>& fields, Env* env, Span where = {});
  std::size_t fields_held_ = 0;  // slots of every record made, less retired sweep points
  void check_new_fields(Record* base, const std::vector<ast::FieldDecl>& fields);

  Value eval(const ast::Expr& e, Env* env);
  // `callee`: the name is called (`floor(x)`), and finds only functions.
  Value eval_name(const ast::Expr& e, Env* env, bool callee = false);
  struct Hidden {
    Record* rec = nullptr;
    std::size_t slot = 0;
    bool visible = false;  // the formula sees the field (it was passed over as a callee)
  };
  [[noreturn]] void hidden_field(const ast::Expr& e, const Hidden& h);
  [[noreturn]] void shadowed_parameter(const ast::Expr& e, const Record* r, const Env& fn_scope, bool innermost);
  Value eval_number(const ast::Expr& e);
  Value eval_convert(const ast::Expr& e, Env* env);  // `x -> unit`
  // The name whose value must be a record (`x` of `x.f` or `x with {}`, a
  // plan named on the command line): an unknown one is not offered a
  // builtin function's spelling.
  const ast::Expr* record_operand_ = nullptr;
  Value eval_record_operand(const ast::Expr& e, Env* env) {
    record_operand_ = &e;
    return eval(e, env);
  }
  Value eval_with(const ast::Expr& e, Env* env);     // `r with { ... }`
  Value eval_member(const ast::Expr& e, Env* env);
  Value eval_call(const ast::Expr& e, Env* env);
  Value eval_binary(const ast::Expr& e, Env* env);
  Value binary_values(const ast::Expr& e, Value l, Value r);  // the operator on its operands' values
  Value scalar_binary(const ast::Expr& e, const Value& l, const Value& r);
  Value eval_measure(const ast::Expr& e, Env* env);
  Value eval_range(const ast::Expr& e, Env* env);  // `a to b` (ranges.cpp)
  // `prob(COND)`: the share of samples for which a comparison (or `and`,
  // `or`, `not` of comparisons) of ranges holds.
  Value eval_probability(const ast::Expr& call, Env* env);
  void holds(const ast::Expr& e, Env* env, std::vector<char>& mask);
  void compare_samples(const ast::Expr& e, const Value& l, const Value& r, std::vector<char>& mask);
  // A condition's answer at the point values, and per sample when it
  // compares a range (range_conditions.cpp).
  struct Condition {
    bool point = false;
    std::vector<char> mask;  // empty: no range compared, `point` is the answer
  };
  Condition condition(const ast::Expr& e, Env* env);
  Value eval_if(const ast::Expr& e, Env* env);
  Value mixed_branches(const ast::Expr& e, Env* env, const Condition& c, std::size_t yes);
  // Each range's samples, by the node that draws them: evaluating the node
  // again (the same field in a record made by `with`) gives the same set.
  struct RangeDraw {
    Distribution dist = Distribution::Normal;
    double a = 0, b = 0;
    std::shared_ptr<const Samples> samples;
  };
  std::unordered_map<const ast::Expr*, RangeDraw> range_draws_;
  Value call_user(const Function& f, const CallArgs& args, const std::vector<std::string>& names, CallTrace* ct);
  // The user functions being called, innermost last: where require()
  // finds the argument a parameter's value came from (require.cpp).
  struct ActiveCall {
    const Env* env;  // the function's scope
    const Function* f;
    const CallArgs* args;
    const std::vector<std::string>* names;
  };
  std::vector<ActiveCall> calls_;
  // `require(x, condition, "domain")` (require.cpp).
  Value eval_require(const ast::Expr& call, Env* env);
  struct Origin {
    Span span;         // where the value was written
    std::string what;  // "`plan.tp`", "the argument `n` of f(n)"; empty: the name itself
    bool field = false;
    Record* rec = nullptr;                 // the record whose field it is
    const ast::Expr* formula = nullptr;    // the field's formula that gave the value
  };
  Origin origin_of(const ast::Expr& node, Env* env);
  // The record's domain fields (a formula that is a require() call or a
  // list of them), evaluated when its first field is asked for.
  void check_domains(Record* r);
  const DisplayUnit* written_unit(const ast::Expr& e);  // checks.cpp
  void record_trace(const ast::Expr& node, const Value& v, Record* rec, std::size_t idx, Binding* b) {
    if (trace_) trace_->entries.push_back({&node, v, rec, idx, b, nullptr});  // inline: off in sweeps, called per name
  }
  [[noreturn]] void unknown_name(const ast::Expr& e, Env* env);
  Value super_of(const ast::Expr& e, Env* env);
  std::string std_module_defining(const std::string& name);
  std::unordered_map<std::string, std::string> std_index_;  // top-level name -> std module
  bool std_index_built_ = false;
  [[noreturn]] void cycle_error(const std::string& label, Span span);
  [[noreturn]] void exponent_error(const ast::Expr& e, const Value& l, const Value& r);
  // Two operands that must share a dimension and do not: `message` and
  // `help` with both operands labelled, each with its dimension and value.
  [[noreturn]] void dimension_mismatch(Code code, std::string message, std::string help, const ast::Expr& le,
                                       const Value& l, const ast::Expr& re, const Value& r);

 public:
  // For builtins only: the core's (builtins.cpp, ranges.cpp) and those the
  // embedding program adds (Options::builtins).
  void register_builtin(Function f);
  Value finite(double v, Dim d, Span span);
  // Ranges (ranges.cpp). How many samples a range holds.
  std::size_t samples() const;
  // Samples of `d` drawn for the range written at `site`, attached to its
  // point value `nominal`.
  Value draw_range(const ast::Expr& site, Distribution d, double a, double b, Value nominal);
  // The samples `v` of an operation's result, attached to its point value:
  // an error at `span` if a sample is not finite, a plain number if every
  // sample is the same.
  Value range_result(SampleVector v, Value nominal, Span span);
  [[noreturn]] void range_compare_error(const ast::Expr& at, const ast::Expr& operand, const Value& v, std::string_view op);
};

}  // namespace napkin
