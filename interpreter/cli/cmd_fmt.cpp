#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

#include "../../grammar/ast_equal.hpp"
#include "../../grammar/diagnostic.hpp"
#include "../../grammar/parser.hpp"
#include "../formatter.hpp"
#include "../replace_file.hpp"
#include "commands.hpp"

namespace napkin::cli {
namespace {

bool read_all(const std::string& path, std::string& text) {
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    ss << in.rdbuf();
  }
  text = ss.str();
  return true;
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
    if (!read_all(path, text)) {
      r.err += fmt::format("napkin fmt: cannot read {}: {}\n", path, std::error_code(errno, std::generic_category()).message());
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
      replace_file(path, out);
    } catch (const std::system_error& e) {
      r.err += fmt::format("napkin fmt: {}\n", e.what());
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
