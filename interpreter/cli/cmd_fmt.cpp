#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "grammar/ast_equal.hpp"
#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "interpreter/io/atomic_write.hpp"
#include "interpreter/layout/format_pieces.hpp"
#include "interpreter/layout/formatter.hpp"
#include "interpreter/io/read_source.hpp"
#include "commands.hpp"

namespace napkin::cli {
namespace {

// 0, or why `path` could not be read.
// With -w only a regular file is read: a FIFO or a device cannot be rewritten.
int read_all(const std::string& path, std::string& text, bool write) {
  if (path != "-") return read_source(path, text, /*allow_pipe=*/!write);
  // Read as a file is: up to just past the size limit, which parsing reports.
  text.clear();
  char buf[1 << 16];
  while (text.size() <= kMaxSourceBytes && std::cin.read(buf, sizeof buf).gcount() > 0)
    text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
  return std::cin.bad() ? EIO : 0;
}

// The formatted text, or "" with `why` set. A layout that would parse to a
// different program is refused rather than written.
std::string formatted_whole(const SourceFile& src, std::string& why) {
  try {
    std::string out = format_source(src);
    SourceFile again{src.name, out, src.dir};
    const std::string d = ast_difference(parse_module(src), parse_module(again));
    if (d.empty()) return out;
    why = render(unplaced(codes::internal,
                           fmt::format("{} was left as it is: its new layout would mean something else ({}); "
                                       "please report this",
                                       src.name, d)));
  } catch (const Error& e) {
    why = render(e.diagnostic());
  }
  return "";
}

// A large file a piece at a time (layout/format_pieces.hpp), each piece
// checked as the whole would be, so that only one piece's trees are held.
// A piece that does not parse, or any doubt, formats the whole file
// instead: its error then names the right line.
std::string formatted(const SourceFile& src, std::string& why) {
  if (src.text.size() <= kFormatPieceBytes) return formatted_whole(src, why);
  const std::vector<FormatPiece> pieces = format_pieces(src.text, kFormatPieceBytes);
  if (pieces.size() < 2) return formatted_whole(src, why);
  std::string out;
  out.reserve(src.text.size() + src.text.size() / 4);
  for (const FormatPiece& p : pieces) {
    std::string piece_why;
    const std::string piece = formatted_whole(SourceFile{src.name, std::string(p.text), src.dir}, piece_why);
    if (!piece_why.empty()) return formatted_whole(src, why);
    if (p.blank_before) out += '\n';
    out += piece;
  }
  return out;
}

}  // namespace

Result cmd_fmt(const FmtArgs& a, const Common&) {
  Result r;
  int changed = 0;
  bool failed = false;
  for (const std::string& path : a.files) {
    if (path == "-" && a.write) {
      r.err += render(unplaced(codes::usage, "-w writes files; standard input has none to write",
                                "format standard input without -w, and write its output where it belongs"));
      failed = true;
      continue;
    }
    std::string text;
    if (const int err = read_all(path, text, a.write)) {
      r.err += render(unplaced(codes::io, fmt::format("cannot read {}: {}", path, read_error_text(err))));
      failed = true;
      continue;
    }
    const SourceFile src{path == "-" ? "<stdin>" : path, text,
                         std::filesystem::path(path).parent_path().generic_string()};
    std::string why;
    const std::string out = formatted(src, why);
    if (!why.empty()) {
      r.err += why;
      failed = true;
      continue;
    }
    if (!a.check && !a.write) {
      r.out += out;
      continue;
    }
    if (out == text) continue;
    ++changed;
    if (a.check) {
      r.out += path + "\n";
      continue;
    }
    try {
      const std::string note = atomic_write(path, out);
      if (!note.empty()) r.err += "napkin fmt: note: " + note + "\n";
    } catch (const Error& e) {
      r.err += render(e.diagnostic());
      failed = true;
    }
  }
  if (a.check && changed)
    r.err += fmt::format("{} {} not formatted; `napkin fmt -w` rewrites {}\n", changed,
                         changed == 1 ? "file is" : "files are", changed == 1 ? "it" : "them");
  r.code = failed ? 2 : a.check && changed ? 1 : 0;
  return r;
}

}  // namespace napkin::cli
