#pragma once
// Source files and spans. Every AST node and every diagnostic points into a
// SourceFile through a Span, so an error found late (during evaluation) can
// still show the line it came from.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct SourceFile {
  std::string name;  // as shown to users: "examples/x.napkin", "std/transformer"
  std::string text;
  std::string dir;   // directory used to resolve relative imports ("" for stdlib)
  // Whether a diagnostic may show this file's lines: false for a file not
  // known to be napkin source (interpreter/io/import_policy.hpp).
  bool quotable = true;

  // 1-based line and column (columns count UTF-8 code points) of a byte offset.
  std::pair<int, int> line_col(std::size_t offset) const;
  std::string_view line_text(int line) const;

  // Where each line starts, built on the first line_col: a run reports the
  // line of every check, and scanning from the top each time was quadratic.
  mutable std::vector<std::uint32_t> line_starts;
  mutable const char* indexed_text = nullptr;  // the text line_starts describes
  mutable std::size_t indexed_size = 0;
};

// Source text as every part of napkin reads it. A lone carriage return (a
// classic Mac file) ends a line as a newline does: it becomes a LF, one byte
// for one, so the grammar, comments, the formatter and every scanner see one
// kind of line end (a CR before a LF stays). A byte-order mark at the start
// is dropped, as editors drop it, so a title comment is the file's first
// line. Every reader of source goes through this before any span is made.
void normalize_source(std::string& text);

struct Span {
  const SourceFile* file = nullptr;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  bool valid() const { return file != nullptr; }
  std::string_view text() const {
    return file ? std::string_view(file->text).substr(begin, end - begin) : std::string_view{};
  }
  // "file:line:col"
  std::string where() const;
  // "file:line", the short form used in derivations ("std/hardware:12")
  std::string where_line() const;
};

}  // namespace napkin
