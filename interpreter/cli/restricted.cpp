#include "restricted.hpp"

#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fmt/format.h>

namespace napkin::cli {

namespace {

// Read by the signal handler: only these, and only write(2) and _exit(2),
// which are safe there.
std::atomic<const std::string*> g_out{nullptr};
std::string g_message;

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

extern "C" void time_is_up(int) {
  if (const std::string* out = g_out.load()) write_all(1, out->data(), out->size());
  write_all(2, g_message.data(), g_message.size());
  ::_exit(2);
}

}  // namespace

Diagnostic time_out_diagnostic(double seconds) {
  Diagnostic d;
  d.code = codes::time_limit;
  d.message = fmt::format("the run took longer than {} s, the restricted mode's time limit, and was stopped", seconds);
  d.help = "a file that takes this long loops or sweeps far more points than it needs; `--time-limit S` sets the limit";
  return d;
}

Diagnostic memory_diagnostic(std::size_t mib) {
  Diagnostic d;
  d.code = codes::memory_limit;
  d.message = fmt::format("the run needed more than {} MiB, the restricted mode's memory limit, and was stopped", mib);
  d.help = "`--memory-limit MIB` sets the limit";
  return d;
}

void on_time_out(std::string stdout_text) {
  static std::string held[2];  // never freed while the handler may read one
  static int next = 0;
  held[next] = std::move(stdout_text);
  g_out.store(&held[next]);
  next ^= 1;
}

void bound_run(double seconds, std::size_t mib) {
  g_message = render(time_out_diagnostic(seconds));
  struct sigaction sa {};
  sa.sa_handler = time_is_up;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGALRM, &sa, nullptr);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(seconds);
  t.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(t.it_value.tv_sec)) * 1e6);
  if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
  ::setitimer(ITIMER_REAL, &t, nullptr);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reserves terabytes of address space for its shadow
  // memory: a limit on address space would stop the run before it starts.
  (void)mib;
#else
  rlimit r{};
  r.rlim_cur = r.rlim_max = static_cast<rlim_t>(mib) << 20;
  ::setrlimit(RLIMIT_AS, &r);
#endif
}

}  // namespace napkin::cli
