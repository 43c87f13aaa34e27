// `napkin lsp`: the language server over standard input and output.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "guarded.hpp"
#include "interpreter/lsp/server.hpp"

namespace napkin::cli {
namespace {

bool write_all(const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Result cmd_lsp(const LspArgs& a, const Common& c) {
  Common quiet = c;
  quiet.no_measure = true;  // a probe never runs while the user types: `measure(...)` uses its fallback
  // Each evaluation runs in the background, stopped at its time bound
  // (docs/editors.md): the loop waits on the editor and on them at once.
  lsp::Server server(lsp::ServerOptions{[quiet] { return options(quiet); }, a.std_dir, lsp::kEvaluationSeconds});
  char buf[1 << 16];
  for (;;) {
    std::vector<pollfd> fds{{STDIN_FILENO, POLLIN, 0}};
    for (const int fd : server.running()) fds.push_back({fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), server.ms_to_deadline()) < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) {
      const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the editor went away without `exit`
      if (!write_all(server.receive(std::string_view(buf, static_cast<std::size_t>(n))))) break;
      if (server.exited()) return Result{"", "", server.exit_code()};
    }
    if (!write_all(server.poll())) break;
  }
  return Result{"", "", 1};
}

}  // namespace napkin::cli
