#pragma once
// A formula as data: the token stream (grammar/tokens.hpp) every output
// format renders to print a derivation. The formula's own line is the
// grammar's stream of its tree; the line with values substituted is the
// same stream with each name replaced by its value's tokens, from the trace
// of the evaluation; the result is a value's tokens. Plain text (the
// terminal, Markdown, JSON) joins the tokens; LaTeX typesets them one by
// one (names upright, units after a thin space, `·` as \cdot) and breaks
// long lines at their operators, so that no renderer reads text back.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/tokens.hpp"
#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct Term {
  Tokens tokens;
  int binding = binding::kAtom;  // how tightly the whole binds, for a conversion after it
  bool value = false;            // a number as shown, with at most its unit: `16 GiB`, `40%`

  bool empty() const { return tokens.empty(); }
};

// The term's plain text: what `print_expr` writes for the same formula.
inline std::string text(const Term& t) { return token_text(t.tokens); }

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

// A quantity as napkin shows it, in its parts: `16`, `GiB`, and what the
// display adds after its unit (a range's `(90%: 12–20)`), or "".
struct Shown {
  std::string number;
  std::string unit;
  std::string rest;
};
Shown shown_value(const Interpreter& in, const Value& v, int digits = 0);
Term shown_term(const Shown& s);

// A value as a term: `16 GiB` is the number 16 with the unit GiB.
// `digits`: significant digits (0: the interpreter's).
Term value_term(const Interpreter& in, const Value& v, int digits = 0);

// Prose that is no formula: `needs model.layers`.
Term prose_term(std::string text);

// `value [note]`: a value and how it was measured.
Term noted(Term value, std::string note);

// `( t )`.
Term grouped(Term t);

struct TermOptions {
  bool pretty = true;  // `·` for `*`
  // Replace a node by a term: a name by its value, an `if` by its branch.
  std::function<std::optional<Term>(const ast::Expr&)> substitute;
};

// The expression as a term, with the fewest parentheses that keep its
// meaning (the grammar's token stream).
Term term_of(const ast::Expr& e, const TermOptions& o = {});

// `t -> unit`, with the parentheses an `if` or another conversion needs.
Term converted(Term t, const std::string& unit);

// The term's plain text in lines of at most `width` columns where it can
// be: broken before the operators the token stream marks, the loosest of
// the outermost first (`+` before `·`), inside parentheses only where a
// piece is still too long. A piece with no break in it stays whole. Each
// line after the first begins with its operator.
std::vector<std::string> wrapped_text(const Term& t, std::size_t width);

}  // namespace napkin
