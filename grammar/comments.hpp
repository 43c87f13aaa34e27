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

// The block of whole-line comments directly above offset `begin` (no blank
// line between), as prose: markers dropped, lines joined by spaces. A drill's
// question above its scenario; "" when there is none.
std::string leading_comment(std::string_view text, const std::vector<Comment>& comments, std::uint32_t begin);

}  // namespace napkin
