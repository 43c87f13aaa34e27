#include "atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "grammar/diagnostic.hpp"

namespace napkin {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void write_failed(const std::string& path, const char* step, int err) {
  Diagnostic d;
  d.code = codes::io;
  d.message = fmt::format("cannot write {}: {} (at the {} step)", path, std::strerror(err), step);
  d.help = "the original file, if there was one, is unchanged";
  throw Error(std::move(d));
}

// The errno of a failed step, or 0; an injected fault counts as a failure.
int injected(const WriteFault& fault, const char* step) { return fault ? fault(step) : 0; }

// Permissions for a new file, as `open` would give it. umask can only be
// read by setting it; napkin writes files from one thread.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The temporary file: closed and removed unless it was renamed into place.
struct TempFile {
  std::string name;
  int fd = -1;
  bool created = false;
  bool renamed = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (created && !renamed) ::unlink(name.c_str());
  }
};

}  // namespace

void atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault) {
  // Through a symbolic link, the link stays and its target is replaced.
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();

  TempFile tmp{(dir / ("." + target.filename().string() + ".XXXXXX")).string()};
  int err = injected(fault, "create");
  if (!err && (tmp.fd = ::mkstemp(tmp.name.data())) < 0) err = errno;
  if (err) write_failed(path, "create", err);
  tmp.created = true;

  struct stat st {};
  const mode_t mode = ::stat(target.c_str(), &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
  if (::fchmod(tmp.fd, mode) != 0) write_failed(path, "create", errno);

  for (std::size_t done = 0; done < contents.size();) {
    const std::size_t chunk = std::min<std::size_t>(contents.size() - done, 1u << 16);
    if ((err = injected(fault, "write"))) write_failed(path, "write", err);
    const ssize_t n = ::write(tmp.fd, contents.data() + done, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      write_failed(path, "write", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if ((err = injected(fault, "fsync")) || (::fsync(tmp.fd) != 0 && (err = errno))) write_failed(path, "fsync", err);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) write_failed(path, "fsync", errno);

  if ((err = injected(fault, "rename")) || (std::rename(tmp.name.c_str(), target.c_str()) != 0 && (err = errno)))
    write_failed(path, "rename", err);
  tmp.renamed = true;

  // The rename itself is durable once the directory is on disk.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace napkin
