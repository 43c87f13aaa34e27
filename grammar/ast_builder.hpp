#pragma once
// Builds the AST while the grammar matches, with no parse tree in between.
// Each rule with an action (parser.cpp) calls one method here when the rule
// has matched, in the order rules finish: an operand is complete before the
// operator that takes it, so the builder keeps stacks of finished pieces
// (expressions, names, call arguments, fields) and each method pops what its
// rule holds and pushes what it makes. A list, a call or a block marks where
// its items start when its opening bracket matches.
//
// The grammar never backs out of a rule after its action ran (rules.hpp), so
// nothing pushed here is ever taken back; a statement's action leaves every
// stack as it found it.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ast.hpp"

namespace napkin {

class AstBuilder {
 public:
  using Text = const char*;  // a position in the file's text

  explicit AstBuilder(const SourceFile& file);
  ~AstBuilder();
  AstBuilder(const AstBuilder&) = delete;
  AstBuilder& operator=(const AstBuilder&) = delete;

  // Where rules::sp last started and ended (the whitespace rule reads these).
  const char* sp_from = nullptr;
  const char* sp_to = nullptr;

  // A name or a word, kept as its place in the text until a rule takes it.
  void piece(Text b, Text e);

  // Operands.
  void name_ref(Text b, Text e);
  void boolean(Text b, Text e, bool value);
  void number_literal(Text b, Text e);  // takes the number_value piece
  void dollar_literal(Text b, Text e);  // takes the number_value piece and the unit factors
  void string_literal(Text b, Text e);
  void check_name();    // the string just read is the next check's name
  void check_points();  // the number just read is the next check's points
  void open_list();
  void list(Text b, Text e);
  void paren(Text b, Text e);

  // Units: each factor as it matches, then the expression they make.
  void unit_factor(Text b, Text e);
  void unit_expr(Text b, Text e);

  // Operators. A binary operator's right operand is on top, its left below.
  void binary(ast::BinOp op);
  void binary_from_piece();  // the operator is the last piece (`+`, `<=`, `·` ...)
  void negate(Text b, Text e);
  void logical_not(Text b, Text e);
  void if_expr(Text b, Text e);
  void convert(Text e, bool percent);

  // Postfix operators on the expression on top.
  void open_call();
  void named_arg();  // takes the arg_name piece and the value
  void positional_arg();
  void call(Text e);
  void member(Text b, Text e);
  void with(Text e);  // takes the last block
  void open_measure();
  void measure(Text b, Text e);  // takes the probe piece, its named arguments and any fallback

  // Blocks: `{ name = expr, name: type = expr ... }`.
  void open_block();
  void field_name(Text b, Text e);
  void field_type(Text b, Text e);  // takes the unit expression
  void field_value();
  void field(Text b, Text e);
  void block();

  // Statements, each built whole from what its parts left.
  void import_stmt(Text b, Text e);
  void let_stmt(Text b, Text e, bool with_let);
  void param_name(Text b, Text e);
  void param_default();
  void param(Text b, Text e);
  void fn_stmt(Text b, Text e);
  void unit_stmt(Text b, Text e);
  void extends_base(Text b, Text e);
  void record_stmt(Text b, Text e);
  void check_stmt(Text b, Text e);
  void sweep_var();
  void sweep_stmt(Text b, Text e);
  void solve_stmt(Text b, Text e);
  void word(Text b, Text e);  // a unit's prefix family, a word `suggest` names
  void dimension_stmt(Text b, Text e);
  void suggest_stmt(Text b, Text e);
  void name_and_words(ast::Stmt& st);  // shared by unit_stmt and suggest_stmt

  ast::Module take_module();
  ast::ExprPtr take_expression();  // `napkin eval`: the one expression, checked for depth

 private:
  // An expression on the stack, with what the depth check needs.
  // A node's bound from its deepest operand's: two levels more, which never
  // falls below what the depth check counts for it (see Entry::bound).
  static std::uint32_t deeper(std::uint32_t bound) { return bound + 2; }

  struct Entry {
    ast::ExprPtr expr;
    // Where its text begins and ends, its parentheses included.
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    // At least how many levels, as the depth limit counts them, lie below
    // this node: 0 for a leaf, and never less than the true figure, so that
    // only a statement that may be too deep is checked (nesting.hpp).
    std::uint32_t bound = 0;
    // How many operators of one chain (`a + b - c`, `r.a(x).b`) end here;
    // a chain longer than the limit stops growing, and the error is certain.
    std::uint32_t chain = 0;
    bool parenthesised = false;
  };
  struct Piece {
    std::uint32_t begin, end;
  };
  struct Block {
    std::vector<ast::FieldDecl> fields;
    std::uint32_t bound = 0;  // as Entry::bound, for the deepest field value
  };
  struct Arg {
    std::string name;  // "" for a positional argument
    Entry value;
  };

  Span span(Text b, Text e) const;
  Span span(Piece p) const { return Span{&file_, p.begin, p.end}; }
  std::string_view text(Piece p) const { return std::string_view(file_.text).substr(p.begin, p.end - p.begin); }
  Piece pop_piece();
  Entry pop();
  std::uint32_t pop_mark();
  void push(ast::ExprPtr e, std::uint32_t bound, std::uint32_t chain = 0);
  void grow_chain(ast::ExprPtr node, Entry& lhs, std::uint32_t rhs_bound, bool same_chain);
  static bool continues_postfix(const Entry& operand);
  bool chain_full(Entry& operand, bool same_chain, std::uint32_t end);
  void push_postfix(ast::ExprPtr x, Entry& operand, std::uint32_t bound, bool same_chain);
  double number(Piece p) const;
  ast::UnitTerm factor(Piece p) const;
  ast::UnitExpr pop_unit();
  ast::TypeExpr type(Text b, Text e);  // takes the unit expression
  std::string unescape(std::string_view body, std::uint32_t body_begin) const;
  ast::ExprPtr path(Piece p) const;  // `a.b.c` as names and members
  void finish(ast::Stmt&& st);       // checks its depth, then adds it to the module
  void check_depth(ast::Stmt& st);

  const SourceFile& file_;
  const char* base_;
  std::vector<Entry> exprs_;
  std::vector<Piece> pieces_;
  std::vector<Piece> words_;  // for the statement being read: prefix families, suggested words
  ast::ExprPtr check_name_;         // the label of the check being read
  std::optional<Piece> check_points_;
  std::vector<ast::UnitTerm> terms_;
  std::vector<ast::UnitExpr> units_;
  std::vector<Arg> args_;
  std::vector<std::uint32_t> marks_;
  std::vector<ast::FieldDecl> fields_;
  std::vector<std::uint32_t> field_bounds_;  // beside fields_
  std::vector<Block> blocks_;
  std::vector<ast::Param> params_;
  std::vector<ast::SweepVar> sweep_vars_;
  // The parentheses written around each node of the statement being read
  // (by node id, innermost first), which the depth limit counts as levels.
  std::vector<std::pair<std::uint32_t, Span>> parens_;
  bool maybe_deep_ = false;  // a node of this statement may pass the depth limit
  ast::Module module_;
};

}  // namespace napkin
