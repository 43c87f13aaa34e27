#include "cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grammar/diagnostic.hpp"
#include "interpreter/io/atomic_write.hpp"

namespace napkin::measure {

namespace fs = std::filesystem;

namespace {

template <typename T>
T need(const toml::table& t, const char* key) {
  auto v = t[key].value<T>();
  if (!v) fail(codes::io, fmt::format("the entry has no {} of the right type", key));
  return *v;
}

}  // namespace

toml::table to_toml(const Measurement& m) {
  toml::table t;
  t.insert("probe", m.probe);
  if (!m.variant.empty()) t.insert("arguments", m.variant);
  t.insert("value", m.value);
  t.insert("unit", m.unit);
  t.insert("min", m.min);
  t.insert("max", m.max);
  t.insert("n", m.n);
  t.insert("device", m.device);
  t.insert("method", m.method);
  t.insert("measured_at", m.measured_at);
  toml::array w;
  for (const auto& s : m.warnings) w.push_back(s);
  t.insert("warnings", std::move(w));
  return t;
}

Measurement from_toml(const toml::table& t) {
  Measurement m;
  m.probe = need<std::string>(t, "probe");
  m.variant = t["arguments"].value_or(std::string());
  m.value = need<double>(t, "value");
  m.unit = need<std::string>(t, "unit");
  m.min = t["min"].value_or(m.value);
  m.max = t["max"].value_or(m.value);
  m.n = static_cast<int>(t["n"].value_or(std::int64_t{1}));
  m.device = t["device"].value_or(std::string());
  m.method = t["method"].value_or(std::string());
  m.measured_at = t["measured_at"].value_or(std::string());
  if (const toml::array* w = t["warnings"].as_array())
    for (const auto& e : *w)
      if (auto s = e.value<std::string>()) m.warnings.push_back(*s);
  return m;
}

std::string toml_text(const std::string& header, const toml::table& doc) {
  std::ostringstream s;
  s << header << doc << "\n";
  return s.str();
}

bool read_regular(const std::string& path, std::string& text, std::size_t limit, bool missing_ok) {
  // O_NONBLOCK: a FIFO at the path must not block the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT && missing_ok) return false;
    fail(codes::io, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  }
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) why = std::strerror(errno);
  else if (S_ISDIR(st.st_mode)) why = "it is a directory";
  else if (!S_ISREG(st.st_mode)) why = "it is not a regular file (a device, FIFO or socket)";
  else if (static_cast<std::uint64_t>(st.st_size) > limit)
    why = fmt::format("it is {} bytes, and napkin reads TOML files up to {} bytes", st.st_size, limit);
  text.clear();
  char buf[1 << 16];
  while (why.empty()) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      why = std::strerror(errno);
    } else if (text.size() + static_cast<std::size_t>(n) > limit) {
      why = fmt::format("it is over {} bytes, the most napkin reads of a TOML file", limit);
    } else {
      text.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  if (!why.empty()) fail(codes::io, fmt::format("cannot read {}: {}", path, why));
  return true;
}

void write_atomically(const std::string& path, const std::string& header, const toml::table& doc) {
  const std::string note = napkin::atomic_write(path, toml_text(header, doc));
  if (!note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
}

std::string Cache::default_path() {
  if (const char* p = std::getenv("NAPKIN_MEASURE_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "napkin" / "measurements.toml").string();
  if (const char* h = std::getenv("HOME"); h && *h)
    return (fs::path(h) / ".cache" / "napkin" / "measurements.toml").string();
  return "napkin-measurements.toml";
}

namespace {

constexpr const char* kCacheHeader =
    "# Measurements napkin has made on this machine, by device and probe.\n"
    "# `--remeasure` runs a probe again; deleting this file forgets them all.\n\n";

// The cache's text, "" when there is none; throws when the file there
// cannot be read or is not napkin's cache, so that store() leaves it alone.
std::string cache_text(const std::string& path) {
  std::string text;
  if (!read_regular(path, text, kMaxTomlBytes, /*missing_ok=*/true)) return "";
  const std::string first(kCacheHeader, std::strchr(kCacheHeader, '\n') + 1);
  if (!text.empty() && text.rfind(first, 0) != 0)
    fail(codes::io, fmt::format("{} is not napkin's measurement cache (it does not begin with napkin's "
                                         "header), so it was left as it is; set NAPKIN_MEASURE_CACHE to another file",
                                         path));
  return text;
}

}  // namespace

toml::table Cache::load() const {
  std::string text;
  try {
    text = cache_text(path_);
  } catch (const Error&) {
    return {};  // not readable, or not ours: nothing cached
  }
  try {
    return toml::parse(text, path_);
  } catch (const toml::parse_error&) {
    return {};  // a damaged cache is only a cache: measure again and overwrite it
  }
}

std::optional<Measurement> Cache::find(const std::string& device, const std::string& key) const {
  const toml::table doc = load();
  const toml::table* entry = doc[device][key].as_table();
  if (!entry) return std::nullopt;
  try {
    Measurement m = from_toml(*entry);
    m.cached = true;
    return m;
  } catch (const Error&) {
    return std::nullopt;
  }
}

namespace {

// An exclusive lock on `path`.lock, held while a writer reads the cache,
// adds its entry and replaces the file: two processes measuring at once
// each add theirs to what the other wrote, and no entry is lost. The lock
// is a file of its own because the cache itself is replaced, not rewritten.
class CacheLock {
 public:
  explicit CacheLock(const std::string& path) {
    const std::string lock = path + ".lock";
    fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0666);
    if (fd_ < 0) fail(codes::io, fmt::format("cannot write {}: {}", lock, std::strerror(errno)));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        const int err = errno;
        ::close(fd_);
        fail(codes::io, fmt::format("cannot lock {}: {}", lock, std::strerror(err)));
      }
  }
  ~CacheLock() { ::close(fd_); }  // closing releases the lock
  CacheLock(const CacheLock&) = delete;
  CacheLock& operator=(const CacheLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

void Cache::store(const std::string& device, const Measurement& m) const {
  // Only napkin's own directory is made: ~/.cache/napkin or $XDG_CACHE_HOME/napkin.
  const fs::path dir = fs::path(path_).parent_path();
  const char* env = std::getenv("NAPKIN_MEASURE_CACHE");
  std::error_code ec;
  if (!(env && *env) && !dir.empty() && path_ == default_path()) fs::create_directories(dir, ec);
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))  // before a lock file is made beside it
    fail(codes::io, fmt::format("cannot write {}: it is {}, and napkin replaces only regular files", path_,
                                         S_ISDIR(st.st_mode) ? "a directory" : "not a regular file"));
  const CacheLock lock(path_);
  const std::string text = cache_text(path_);  // read under the lock; throws for a file that is not ours
  toml::table doc;
  try {
    doc = toml::parse(text, path_);
  } catch (const toml::parse_error&) {
  }
  if (!doc[device].as_table()) doc.insert_or_assign(device, toml::table{});
  doc[device].as_table()->insert_or_assign(m.key(), to_toml(m));
  write_atomically(path_, kCacheHeader, doc);
}

}  // namespace napkin::measure
