#include "ast_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

#include "depth_check.hpp"
#include "grammar/platform/from_chars.hpp"
#include "diagnostic.hpp"
#include "parser.hpp"
#include "whole_number.hpp"

namespace napkin {
namespace {

using ast::BinOp;
using ast::ExprKind;

BinOp op_of(std::string_view t) {
  if (t == "+") return BinOp::Add;
  if (t == "-") return BinOp::Sub;
  if (t == "/") return BinOp::Div;
  if (t == "==") return BinOp::Eq;
  if (t == "!=") return BinOp::Ne;
  if (t == "<") return BinOp::Lt;
  if (t == "<=") return BinOp::Le;
  if (t == ">") return BinOp::Gt;
  if (t == ">=") return BinOp::Ge;
  return BinOp::Mul;  // '*', '·', '×'
}

}  // namespace

AstBuilder::AstBuilder(const SourceFile& file) : file_(file), base_(file.text.data()) {}

// On an error the stacks may hold a statement's trees, which can be deeper
// than recursive destructors may go.
AstBuilder::~AstBuilder() {
  for (auto& e : exprs_) dismantle(std::move(e.expr));
  for (auto& a : args_) dismantle(std::move(a.value.expr));
  for (auto& f : fields_) dismantle(std::move(f.value));
  for (auto& b : blocks_)
    for (auto& f : b.fields) dismantle(std::move(f.value));
  for (auto& p : params_) dismantle(std::move(p.default_value));
  for (auto& v : sweep_vars_) dismantle(std::move(v.values));
}

Span AstBuilder::span(Text b, Text e) const {
  return Span{&file_, static_cast<std::uint32_t>(b - base_), static_cast<std::uint32_t>(e - base_)};
}

void AstBuilder::piece(Text b, Text e) {
  pieces_.push_back({static_cast<std::uint32_t>(b - base_), static_cast<std::uint32_t>(e - base_)});
}

AstBuilder::Piece AstBuilder::pop_piece() {
  const Piece p = pieces_.back();
  pieces_.pop_back();
  return p;
}

AstBuilder::Entry AstBuilder::pop() {
  Entry e = std::move(exprs_.back());
  exprs_.pop_back();
  return e;
}

std::uint32_t AstBuilder::pop_mark() {
  const std::uint32_t m = marks_.back();
  marks_.pop_back();
  return m;
}

void AstBuilder::push(ast::ExprPtr e, std::uint32_t bound, std::uint32_t chain) {
  if (bound > kMaxNesting) maybe_deep_ = true;
  Entry entry;
  entry.begin = e->span.begin;
  entry.end = e->span.end;
  entry.bound = bound;
  entry.chain = chain;
  entry.expr = std::move(e);
  exprs_.push_back(std::move(entry));
}

// ---- operands -------------------------------------------------------------

void AstBuilder::name_ref(Text b, Text e) {
  auto x = std::make_unique<ast::Expr>(ExprKind::Name, span(b, e));
  x->text.assign(b, e);
  push(std::move(x), 0);
}

void AstBuilder::boolean(Text b, Text e, bool value) {
  auto x = std::make_unique<ast::Expr>(ExprKind::Bool, span(b, e));
  x->boolean = value;
  push(std::move(x), 0);
}

double AstBuilder::number(Piece p) const {
  const std::string_view written = text(p);
  // The digits without their `_` separators, on the stack unless very long.
  char digits[64];
  std::string long_digits;
  const char* first = digits;
  std::size_t n = 0;
  if (written.size() < sizeof digits) {
    for (char c : written)
      if (c != '_') digits[n++] = c;
  } else {
    for (char c : written)
      if (c != '_') long_digits += c;
    first = long_digits.data();
    n = long_digits.size();
  }
  double v = 0;
  const auto [stop, ec] = from_chars_double(first, first + n, v);
  if (ec != std::errc() || !std::isfinite(v))
    fail(codes::bad_number, span(p), fmt::format("the number {} is out of range", written),
         "write it with a unit prefix instead, e.g. `1.5 EB` rather than a 400-digit number");
  check_whole_number(std::string_view(first, n), v, span(p));
  return v;
}

void AstBuilder::number_literal(Text b, Text e) {
  const Piece value = pop_piece();
  auto x = std::make_unique<ast::Expr>(ExprKind::Number, span(b, e));
  x->number = number(value);
  x->text = text(value);
  const Text value_end = base_ + value.end;
  if (e == value_end + 1 && *value_end == '%')
    x->percent = true;
  else if (e != value_end)
    x->unit = pop_unit();
  push(std::move(x), 0);
}

void AstBuilder::dollar_literal(Text b, Text e) {
  const Piece value = pop_piece();
  auto x = std::make_unique<ast::Expr>(ExprKind::Number, span(b, e));
  x->number = number(value);
  x->text = "$";
  x->text += text(value);  // remembered so the formula prints as written
  ast::UnitExpr u;
  const Span dollar = span(b, b + 1);
  u.terms.reserve(1 + terms_.size());
  u.terms.push_back({"$", 1, dollar});
  for (auto& t : terms_) u.terms.push_back(std::move(t));
  terms_.clear();
  u.text = "$";
  u.text.append(base_ + value.end, e);
  u.span = Span{&file_, dollar.begin, static_cast<std::uint32_t>(e - base_)};
  x->unit = std::move(u);
  push(std::move(x), 0);
}

std::string AstBuilder::unescape(std::string_view body, std::uint32_t body_begin) const {
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
      continue;
    }
    const char c = body[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      default: {
        const Span at{&file_, static_cast<std::uint32_t>(body_begin + i - 1), static_cast<std::uint32_t>(body_begin + i + 1)};
        fail(codes::bad_escape, at, fmt::format("unknown escape '\\{}' in a string", c),
             "the escapes are \\n, \\t, \\\" and \\\\");
      }
    }
  }
  return out;
}

