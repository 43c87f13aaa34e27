#include "import_policy.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <optional>
#include <system_error>

#include "grammar/utf8.hpp"
#include "read_source.hpp"

namespace napkin {

namespace fs = std::filesystem;

namespace {

Diagnostic refusal(Code code, Span at, std::string message, std::string help) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.labels.push_back({at, "imported here", true});
  d.help = std::move(help);
  return d;
}

bool inside(const fs::path& p, const fs::path& root) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q)
    if (q == p.end() || *q != *r) return false;
  return true;
}

}  // namespace

fs::path import_root(const std::string& file) {
  std::error_code ec;
  fs::path dir = fs::path(file).parent_path();
  if (dir.empty()) dir = ".";
  fs::path root = fs::canonical(dir, ec);
  return ec ? fs::absolute(dir).lexically_normal() : root;
}

std::string not_text_reason(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = p[i];
    if (c == '\n') ++line;
    if (c == 0) return fmt::format("it holds a NUL byte (line {}): it is binary, not text", line);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F)
      return fmt::format("it holds the control byte 0x{:02X} (line {}), which napkin source never does", c, line);
    const std::size_t len = utf8_sequence(p + i, text.size() - i);
    if (len == 0) return fmt::format("it is not UTF-8 text (byte 0x{:02X}, line {})", c, line);
    i += len;
  }
  return "";
}

std::optional<Diagnostic> read_import_source(const ImportPolicy& policy, const std::string& written,
                                             const fs::path& dir, std::string_view extension, Span at,
                                             std::string& text) {
  const fs::path as_written(written);
  const std::string kind = extension == ".toml" ? "a TOML profile" : extension == ".json" ? "JSON" : "napkin source";
  const std::string name_help = extension == ".toml"   ? "import_toml reads `.toml` files written by `napkin measure --out`"
                                : extension == ".json" ? "import_json reads `.json` files"
                                                       : "an import names a `.napkin` file, or \"std/NAME\"";
  if (policy.restricted && as_written.is_absolute())
    return refusal(codes::outside_folder, at, fmt::format("\"{}\" is an absolute path, and this run is restricted", written),
                   "a restricted run (napkin grade, --restricted) imports only files in the submission's folder; "
                   "write the path relative to it");
  const fs::path p = (dir / as_written).lexically_normal();
  if (p.extension() != extension)
    return refusal(codes::not_source, at, fmt::format("\"{}\" is not {}: its name does not end in {}", written, kind, extension),
                   name_help);
  // Every failure of the file system (a loop of links, a folder it may not
  // read, a name past the system's limit) is an error at the import.
  auto unreadable = [&](const std::error_code& why) {
    text.clear();
    // A name too long to show whole is shown by the caret, so the reason stays in view.
    return refusal(codes::io, at,
                   written.size() <= 80 ? fmt::format("cannot read the file \"{}\": {}", written, why.message())
                                        : fmt::format("cannot read the file imported here: {}", why.message()),
                   why == std::errc::too_many_symbolic_link_levels ? "a symbolic link on the way leads back to itself"
                                                                     : "");
  };
  auto missing = [](const std::error_code& e) {
    return e == std::errc::no_such_file_or_directory || e == std::errc::not_a_directory;
  };
  std::error_code ec;
  const fs::file_status link = fs::symlink_status(p, ec);
  if (ec && !missing(ec)) return unreadable(ec);
  if (ec || !fs::exists(link)) {
    text.clear();
    return std::nullopt;  // not there: the caller says so (E0600)
  }
  const fs::path real = fs::canonical(p, ec);
  if (ec) {
    std::error_code followed;
    const fs::file_status target = fs::status(p, followed);
    if (!missing(ec)) return unreadable(ec);
    if (!fs::exists(target) || followed) {
      text.clear();
      return std::nullopt;  // a link to nothing: not there
    }
    // A link to something with no name in the file system (/dev/stdin is
    // /proc/self/fd/0, a pipe or a terminal): not a file napkin reads.
    text.clear();
    return refusal(codes::not_source, at,
                   fmt::format("\"{}\" is not {}: it is a symbolic link to something that is not a file", written, kind),
                   name_help);
  }
  if (policy.restricted && !inside(real, policy.root))
    return refusal(codes::outside_folder, at,
                   fmt::format("\"{}\" is outside the submission's folder, and this run is restricted", written),
                   "a restricted run (napkin grade, --restricted) imports only files in the submission's folder, "
                   "not through `..` or a symbolic link out of it");
  if (real.extension() != extension)
    return refusal(codes::not_source, at,
                   fmt::format("\"{}\" is not {}: it is a symbolic link to a file whose name does not end in {}", written,
                               kind, extension),
                   name_help);
  if (const int err = read_source(real.string(), text); err) {
    if (err == kNotRegularFile)
      return refusal(codes::not_source, at, fmt::format("\"{}\" is not {}: {}", written, kind, read_error_text(err)),
                     name_help);
    return refusal(codes::io, at, fmt::format("cannot read the file \"{}\": {}", written, read_error_text(err)), "");
  }
  if (text.size() > kMaxSourceBytes) return std::nullopt;  // the parser reports the size, quoting nothing
  if (const std::string why = not_text_reason(text); !why.empty()) {
    text.clear();
    return refusal(codes::not_source, at, fmt::format("\"{}\" is not {}: {}", written, kind, why), name_help);
  }
  return std::nullopt;
}

