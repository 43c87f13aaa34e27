#include "evaluation.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace napkin::lsp {

std::unique_ptr<Evaluation> Evaluation::start(const std::function<std::string()>& work, double seconds) {
  int fds[2];
  if (::pipe(fds) != 0) return nullptr;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return nullptr;
  }
  if (pid == 0) {
    // The child: evaluate, write the findings, and leave without running
    // the parent's atexit handlers or flushing its buffers (_exit).
    ::close(fds[0]);
    // The editor's pipes are the server's alone: nothing the evaluation
    // might write can reach the protocol's stream.
    if (const int null = ::open("/dev/null", O_RDWR); null >= 0) {
      ::dup2(null, STDIN_FILENO);
      ::dup2(null, STDOUT_FILENO);
      if (null > STDOUT_FILENO) ::close(null);
    }
#if !defined(__SANITIZE_ADDRESS__)
    // Memory bounded as time is: past it an allocation fails, and the
    // evaluation reports E0702 (out of memory) rather than the machine
    // swapping. (AddressSanitizer reserves terabytes of address space.)
    const rlimit memory{kMemoryBytes, kMemoryBytes};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    std::string out;
    try {
      out = work();
    } catch (...) {
      ::_exit(3);
    }
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(4);
      done += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  std::unique_ptr<Evaluation> e(new Evaluation);
  e->pid_ = pid;
  e->fd_ = fds[0];
  e->seconds_ = seconds;
  e->deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  return e;
}

Evaluation::~Evaluation() {
  if (!done_) stop();
  if (fd_ >= 0) ::close(fd_);
}

int Evaluation::ms_left() const {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

void Evaluation::stop() {
  if (pid_ > 0) ::kill(pid_, SIGKILL);
  reap();
  stopped_ = true;
  done_ = true;
}

void Evaluation::reap() {
  if (pid_ <= 0) return;
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

bool Evaluation::poll() {
  if (done_) return true;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n > 0) {
      out_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {  // the child closed its end: finished
      reap();
      done_ = true;
      return true;
    }
    if (errno == EINTR) continue;
    break;  // EAGAIN: nothing more yet
  }
  if (Clock::now() >= deadline_) {
    out_.clear();
    stop();
  }
  return done_;
}

void Evaluation::wait() {
  while (!poll()) {
    pollfd p{fd_, POLLIN, 0};
    ::poll(&p, 1, std::max(1, ms_left()));
  }
}

}  // namespace napkin::lsp
