#include "restricted.hpp"

#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <new>
#include <utility>

#include "finish.hpp"

namespace napkin::cli {

namespace {

// Who writes standard output. The time-out (a signal handler, maybe on
// another thread) and the end of the run each claim it with one atomic
// exchange; the loser never writes.
enum Phase : int {
  running,
  expired,   // the time ran out before the stop document was ready: it is printed as soon as it is
  decided,   // the run's own result is printed
  stopping,  // the stop document is printed, then the process exits
};
std::atomic<int> g_phase{running};
std::atomic<bool> g_document_follows{false};
std::atomic<bool> g_out_of_memory{false};
// Memory set aside when the limit is armed and given back at the first
// allocation that fails, so that the unwinding after it has room: a
// destructor that allocates (nlohmann's json frees a tree through a vector
// of its children) threw bad_alloc out of a noexcept frame, and the run
// ended in SIGABRT with no document.
constexpr std::size_t kUnwindReserve = 8u << 20;
void* g_unwind_reserve = nullptr;

// Read by the signal handler: only these, and only write(2) and _exit(2),
// which are safe there.
std::atomic<const std::string*> g_time_out_document{nullptr};
std::string g_time_out_message;
// Read by on_stop() and settled() only.
double g_seconds = 0;
std::size_t g_mib = 0;
std::string g_memory_document, g_memory_message;
bool g_has_memory_document = false;
// A document format's page (stop_documents_as), or null: the documents as written.
napkin::DocumentFormatter g_page = nullptr;
std::string g_page_title;
Format g_page_format = Format::text;

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Called by whoever moved the phase to `stopping`.
[[noreturn]] void stop_now() {
  if (const std::string* out = g_time_out_document.load()) write_all(1, out->data(), out->size());
  write_all(2, g_time_out_message.data(), g_time_out_message.size());
  ::_exit(2);
}

// The time ran out and no document is printed yet: print it if it is ready.
void stop_if_expired() {
  int p = expired;
  if (g_phase.compare_exchange_strong(p, stopping)) stop_now();
}

extern "C" void time_is_up(int) {
  int p = running;
  if (g_document_follows.load() && !g_time_out_document.load()) {
    if (!g_phase.compare_exchange_strong(p, expired)) return;
    // on_stop may have stored the document since it was looked at.
    if (g_time_out_document.load()) stop_if_expired();
    return;
  }
  if (g_phase.compare_exchange_strong(p, stopping)) stop_now();
}

// Every operator new that fails comes here first, and the failure is noted,
// so that no command can catch it and print a shorter result as if whole.
// While the run is still running, it ends here with the E0704 document,
// rendered when the limit was armed: unwinding a run that has no memory
// left cannot be trusted (a destructor that allocates, such as nlohmann's
// json freeing a tree, threw out of a noexcept frame and the process ended
// in SIGABRT with no document, 1 run in 3 at some limits). Once the run's
// own result is being printed, the failure is thrown, with the reserve given
// back for the unwinding.
void allocation_failed() {
  g_out_of_memory.store(true);
  // Not while the document itself is being made (on_stop), whose own
  // failures fall back to a smaller document.
  const bool ready = g_has_memory_document || !g_document_follows.load();
  int p = running;
  if (ready && g_phase.compare_exchange_strong(p, stopping)) {
    if (g_has_memory_document) write_all(1, g_memory_document.data(), g_memory_document.size());
    write_all(2, g_memory_message.data(), g_memory_message.size());
    ::_exit(2);
  }
  std::free(std::exchange(g_unwind_reserve, nullptr));
  throw std::bad_alloc();
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

void stop_documents_as(napkin::DocumentFormatter page, std::string title, Format format) {
  g_page = page;
  g_page_title = std::move(title);
  g_page_format = format;
}

void on_stop(const std::function<std::string(const Diagnostic&)>& document, Format format) {
  static std::string held[2];  // never freed while the handler may read one
  static int next = 0;
  auto finished = [&](std::string doc) {
    return g_page ? printed(g_page(g_page_title, doc), g_page_format) : printed(std::move(doc), format);
  };
  g_memory_document = finished(document(memory_diagnostic(g_mib)));
  g_has_memory_document = true;
  held[next] = finished(document(time_out_diagnostic(g_seconds)));
  g_time_out_document.store(&held[next]);
  next ^= 1;
  stop_if_expired();
}

void bound_run(double seconds, std::size_t mib, bool document_follows) {
  g_seconds = seconds;
  g_mib = mib;
  g_time_out_message = render(time_out_diagnostic(seconds));
  g_memory_message = render(memory_diagnostic(mib));
  g_document_follows.store(document_follows);
  // Touched, so that it is memory the run holds, not only address space.
  if (!g_unwind_reserve && (g_unwind_reserve = std::malloc(kUnwindReserve)))
    std::memset(g_unwind_reserve, 0, kUnwindReserve);
  std::set_new_handler(allocation_failed);
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

Result settled(Result r) {
  int p = running;
  if (!g_phase.compare_exchange_strong(p, decided)) {
    stop_if_expired();
    for (;;) ::pause();  // another thread is printing the stop document, and ends the process
  }
  const itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  if (!g_out_of_memory.load()) return r;
  if (g_has_memory_document) {
    r.out = std::move(g_memory_document);
    r.err = std::move(g_memory_message);
  } else if (r.err.find(g_memory_message) == std::string::npos) {
    r.err += g_memory_message;
  }
  r.code = 2;
  return r;
}

}  // namespace napkin::cli
