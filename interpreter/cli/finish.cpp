#include "finish.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "grammar/diagnostic.hpp"
#include "grammar/error_codes.hpp"
#include "grammar/text_escape.hpp"
#include "interpreter/output/escape.hpp"

namespace napkin::cli {
namespace {

// Writes `s` whole and flushes it; 0, or the errno of a failed write.
int put(const std::string& s, std::FILE* f) {
  errno = 0;
  if (std::fwrite(s.data(), 1, s.size(), f) != s.size() || std::fflush(f) != 0 || std::ferror(f))
    return errno ? errno : EIO;
  return 0;
}

}  // namespace

std::string printed(std::string out, Format format) {
  if (format == Format::source || format == Format::junit) return out;
  if (format == Format::json || format == Format::gradescope || format == Format::toml) return document_controls(out);
  return visible_controls(out);
}

int finish(const Result& r) {
  const int out_err = put(r.out, stdout);
  const int err_err = put(r.err, stderr);
  if (out_err && out_err != EPIPE)
    put(render(unplaced(codes::io, fmt::format("cannot write the output: {}", std::strerror(out_err)))), stderr);
  if (out_err || err_err) return 2;
  return r.code;
}

}  // namespace napkin::cli
