#pragma once
// Comments are whitespace to the parser, so the AST has none; the formatter
// finds them in the text and puts them back next to what they annotate.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct Comment {
  std::uint32_t begin = 0;  // the byte offset of `#`
  std::uint32_t end = 0;    // the end of its line, before any trailing blanks
  bool own_line = false;    // nothing but blanks before it on its line
  std::string text;         // from `#`, without trailing blanks
};

// Every comment of a file, in order. A `#` inside a string literal is text,
// not a comment.
std::vector<Comment> find_comments(std::string_view text);

// A block of whole-line comments with no blank line between them, as prose:
// markers dropped, one line per comment line, a line of `#` only (or of
// `#`, `-` and `=` only: a rule) as an empty line that ends a paragraph,
// and a heading's rule trimmed (`# ---- 1. Parameters ----` is "1. Parameters").
struct CommentBlock {
  std::uint32_t begin = 0;  // the offset of its first `#`
  std::string text;         // "" when there is none
};

// The block directly above offset `begin` (a drill's question above its scenario).
CommentBlock comment_block_above(std::string_view text, const std::vector<Comment>& comments, std::uint32_t begin);
// The file's opening block: the comments before anything else in it (its
// title and introduction), up to the first blank line that follows a
// paragraph or the first statement.
CommentBlock opening_comment(std::string_view text, const std::vector<Comment>& comments);

}  // namespace napkin
