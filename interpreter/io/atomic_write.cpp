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

[[noreturn]] void refused(const std::string& path, const std::string& why, const std::string& help) {
  Diagnostic d;
  d.code = codes::io;
  d.message = fmt::format("cannot write {}: {}", path, why);
  d.help = help;
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

// Writes all of `contents` to `fd`; 0 or the errno of the failure.
int write_all(int fd, std::string_view contents, const WriteFault& fault) {
  for (std::size_t done = 0; done < contents.size();) {
    const std::size_t chunk = std::min<std::size_t>(contents.size() - done, 1u << 16);
    if (const int err = injected(fault, "write")) return err;
    const ssize_t n = ::write(fd, contents.data() + done, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// A file that keeps its hard links and owner: rewritten where it is. Not
// atomic, so used only where a rename would change what the file is.
void write_in_place(const std::string& path, const fs::path& target, std::string_view contents,
                    const WriteFault& fault) {
  int err = injected(fault, "create");
  const int fd = err ? -1 : ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (!err && fd < 0) err = errno;
  if (err) write_failed(path, "create", err);
  if ((err = write_all(fd, contents, fault)) || (::ftruncate(fd, static_cast<off_t>(contents.size())) != 0 && (err = errno))) {
    ::close(fd);
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot write {}: {} (at the write step, in place)", path, std::strerror(err));
    d.help = "the file has several hard links or an owner napkin cannot keep, so it was being rewritten in "
             "place; it may be incomplete";
    throw Error(std::move(d));
  }
  if ((err = injected(fault, "fsync")) || (::fsync(fd) != 0 && (err = errno))) {
    ::close(fd);
    write_failed(path, "fsync", err);
  }
  if (::close(fd) != 0) write_failed(path, "fsync", errno);
}

}  // namespace

bool may_write(const std::string& path, const struct stat& st) {
  if ((st.st_mode & 0222) == 0) return false;  // read-only to everyone, root included
  if (::geteuid() == 0) return true;
  return ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
}

void atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault) {
  // Through a symbolic link, the link stays and its target is replaced.
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();

  struct stat st {};
  const bool exists = ::lstat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) write_failed(path, "create", errno);
  bool in_place = false;
  if (exists) {
    if (!S_ISREG(st.st_mode))
      refused(path, fmt::format("it is {}, and napkin replaces only regular files", kind_of(st.st_mode)),
              S_ISDIR(st.st_mode) ? "name a file inside it" : "name a regular file to write");
    if (!may_write(target.string(), st))
      refused(path, "it is read-only", "make it writable first (chmod u+w) if it should be replaced");
    // A rename would split hard links, and would give the file to this user.
    in_place = st.st_nlink > 1 || (::geteuid() != 0 && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()));
  }
  if (in_place) return write_in_place(path, target, contents, fault);

  TempFile tmp{(dir / ("." + target.filename().string() + ".XXXXXX")).string()};
  int err = injected(fault, "create");
  if (!err && (tmp.fd = ::mkstemp(tmp.name.data())) < 0) err = errno;
  if (err) write_failed(path, "create", err);
  tmp.created = true;

  const mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();
  if (::fchmod(tmp.fd, mode) != 0) write_failed(path, "create", errno);
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(tmp.fd, st.st_uid, st.st_gid) != 0)
    write_failed(path, "create", errno);
  if (exists && (st.st_mode & 07000) && ::fchmod(tmp.fd, mode) != 0)  // chown clears set-id bits
    write_failed(path, "create", errno);

  if ((err = write_all(tmp.fd, contents, fault))) write_failed(path, "write", err);
  if ((err = injected(fault, "fsync")) || (::fsync(tmp.fd) != 0 && (err = errno))) write_failed(path, "fsync", err);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) write_failed(path, "fsync", errno);

  if ((err = injected(fault, "rename")) || (std::rename(tmp.name.c_str(), target.c_str()) != 0 && (err = errno)))
    write_failed(path, "rename", err);
  tmp.renamed = true;

  // The rename itself is durable once the directory is on disk.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_output(const std::string& path, std::string_view contents) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
    return atomic_write(path, contents);
  // What the user named is a device or a FIFO: write to it, never replace it.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENXIO) refused(path, "it is a FIFO that no process is reading", "start the reader first");
    write_failed(path, "create", errno);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (const int err = write_all(fd, contents, {})) {
    ::close(fd);
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot write {}: {}", path, std::strerror(err));
    throw Error(std::move(d));
  }
  if (::close(fd) != 0 && errno != EINTR) write_failed(path, "write", errno);
}

}  // namespace napkin
