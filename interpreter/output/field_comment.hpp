#pragma once
// The comment block directly above a field's declaration (`# (a) per-head
// and KV widths`): a sub-part's words. The handout prints them before the
// blanks they ask for, and a solution sheet before the derivations that
// answer them, so that (a), (b), (c) line up on the two sheets.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "grammar/comments.hpp"
#include "grammar/source.hpp"

namespace napkin {

// Each file's comments, found once per sheet.
using CommentsByFile = std::map<const SourceFile*, std::vector<Comment>>;

inline const std::vector<Comment>& comments_of(const SourceFile* file, CommentsByFile& cache) {
  auto it = cache.find(file);
  if (it == cache.end()) it = cache.emplace(file, find_comments(file->text)).first;
  return it->second;
}

inline std::string comment_above_field(const Span& at, CommentsByFile& cache) {
  if (!at.valid()) return "";
  return comment_block_above(at.file->text, comments_of(at.file, cache), at.begin).text;
}

// The comment at the end of the line a field's declaration starts on
// (`fp16_bytes = drill.weight_bytes  # (a) N · 2 B`), without its `#`: the
// handout prints it after the blank, a solution sheet after the result.
inline std::string comment_after_field(const Span& at, CommentsByFile& cache) {
  if (!at.valid()) return "";
  const std::vector<Comment>& all = comments_of(at.file, cache);
  const std::size_t eol = at.file->text.find('\n', at.begin);
  auto c = std::lower_bound(all.begin(), all.end(), at.begin,
                            [](const Comment& x, std::uint32_t b) { return x.begin < b; });
  if (c == all.end() || c->own_line || (eol != std::string::npos && c->begin > eol)) return "";
  const std::size_t words = c->text.find_first_not_of("# ");
  return words == std::string::npos ? "" : c->text.substr(words);
}

}  // namespace napkin