bool named_as_source(const std::string& path) {
  const fs::path p(path);
  if (p.extension() != ".napkin") return false;
  std::error_code ec;
  const fs::path real = fs::canonical(p, ec);
  return !ec && real.extension() == ".napkin";
}

std::optional<Diagnostic> read_restricted_file(const std::string& path, std::string& text) {
  text.clear();
  auto refuse = [&](Code code, std::string message, std::string help) {
    text.clear();
    Diagnostic d;
    d.code = code;
    d.message = std::move(message);
    d.help = std::move(help);
    return std::optional<Diagnostic>(std::move(d));
  };
  const std::string shown = fs::path(path).lexically_normal().generic_string();
  const std::string help = "a restricted run (napkin grade, --restricted) reads a submission that is a `.napkin` file of "
                           "its own folder, not a symbolic link out of it";
  std::error_code ec;
  const fs::file_status link = fs::symlink_status(path, ec);
  if (ec || !fs::exists(link))
    return refuse(codes::io, fmt::format("cannot read {}: {}", shown, read_error_text(ec ? ec.value() : ENOENT)), "");
  const fs::path real = fs::canonical(path, ec);
  if (ec)
    return refuse(codes::io, fmt::format("cannot read {}: {}", shown, read_error_text(ec.value())),
                  link.type() == fs::file_type::symlink ? "it is a symbolic link that leads to no file napkin can read"
                                                        : "");
  if (!inside(real, import_root(path)))
    return refuse(codes::outside_folder,
                  fmt::format("{} is a symbolic link out of its folder, and this run is restricted", shown), help);
  if (real.extension() != ".napkin" || fs::path(path).extension() != ".napkin")
    return refuse(codes::not_source,
                  fmt::format("{} is not napkin source: {}", shown,
                              fs::path(path).extension() == ".napkin"
                                  ? "it is a symbolic link to a file whose name does not end in .napkin"
                                  : "its name does not end in .napkin"),
                  help);
  if (const int err = read_source(real.string(), text); err) {
    if (err == kNotRegularFile)
      return refuse(codes::not_source, fmt::format("{} is not napkin source: {}", shown, read_error_text(err)), help);
    return refuse(codes::io, fmt::format("cannot read {}: {}", shown, read_error_text(err)), "");
  }
  if (text.size() > kMaxSourceBytes) return std::nullopt;  // the parser reports the size, quoting nothing
  if (const std::string why = not_text_reason(text); !why.empty())
    return refuse(codes::not_source, fmt::format("{} is not napkin source: {}", shown, why), help);
  return std::nullopt;
}

}  // namespace napkin
