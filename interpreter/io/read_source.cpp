#include "read_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace napkin {

std::string read_error_text(int err) {
  if (err == kNotRegularFile) return "it is not a regular file (a device, FIFO or socket), and napkin reads only files";
  return std::error_code(err, std::generic_category()).message();
}

int read_source(const std::string& path, std::string& text, bool allow_pipe, std::size_t limit) {
  // O_NONBLOCK: opening a FIFO nobody writes to would otherwise wait forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return errno;
  struct stat st {};
  int err = 0;
  if (::fstat(fd, &st) != 0) err = errno;
  else if (S_ISDIR(st.st_mode)) err = EISDIR;
  else if (!S_ISREG(st.st_mode) && !(allow_pipe && S_ISFIFO(st.st_mode))) err = kNotRegularFile;
  else if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) err = errno;
  if (err) {
    ::close(fd);
    return err;
  }
  text.clear();
  char buf[1 << 16];
  while (text.size() <= limit) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      return e;
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  normalize_source(text);
  return 0;
}

}  // namespace napkin
