// `napkin lsp`: the language server over standard input and output.
#include <unistd.h>

#include <cerrno>
#include <cstdio>

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
  lsp::Server server(lsp::ServerOptions{[quiet] { return options(quiet); }, a.std_dir});
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the editor went away without `exit`
    if (!write_all(server.receive(std::string_view(buf, static_cast<std::size_t>(n))))) break;
    if (server.exited()) return Result{"", "", server.exit_code()};
  }
  return Result{"", "", 1};
}

}  // namespace napkin::cli
