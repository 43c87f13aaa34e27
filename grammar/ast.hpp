#pragma once
// The abstract syntax tree. Every node carries the span it was parsed from;
// the tree is plain data, printed back by `printer.hpp` and evaluated by the
// interpreter.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source.hpp"

namespace napkin::ast {

// One symbol of a unit expression with its signed exponent: `TB/s` is
// {TB, 1}, {s, -1}.
struct UnitTerm {
  std::string symbol;
  int power = 1;
  Span span;
};

struct UnitExpr {
  std::vector<UnitTerm> terms;
  std::string text;  // as written, e.g. "TB/s"
  Span span;
};

// An optional part kept out of line: a unit is written on few nodes, and
// holding it in every node made each node three times the size of the
// rest. Reads like std::optional; copies copy the value.
template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(T v) {
    p_ = std::make_unique<T>(std::move(v));
    return *this;
  }

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  void reset() { p_.reset(); }

 private:
  std::unique_ptr<T> p_;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct FieldDecl;

enum class ExprKind {
  Number,   // number, unit?, text
  String,   // text
  Bool,     // boolean
  List,     // items
  Name,     // text
  Member,   // items[0] . text
  Call,     // items[0] ( items[1..] ), arg_names parallel to items[1..]
  Negate,   // - items[0]
  Not,      // not items[0]
  Binary,   // items[0] op items[1]
  If,       // if items[0] then items[1] else items[2]
  Convert,  // items[0] -> unit
  With,     // items[0] with { fields }
  Measure,  // measure(text, arg_names[i] = items[i]...) else fallback
};

enum class BinOp { Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or, To };  // To: `a to b`, a range

const char* op_text(BinOp op);
int precedence(BinOp op);  // higher binds tighter

struct Expr {
  ExprKind kind;
  BinOp op = BinOp::Add;
  Span span;
  double number = 0;
  std::string text;  // name, member name, string value, or a number as written
  Boxed<UnitExpr> unit;
  std::vector<ExprPtr> items;
  std::vector<std::string> arg_names;  // "" for positional arguments
  std::vector<FieldDecl> fields;       // With
  std::unique_ptr<Expr> fallback;      // Measure: the value used when the probe cannot run
  // The node's identity: a serial number, given when the parser makes the
  // node and never changed, distinct for every node made in this process (it
  // wraps after 2^32 nodes, so an identity to key a cache on, checked
  // against the node's address, not a proof of distinctness). The AST holds
  // no evaluator state; an evaluator keeps its own tables keyed by this.
  const std::uint32_t id;
  bool boolean = false;
  bool percent = false;

  Expr(ExprKind k, Span s);  // defined below FieldDecl: clang needs `fields` complete there

  // Nodes come from a pool (ast_pool.cpp).
  static void* operator new(std::size_t size);
  static void operator delete(void* p, std::size_t size) noexcept;
};

enum class TypeKind { None, Count, Bool, String, Record, List, Fn, Any, Unit };

struct TypeExpr {
  TypeKind kind = TypeKind::None;
  UnitExpr unit;  // for TypeKind::Unit
  std::string text;
  Span span;
};

struct FieldDecl {
  std::string name;
  Span name_span;
  TypeExpr type;  // TypeKind::None when the field has no declared type
  ExprPtr value;  // null for a required input
  Span span;      // the whole declaration
};

// The next node identity (Expr::id), counted for the whole process.
inline std::uint32_t next_node_id() {
  static std::atomic<std::uint32_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

inline Expr::Expr(ExprKind k, Span s) : kind(k), span(s), id(next_node_id()) {}

// Every child expression of `e`, in source order: its items, the values a
// `with` gives its fields, and a measure's fallback. A pass over the tree
// walks children through this, so a child added to Expr is seen by every
// pass (the unit check once missed a fallback: `else 3 XB/s` loaded).
template <class F>
void for_each_child(const Expr& e, F&& f) {
  for (const auto& c : e.items) f(*c);
  for (const auto& d : e.fields)
    if (d.value) f(*d.value);
  if (e.fallback) f(*e.fallback);
}

// True when the expression refers to no name: `48`, `5.3 TB/s`, `[1, 8]`.
// Such a field is an input by the language's rule, whatever its type. A
// measurement is not one: its formula says which probe gave it.
inline bool is_literal(const Expr& e) {
  if (e.kind == ExprKind::Name || e.kind == ExprKind::Member || e.kind == ExprKind::Call ||
      e.kind == ExprKind::With || e.kind == ExprKind::Measure)
    return false;
  bool literal = true;
  for_each_child(e, [&](const Expr& c) { literal = literal && is_literal(c); });
  return literal;
}

struct Param {
  std::string name;
  Span span;
  ExprPtr default_value;
};

// Solve: `solve RECORD for INPUT [in [LO, HI]] [max|min] where CONDITION`,
// held in the fields below: `name` and `base` the record, `sweep_vars[0]`
// the input (with its bracket as `values`, or none), `record_kind` the goal
// ("where", "max" or "min"), `value` the condition.
//
// Unit: `unit NAME [prefixes FAMILY, ...] [= VALUE]`, its prefix families
// (`si`, `iec`, `none`) as `columns`. Dimension: `dimension "NAME" = UNIT`,
// the name in `name` (name_span its string) and the unit as the type of
// `fields[0]`. Suggest: `suggest NAME for WORD, ...`, the words as `columns`.
enum class StmtKind { Import, Let, Fn, Unit, Record, Check, Sweep, Solve, Dimension, Suggest };

struct SweepVar {
  std::string name;
  Span span;
  ExprPtr values;  // a list literal
};

struct Column {
  std::string name;
  Span span;
};

struct Stmt {
  StmtKind kind;
  Span span;
  std::string name;  // let/fn/unit/record name, import path
  Span name_span;
  std::string record_kind;  // model, hardware, scenario, record; "let" or "" for lets
  ExprPtr value;            // let value, fn body, unit definition, record alias, check expr
  ExprPtr base;             // record `extends` base
  std::vector<FieldDecl> fields;
  std::vector<Param> params;
  // check A ≈ B within T
  ExprPtr expected;
  ExprPtr tolerance;
  bool approx = false;
  // check "NAME" (POINTS points): a grader's name and points ("" and 1 when not written)
  std::string check_name;
  Span check_name_span;
  std::string points_text;  // as written, "2" or "0.5"; "" when not written
  double points = 1;         // from 0 to kMaxCheckPoints
  // sweep TARGET(value) over vars show columns
  std::vector<SweepVar> sweep_vars;
  std::vector<Column> columns;

  Stmt(StmtKind k, Span s) : kind(k), span(s) {}

  // Statements other than records, sweeps and checks keep their parts in
  // the fields above (so the compiled standard library's format holds
  // them); these name each part, and passes read them by these names.
  // `unit NAME prefixes si, iec`: the prefix families.
  const std::vector<Column>& unit_prefixes() const { return columns; }
  // `suggest NAME for w1, w2`: the other spellings.
  const std::vector<Column>& suggested_spellings() const { return columns; }
  // `solve RECORD for INPUT [in LO to HI] (max|min|) where COND`: the
  // word before `where` ("max", "min", or "where" alone: equal), and the
  // input with its bracket.
  const std::string& solve_goal_word() const { return record_kind; }
  const SweepVar& solve_input() const { return sweep_vars.at(0); }
};

// The most a check may be worth (more is E0101 at the number): a grader's
// sum over every check of every file stays an exact, finite number.
inline constexpr double kMaxCheckPoints = 1'000'000;

struct Module {
  std::vector<Stmt> statements;
};

}  // namespace napkin::ast
