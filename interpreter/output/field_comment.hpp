#pragma once
// The comment block directly above a field's declaration (`# (a) per-head
// and KV widths`): a sub-part's words. The handout prints them before the
// blanks they ask for, and a solution sheet before the derivations that
// answer them, so that (a), (b), (c) line up on the two sheets.
#include <map>
#include <string>
#include <vector>

#include "grammar/comments.hpp"
#include "grammar/source.hpp"

namespace napkin {

// Each file's comments, found once per sheet.
using CommentsByFile = std::map<const SourceFile*, std::vector<Comment>>;

inline std::string comment_above_field(const Span& at, CommentsByFile& cache) {
  if (!at.valid()) return "";
  auto it = cache.find(at.file);
  if (it == cache.end()) it = cache.emplace(at.file, find_comments(at.file->text)).first;
  return comment_block_above(at.file->text, it->second, at.begin).text;
}

}  // namespace napkin
