#pragma once
// A statement's expression laid out within kFormatWidth: the grammar's
// token stream (grammar/tokens.hpp) placed line by line, broken only
// before the binary operators the stream marks, loosest of a group first,
// and, where a piece is still too long, inside the brackets that end it.
// Breaking there only turns a space into a newline, which the grammar reads
// the same.
#include <string>
#include <vector>

#include "grammar/ast.hpp"

namespace napkin {

struct Line {
  int indent = 0;
  std::string text;
};

int width(const Line& l);

// `head` followed by `e`, on one line if it fits, else wrapped; continuation
// lines are indented two more. A function's body moves to its own line.
std::vector<Line> lay_out(int indent, const std::string& head, const ast::Expr& e, bool body_on_next_line = false);

}  // namespace napkin
