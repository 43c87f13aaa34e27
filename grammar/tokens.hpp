#pragma once
// An expression as a stream of typed tokens: the one way from a syntax tree
// to anything that shows it. Source text (`print_expr`, `napkin fmt`), a
// derivation's lines, diagnostics and LaTeX math all render this stream;
// which operator binds how tightly, and where parentheses go, is decided
// here and nowhere else.
//
// Each token says what it is (a name, a number, its unit, an operator, a
// keyword, a bracket, ...), whether a space comes before it, how many
// brackets are open around it, and, for a binary operator, that a long line
// may break before it: the space turns into a newline, which the grammar
// reads the same. A layout breaks the loosest operators of a group first.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ast.hpp"

namespace napkin {

// How tightly each form binds, loosest first: the one precedence table.
// `ast::precedence` gives a binary operator's place in it.
namespace binding {
inline constexpr int kLoose = 0;  // `if`, `x -> unit`, `measure(...) else x`
inline constexpr int kOr = 2;
inline constexpr int kAnd = 3;
inline constexpr int kNot = 4;      // `not` binds just tighter than `and`
inline constexpr int kCompare = 5;  // `==` `!=` `<` `<=` `>` `>=`: they do not chain
inline constexpr int kRange = 6;    // `a to b`: it does not chain either
inline constexpr int kSum = 7;
inline constexpr int kProduct = 8;
inline constexpr int kNegate = 9;    // just tighter than a product
inline constexpr int kPower = 10;    // right-associative
inline constexpr int kPostfix = 11;  // a call, a member, `with`
inline constexpr int kAtom = 12;     // a name, a number, a literal, anything in brackets
}  // namespace binding

// How tightly the expression binds, as it prints.
int binding_of(const ast::Expr& e);

struct Token {
  enum class Kind : std::uint8_t {
    Name,      // `batch`, `model.kv_heads` (a member of a name is one name), `true`, a probe, `measure`
    Number,    // `131_072`, `40%`, `2.5e9`, or a value as shown: `131,072`
    Unit,      // `TB/s` after its number, or the unit of a conversion
    Operator,  // `+` `-` `*` `·` `/` `==` `->` `≈`, a negation's `-`, a range's `–`
    Caret,     // the `^` of a power: what follows is its exponent
    Keyword,   // `if` `then` `else` `not` `and` `or` `to` `with` `within`
    String,    // a string's contents, unquoted
    Text,      // prose that is no formula: a measurement's note
    Open,      // `(` `[` `{`
    Close,     // `)` `]` `}`
    Punct,     // `,` `.` `=` `:` `$`
  };
  Kind kind = Kind::Name;
  std::string text;
  bool space = false;  // a space before it
  int depth = 0;       // brackets open around it (a bracket counts those outside it)
  // A binary operator the line may break before, with its binding: where a
  // group is too long, its loosest operators break first. -1: no break.
  int breaks = -1;
};
using Tokens = std::vector<Token>;

// Tokens that stand for a node, and how tightly they bind there: a value
// binds like a number, the branch an `if` took like that branch.
struct Replacement {
  Tokens tokens;
  int binding = binding::kAtom;
};

struct TokenOptions {
  bool pretty = false;  // `·` for `*`, and `(a / b) · c` (a derivation is read, not parsed)
  // A node shown as other tokens: in a derivation, a name as its value, an
  // `if` as the branch it took. They stand as one operand, in parentheses
  // where they bind looser than the operator around them or read
  // ambiguously beside it (`compound`).
  std::function<std::optional<Replacement>(const ast::Expr&)> substitute;
};

// The expression's tokens, with the fewest parentheses that keep its
// meaning; `binding`, when given, receives how tightly the whole binds.
Tokens expression_tokens(const ast::Expr& e, const TokenOptions& o = {}, int* binding = nullptr);

// The expression where an operand must bind at least `min_binding` (the
// expected side of `check a ≈ b`, the base of a `with` block): in
// parentheses when it binds looser.
Tokens operand_tokens(const ast::Expr& e, int min_binding, const TokenOptions& o = {});

// `{ a = 1, b: count = 2 }`: a block's fields on one line.
Tokens fields_tokens(const std::vector<ast::FieldDecl>& fields, const TokenOptions& o = {});

// A number with its unit, as written or as a value shows it: `$5/hour`
// is `$`, `5`, `/hour`; `-3 ms` is `-`, `3`, `ms`.
void append_number(Tokens& out, const std::string& number, const std::string& unit, bool space);

// `x -> unit`, with the parentheses `x` needs (an `if`, another conversion).
Tokens conversion_tokens(Tokens operand, int operand_binding, const std::string& unit);

// `( tokens )`.
Tokens grouped(Tokens inner);

// Whether tokens standing as one operand read ambiguously as a divisor, a
// subtrahend or a power's base, and so take parentheses there: a unit with
// `/`, `*` or `^` (`5.3 TB/s`), a negative (`-3`), a sum or product
// (`a · b`), a range shown with its interval (`3,200 (90%: 3,022–3,400)`).
bool compound(const Tokens& t);

// Counts the brackets around each token afresh, after tokens were joined.
void set_depths(Tokens& t);

// Plain text: tokens joined with their spaces, strings quoted; the first
// token's space is dropped.
std::string token_text(const Token* begin, const Token* end);
inline std::string token_text(const Tokens& t) { return token_text(t.data(), t.data() + t.size()); }

}  // namespace napkin