void AstBuilder::string_literal(Text b, Text e) {
  auto x = std::make_unique<ast::Expr>(ExprKind::String, span(b, e));
  const std::string_view body(b + 1, static_cast<std::size_t>(e - b - 2));  // between the quotes
  x->text = unescape(body, static_cast<std::uint32_t>(b + 1 - base_));
  push(std::move(x), 0);
}

void AstBuilder::open_list() { marks_.push_back(static_cast<std::uint32_t>(exprs_.size())); }

void AstBuilder::list(Text b, Text e) {
  const std::uint32_t mark = pop_mark();
  const std::size_t n = exprs_.size() - mark;
  if (n > kMaxListItems) {
    const Entry& item = exprs_[mark + kMaxListItems];
    fail(codes::size_limit, Span{&file_, item.begin, item.end},
         fmt::format("a list of {} items; a list holds at most {}", n, kMaxListItems));
  }
  auto x = std::make_unique<ast::Expr>(ExprKind::List, span(b, e));
  x->items.reserve(n);
  std::uint32_t bound = 0;
  for (std::size_t i = mark; i < exprs_.size(); ++i) {
    bound = std::max(bound, deeper(exprs_[i].bound));
    x->items.push_back(std::move(exprs_[i].expr));
  }
  exprs_.resize(mark);
  push(std::move(x), bound);
  exprs_.back().begin = static_cast<std::uint32_t>(b - base_);
  exprs_.back().end = static_cast<std::uint32_t>(e - base_);
}

void AstBuilder::paren(Text b, Text e) {
  Entry& top = exprs_.back();
  parens_.emplace_back(top.expr->id, span(b, e));
  top.parenthesised = true;
  top.begin = static_cast<std::uint32_t>(b - base_);
  top.end = static_cast<std::uint32_t>(e - base_);
}

// ---- units ------------------------------------------------------------------

ast::UnitTerm AstBuilder::factor(Piece p) const {
  const std::string_view f = text(p);
  const std::size_t caret = f.find('^');
  ast::UnitTerm t;
  t.symbol = f.substr(0, caret);
  t.span = span(p);
  if (caret != std::string_view::npos) {
    const std::string_view power = f.substr(caret + 1);
    const bool negative = power[0] == '-';
    int v = 0;
    auto [ptr, ec] = std::from_chars(power.data() + (negative ? 1 : 0), power.data() + power.size(), v);
    if (ec != std::errc() || v > 64)
      fail(codes::bad_power, Span{&file_, static_cast<std::uint32_t>(p.begin + caret), p.end},
           "a unit's power must be a small integer");
    t.power = negative ? -v : v;
  }
  // A factor written after '/' divides: `TB/s` is TB s^-1.
  if (p.begin > 0 && file_.text[p.begin - 1] == '/') t.power = -t.power;
  return t;
}

