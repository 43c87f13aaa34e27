#pragma once
// A formula as data: the tree every output format walks to print a
// derivation. It is built once from the AST (and, for the line with values
// substituted, from the trace of the evaluation) with the parentheses the
// printer would write, and each renderer walks it: plain text for the
// terminal, Markdown and JSON, typed tokens for LaTeX (names upright, units
// after a thin space, `·` as \cdot), so that no renderer reads text back.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct Term {
  enum class Kind : std::uint8_t {
    Empty,
    Number,    // a number as written or a value as shown: `text` 131,072 (or 40%), `unit` token (or empty),
               // and items[0], when there is one, what a value's display adds after its unit (an Interval)
    Name,      // `batch`, `model.kv_heads`, a function's name, `true`, a record's name
    String,    // `text` is the string's contents, unquoted
    Text,      // prose that is no formula: a measurement's note
    Binary,    // items[0] op items[1]
    Group,     // ( items[0] )
    Negate,    // - items[0]
    Not,       // not items[0]
    Call,      // items[0] ( items[1..] ), names[i - 1] "" or the argument's name
    Member,    // items[0] . text, where items[0] is not a plain name
    List,      // [ items ]
    If,        // if items[0] then items[1] else items[2]
    Convert,   // items[0] -> unit
    With,      // items[0] with { names[i - 1]: types[i - 1] = items[i] }; items[i] Empty for a field with no value
    Measure,   // measure(text, names[i] = items[i]) else `fallback` (items.back() when `fallback`)
    Noted,     // items[0] [ items[1] ]: a value and how it was measured
    Interval,  // (text: items[0]–items[1]): a range's interval after its median, `(90%: 3,022–3,400)`
  };
  Kind kind = Kind::Empty;
  ast::BinOp op = ast::BinOp::Add;
  bool pretty = false;  // a product written `·` (derivations) rather than `*`
  bool fallback = false;
  std::string text;
  std::string unit;
  std::vector<Term> items;
  std::vector<std::string> names;
  std::vector<std::string> types;

  bool empty() const { return kind == Kind::Empty; }
};

// The term's plain text: what `print_expr` writes for the same formula.
std::string text(const Term& t);

// A term that the copies of a derivation share, one pointer wide: a report
// holds a derivation for each of its fields, and most are never printed.
class SharedTerm {
 public:
  SharedTerm() = default;
  SharedTerm(Term t) : p_(std::make_shared<const Term>(std::move(t))) {}  // NOLINT: a term is one
  const Term& operator*() const;
  const Term* operator->() const { return &**this; }
  bool empty() const { return !p_ || p_->empty(); }

 private:
  std::shared_ptr<const Term> p_;
};
inline std::string text(const SharedTerm& t) { return text(*t); }

// A value as a term: `16 GiB` is the number 16 with the unit GiB.
// `digits`: significant digits (0: the interpreter's).
Term value_term(const Interpreter& in, const Value& v, int digits = 0);

struct TermOptions {
  bool pretty = true;  // `·` for `*`
  // Replace a node by a term: a name by its value, an `if` by its branch.
  std::function<std::optional<Term>(const ast::Expr&)> substitute;
};

// The expression as a term, with the fewest parentheses that keep its
// meaning (as the printer writes it).
Term term_of(const ast::Expr& e, const TermOptions& o = {});

// One token of a term, as the LaTeX renderer reads it: what it is, its
// plain text, and whether a space comes before it.
struct TermToken {
  enum class Kind : std::uint8_t { Number, Unit, Name, Keyword, String, Text, Open, Close, Caret, Op, Other };
  Kind kind;
  std::string text;   // plain text: `131,072`, `TB/s`, `·`, `(`
  bool space = false;  // a space before it in the plain text
  bool binary = false; // an operator between two operands (where a long line may break)
};
std::vector<TermToken> tokens(const Term& t);

}  // namespace napkin
