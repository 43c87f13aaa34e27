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
std::string formatted(const SourceFile& src, std::string& why) {
  try {
    std::string out = format_source(src);
    SourceFile again{src.name, out, src.dir};
    const std::string d = ast_difference(parse_module(src), parse_module(again));
    if (d.empty()) return out;
    why = fmt::format("napkin fmt: {} was left as it is: its new layout would mean something else ({}); "
                      "please report this\n",
                      src.name, d);
  } catch (const Error& e) {
    why = render(e.diagnostic());
  }
  return "";
}

}  // namespace

Result cmd_fmt(const FmtArgs& a, const Common&) {
  Result r;
  int changed = 0;
  bool failed = false;
  for (const std::string& path : a.files) {
    if (path == "-" && a.write) {
      r.err += "napkin fmt: -w writes files; standard input has none to write\n";
      failed = true;
      continue;
    }
    std::string text;
    if (const int err = read_all(path, text, a.write)) {
      r.err += fmt::format("napkin fmt: cannot read {}: {}\n", path, read_error_text(err));
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
      atomic_write(path, out);
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