void AstBuilder::unit_factor(Text b, Text e) {
  terms_.push_back(factor({static_cast<std::uint32_t>(b - base_), static_cast<std::uint32_t>(e - base_)}));
}

void AstBuilder::unit_expr(Text b, Text e) {
  ast::UnitExpr u;
  u.terms = std::move(terms_);
  terms_.clear();
  u.text.assign(b, e);
  u.span = span(b, e);
  units_.push_back(std::move(u));
}

ast::UnitExpr AstBuilder::pop_unit() {
  ast::UnitExpr u = std::move(units_.back());
  units_.pop_back();
  return u;
}

// ---- operators ----------------------------------------------------------------

void AstBuilder::grow_chain(ast::ExprPtr node, Entry& lhs, std::uint32_t rhs_bound, bool same_chain) {
  const std::uint32_t chain = same_chain ? lhs.chain + 1 : 1;
  const std::uint32_t begin = lhs.begin;
  const std::uint32_t bound = deeper(std::max(lhs.bound, rhs_bound));
  push(std::move(node), bound, chain);
  exprs_.back().begin = begin;
}

void AstBuilder::binary(BinOp op) {
  Entry rhs = pop();
  Entry lhs = pop();
  const int group = chain_group(op);
  const bool same_chain = group != 0 && !lhs.parenthesised && lhs.chain > 0 &&
                          lhs.expr->kind == ExprKind::Binary && chain_group(lhs.expr->op) == group;
  if (same_chain && lhs.chain > kMaxNesting) {
    // Its first operand is already too deep: the statement will fail the
    // depth check, and the rest of the chain need not be built.
    lhs.expr->span.end = rhs.expr->span.end;
    lhs.end = rhs.end;
    dismantle(std::move(rhs.expr));
    exprs_.push_back(std::move(lhs));
    return;
  }
  auto x = std::make_unique<ast::Expr>(ExprKind::Binary, Span{&file_, lhs.begin, rhs.end});
  x->op = op;
  x->items.reserve(2);
  x->items.push_back(std::move(lhs.expr));
  x->items.push_back(std::move(rhs.expr));
  const std::uint32_t end = rhs.end;
  if (group == 0) {
    push(std::move(x), deeper(std::max(lhs.bound, rhs.bound)));
    exprs_.back().begin = lhs.begin;
  } else {
    grow_chain(std::move(x), lhs, rhs.bound, same_chain);
  }
  exprs_.back().end = end;
}

void AstBuilder::binary_from_piece() { binary(op_of(text(pop_piece()))); }

void AstBuilder::negate(Text b, Text e) {
  Entry operand = pop();
  auto x = std::make_unique<ast::Expr>(ExprKind::Negate, span(b, e));
  x->items.push_back(std::move(operand.expr));
  push(std::move(x), deeper(operand.bound));
}

void AstBuilder::logical_not(Text b, Text e) {
  Entry operand = pop();
  auto x = std::make_unique<ast::Expr>(ExprKind::Not, span(b, e));
  x->items.push_back(std::move(operand.expr));
  push(std::move(x), deeper(operand.bound));
}

void AstBuilder::if_expr(Text b, Text e) {
  auto x = std::make_unique<ast::Expr>(ExprKind::If, span(b, e));
  x->items.resize(3);
  std::uint32_t bound = 0;
  for (int i = 2; i >= 0; --i) {
    Entry part = pop();
    bound = std::max(bound, deeper(part.bound));
    x->items[static_cast<std::size_t>(i)] = std::move(part.expr);
  }
  push(std::move(x), bound);
}

void AstBuilder::convert(Text e, bool percent) {
  ast::UnitExpr u;
  if (percent) {
    u.span = span(e - 1, e);
    u.text = "%";
    u.terms.push_back({"%", 1, u.span});
  } else {
    u = pop_unit();
  }
  Entry operand = pop();
  auto x = std::make_unique<ast::Expr>(ExprKind::Convert, Span{&file_, operand.begin, static_cast<std::uint32_t>(e - base_)});
  x->items.push_back(std::move(operand.expr));
  x->unit = std::move(u);
  push(std::move(x), deeper(operand.bound));
  exprs_.back().begin = operand.begin;
}

// ---- postfix ----------------------------------------------------------------

void AstBuilder::open_call() { marks_.push_back(static_cast<std::uint32_t>(args_.size())); }

void AstBuilder::named_arg() {
  Entry value = pop();
  const Piece name = pop_piece();
  args_.push_back({std::string(text(name)), std::move(value)});
}

