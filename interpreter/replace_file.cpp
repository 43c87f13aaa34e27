#include "replace_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace napkin {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

void replace_file(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  if (target.parent_path().empty()) tmp = "." + target.filename().string() + ".XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) fail("cannot create a temporary file next to " + path);
  auto abandon = [&](const std::string& what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = saved;
    fail(what);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && ::fchmod(fd, st.st_mode & 07777) != 0) abandon("cannot set the mode of " + tmp);
  for (std::size_t done = 0; done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("cannot write " + tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) abandon("cannot flush " + tmp);
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail("cannot close " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    fail("cannot replace " + path);
  }
}

}  // namespace napkin
