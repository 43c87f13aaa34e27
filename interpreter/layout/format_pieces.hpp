#pragma once
// A large file formatted a piece at a time. The tree of a whole file takes
// about fifty bytes per byte of source (and `fmt` holds two to check its
// work), so a 9 MB file peaked at 502 MB; cut into pieces of complete
// top-level statements, formatted and checked one after another, it takes
// its text, the output and one piece's trees.
//
// A piece ends only where formatting the two sides apart gives the same
// text as formatting them together: between top-level statements, at a line
// that starts a statement with a keyword at its first column, outside every
// bracket, string and comment, after a line that cannot continue into it
// (no operator or keyword at its end, no comment), and either
//   - after a blank line: the whole file's layout puts exactly one blank
//     line there, so the pieces are joined with one; or
//   - between two statements each on a line of its own that the layout
//     keeps on one line (each is laid out alone to see), in a run of lines
//     without a comment (trailing comments line up across a run): it keeps
//     them on neighbouring lines, so the pieces are joined as they are.
// tests/unit/format_pieces_test.cpp checks the pieces against the whole
// layout on every file of the project.
#include <cstddef>
#include <string_view>
#include <vector>

namespace napkin {

struct FormatPiece {
  std::string_view text;
  bool blank_before = false;  // joined to the piece before with one blank line
};

// `text` cut into pieces of at least `piece_bytes` (the last may be shorter),
// or one piece when there is no place to cut.
std::vector<FormatPiece> format_pieces(std::string_view text, std::size_t piece_bytes);

// Files above this are formatted in pieces of this size.
inline constexpr std::size_t kFormatPieceBytes = 64 * 1024;

}  // namespace napkin
