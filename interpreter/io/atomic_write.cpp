#include "atomic_write.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
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

// What a signal that ends napkin removes: the temporary file being written.
// A fixed buffer, since a handler may call only async-signal-safe functions.
char g_temp[4096];
volatile std::sig_atomic_t g_temp_set = 0;

extern "C" void remove_temp_and_die(int sig) {
  if (g_temp_set) ::unlink(g_temp);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// While one exists, SIGINT, SIGTERM and SIGHUP remove the temporary file
// before ending napkin as they would have (one that is ignored stays so).
struct TempGuard {
  using Handler = void (*)(int);
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  Handler old[3] = {};
  explicit TempGuard(const std::string& name) {
    if (name.size() >= sizeof g_temp) return;
    std::memcpy(g_temp, name.c_str(), name.size() + 1);
    g_temp_set = 1;
    for (int i = 0; i < 3; ++i) {
      old[i] = std::signal(kSignals[i], remove_temp_and_die);
      if (old[i] == SIG_IGN) std::signal(kSignals[i], SIG_IGN);  // a signal ignored stays ignored
    }
  }
  ~TempGuard() {
    if (!g_temp_set) return;
    for (int i = 0; i < 3; ++i) std::signal(kSignals[i], old[i]);
    g_temp_set = 0;
  }
};

// A file that keeps its hard links or its owner: rewritten where it is. That
// cannot be atomic, so what could stop the write part-way is ruled out
// first: new text past the file-size limit (`ulimit -f`) is refused, and the
// file is grown to the new size (which fails, with ENOSPC, before a byte of
// it changes, when the disk would not allow it); only then is it
// overwritten and cut to length. What is left that can spoil it is a
// crash or a kill in the middle, which the returned note says.
std::string write_in_place(const std::string& path, std::string_view contents, const struct stat& st,
                           const std::string& why, const WriteFault& fault) {
  // Past the file-size limit, the write would stop part-way through.
  const auto size = static_cast<off_t>(contents.size());
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(size) > limit.rlim_cur)
    write_failed(path, "write", EFBIG);
  int err = injected(fault, "create");
  const int fd = err ? -1 : ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (!err && fd < 0) err = errno;
  if (err) write_failed(path, "create", err);
  if (size > st.st_size) {
    err = ::posix_fallocate(fd, 0, size);
    if (err == EOPNOTSUPP || err == EINVAL) err = ::ftruncate(fd, size) != 0 ? errno : 0;
    if (err) {
      ::ftruncate(fd, st.st_size);  // what a failed reservation added goes again
      ::close(fd);
      write_failed(path, "write", err);
    }
  }
  if ((err = write_all(fd, contents, fault)) || (::ftruncate(fd, size) != 0 && (err = errno))) {
    ::close(fd);
    Diagnostic d;
    d.code = codes::io;
    d.message = fmt::format("cannot write {}: {} (at the write step, in place)", path, std::strerror(err));
    d.help = fmt::format("{}, so it was being rewritten in place; it may be incomplete", why);
    throw Error(std::move(d));
  }
  if ((err = injected(fault, "fsync")) || (::fsync(fd) != 0 && (err = errno))) {
    ::close(fd);
    write_failed(path, "fsync", err);
  }
  if (::close(fd) != 0) write_failed(path, "fsync", errno);
  return fmt::format("{} was rewritten in place, not replaced whole: {}", path, why);
}

// Whether napkin may create a file in `dir`: as may_write, a folder without
// any write bit is read-only even for root.
bool may_write_in(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return true;  // the create step reports it
  return may_write(dir.string(), st);
}

}  // namespace

bool may_write(const std::string& path, const struct stat& st) {
  if ((st.st_mode & 0222) == 0) return false;  // read-only to everyone, root included
  if (::geteuid() == 0) return true;
  return ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
}

std::string atomic_write(const std::string& path, std::string_view contents, const WriteFault& fault) {
  const fs::path target(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();

  struct stat st {};
  const bool exists = ::lstat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) write_failed(path, "create", errno);
  // A link is never written through: in a shared folder it may have been
  // planted to point at another user's file. (The rename below replaces
  // whatever is at `path` itself, so a link planted after this check is
  // replaced, not followed.)
  if (exists && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const fs::path to = fs::read_symlink(target, ec);
    refused(path, fmt::format("it is a symbolic link{}, and napkin does not write through links", ec ? "" : " to " + to.string()),
            "name the file itself if that is the one to write, or remove the link");
  }
  std::string in_place;  // why the file must keep its identity, if it must
  if (exists) {
    if (!S_ISREG(st.st_mode))
      refused(path, fmt::format("it is {}, and napkin replaces only regular files", kind_of(st.st_mode)),
              S_ISDIR(st.st_mode) ? "name a file inside it" : "name a regular file to write");
    if (!may_write(path, st))
      refused(path, "it is read-only", "make it writable first (chmod u+w) if it should be replaced");
    // A rename would split hard links, and would give the file to this user.
    if (st.st_nlink > 1)
      in_place = fmt::format("it has {} hard links, which a replacement would split", st.st_nlink);
    else if (::geteuid() != 0 && st.st_uid != ::geteuid())
      in_place = "it belongs to another user, which a replacement would not";
  }
  if (!in_place.empty()) return write_in_place(path, contents, st, in_place, fault);
  if (!may_write_in(dir))
    refused(path, fmt::format("its folder {} is read-only, so the file cannot be replaced whole", dir.string()),
            "make the folder writable (chmod u+w), or write the file somewhere else");

  TempFile tmp{(dir / ("." + target.filename().string() + ".XXXXXX")).string()};
  int err = injected(fault, "create");
  if (!err && (tmp.fd = ::mkstemp(tmp.name.data())) < 0) err = errno;
  if (err == EACCES || err == EPERM || err == EROFS)
    refused(path, fmt::format("no file can be made in its folder {} ({}), so it cannot be replaced whole",
                              dir.string(), std::strerror(err)),
            "make the folder writable, or write the file somewhere else");
  if (err) write_failed(path, "create", err);
  tmp.created = true;
  const TempGuard guard(tmp.name);

  const mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();
  if (::fchmod(tmp.fd, mode) != 0) write_failed(path, "create", errno);
  // The group is kept where it can be (a group this user is in); where it
  // cannot, the file is rewritten in place instead.
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(tmp.fd, st.st_uid, st.st_gid) != 0) {
    ::close(tmp.fd);
    tmp.fd = -1;
    ::unlink(tmp.name.c_str());
    tmp.created = false;
    return write_in_place(path, contents, st, "its group is one a replacement could not keep", fault);
  }
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
  return "";
}

std::string write_output(const std::string& path, std::string_view contents) {
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
  return "";
}

}  // namespace napkin
