#pragma once
// A derivation specialised to its inputs: the formula that applies to this
// model, as a course writes it, rather than the library's general one. A
// term that is zero because a feature is off (`+ (if mlp_bias then … else 0
// param)`, `+ m.sliding_layers · min(…)` with no sliding layers), an `if`'s
// untaken branch, a factor or divisor that is a plain 1 (`· 1`, `· tp` at
// tp = 1), and a helper that only converts a unit (`token_count(t) = t / 1
// token`) are folded away: each changes nothing in this derivation's number.
// `run --steps=all` shows the general formula.
#include <unordered_set>

#include "derivation.hpp"

namespace napkin {

// Whether `e`, evaluated with `trace`, is zero (a literal `0 B`, a traced
// name or call whose value is 0, a product with a zero factor).
bool folds_to_zero(const ast::Expr& e, const Trace& trace);

// Whether `e` is a plain 1: a unitless literal 1, or a traced name whose
// value is a count shown as `1`.
bool folds_to_one(const Interpreter& in, const ast::Expr& e, const Trace& trace);

// The argument of a call of a function that only converts its argument's
// unit (its body `t / 1 token`, `t * 1 B`, `t -> GiB`); null for any other.
const ast::Expr* unit_helper_argument(const ast::Expr& e, const Trace& trace);

// What `e` shows as, specialised: the operand of a sum that is not zero,
// of a product that is not a plain 1, an `if`'s taken branch, a unit
// helper's argument; null when `e` is shown as itself.
const ast::Expr* specialised(const Interpreter& in, const ast::Expr& e, const Trace& trace);

// `o` with every node shown specialised (o's own substitution applies to
// what remains).
TermOptions specialising(const Interpreter& in, const Trace& trace, TermOptions o);

// The calls of user functions that a specialised formula still shows: those
// in a folded term or an untaken branch, and unit helpers, are not.
std::unordered_set<const ast::Expr*> shown_calls(const Interpreter& in, const ast::Expr& e, const Trace& trace);

}  // namespace napkin