void AstBuilder::positional_arg() { args_.push_back({std::string(), pop()}); }

bool AstBuilder::continues_postfix(const Entry& operand) {
  return !operand.parenthesised && operand.chain > 0 && is_postfix(*operand.expr);
}

// A postfix chain already too long for the depth limit: the statement will
// fail the depth check, so `operand` only grows to `end` and goes back on
// the stack; the caller drops the operator's parts.
bool AstBuilder::chain_full(Entry& operand, bool same_chain, std::uint32_t end) {
  if (!same_chain || operand.chain <= kMaxNesting) return false;
  operand.expr->span.end = end;
  operand.end = end;
  exprs_.push_back(std::move(operand));
  return true;
}

void AstBuilder::push_postfix(ast::ExprPtr x, Entry& operand, std::uint32_t bound, bool same_chain) {
  const std::uint32_t end = x->span.end;
  grow_chain(std::move(x), operand, bound, same_chain);
  exprs_.back().end = end;
}

void AstBuilder::call(Text e) {
  const std::uint32_t mark = pop_mark();
  Entry callee = pop();
  const bool same_chain = continues_postfix(callee);
  const Span s{&file_, callee.begin, static_cast<std::uint32_t>(e - base_)};
  if (chain_full(callee, same_chain, s.end)) {
    for (std::size_t i = mark; i < args_.size(); ++i) dismantle(std::move(args_[i].value.expr));
    args_.resize(mark);
    return;
  }
  auto x = std::make_unique<ast::Expr>(ExprKind::Call, s);
  const std::size_t n = args_.size() - mark;
  x->items.reserve(1 + n);
  x->arg_names.reserve(n);
  x->items.push_back(std::move(callee.expr));
  std::uint32_t bound = 0;
  for (std::size_t i = mark; i < args_.size(); ++i) {
    bound = std::max(bound, args_[i].value.bound);
    x->arg_names.push_back(std::move(args_[i].name));
    x->items.push_back(std::move(args_[i].value.expr));
  }
  args_.resize(mark);
  push_postfix(std::move(x), callee, bound, same_chain);
}

void AstBuilder::member(Text b, Text e) {
  Entry owner = pop();
  const bool same_chain = continues_postfix(owner);
  const Span s{&file_, owner.begin, static_cast<std::uint32_t>(e - base_)};
  if (chain_full(owner, same_chain, s.end)) return;
  auto x = std::make_unique<ast::Expr>(ExprKind::Member, s);
  x->text.assign(b, e);
  x->items.push_back(std::move(owner.expr));
  push_postfix(std::move(x), owner, 0, same_chain);
}

void AstBuilder::with(Text e) {
  Block block = std::move(blocks_.back());
  blocks_.pop_back();
  Entry record = pop();
  const bool same_chain = continues_postfix(record);
  const Span s{&file_, record.begin, static_cast<std::uint32_t>(e - base_)};
  if (chain_full(record, same_chain, s.end)) {
    for (auto& f : block.fields) dismantle(std::move(f.value));
    return;
  }
  auto x = std::make_unique<ast::Expr>(ExprKind::With, s);
  x->items.push_back(std::move(record.expr));
  x->fields = std::move(block.fields);
  push_postfix(std::move(x), record, block.bound, same_chain);
}

void AstBuilder::open_measure() {
  marks_.push_back(static_cast<std::uint32_t>(exprs_.size()));
  marks_.push_back(static_cast<std::uint32_t>(args_.size()));
}

void AstBuilder::measure(Text b, Text e) {
  const std::uint32_t arg_mark = pop_mark();
  const std::uint32_t expr_mark = pop_mark();
  auto x = std::make_unique<ast::Expr>(ExprKind::Measure, span(b, e));
  std::uint32_t bound = 0;
  if (exprs_.size() > expr_mark) {
    Entry fallback = pop();
    bound = deeper(fallback.bound);
    x->fallback = std::move(fallback.expr);
  }
  x->text = text(pop_piece());
  for (std::size_t i = arg_mark; i < args_.size(); ++i) {
    bound = std::max(bound, deeper(args_[i].value.bound));
    x->arg_names.push_back(std::move(args_[i].name));
    x->items.push_back(std::move(args_[i].value.expr));
  }
  args_.resize(arg_mark);
  push(std::move(x), bound);
}

}  // namespace napkin
