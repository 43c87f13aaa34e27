#pragma once
// A document's evaluation in the background: a child process (fork) that
// evaluates what the server loaded and writes back its findings, stopped
// (SIGKILL) when it runs past the time bound. A file that runs away (a
// sweep of a billion points, a recursion that only ends at the limit) then
// costs the editor nothing: the server keeps answering while it runs, and
// publishes a diagnostic (E0703) when it is stopped. A process, not a
// thread: only a process can be stopped at any instruction, its memory
// given back whole.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace napkin::lsp {

// The address space an evaluation may take.
constexpr unsigned long long kMemoryBytes = 4ull << 30;

class Evaluation {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs `work` in a child process and takes what it returns; null if no
  // child could be made (the caller then evaluates in its own process).
  static std::unique_ptr<Evaluation> start(const std::function<std::string()>& work, double seconds);
  ~Evaluation();  // a child still running is stopped

  int fd() const { return fd_; }
  // Milliseconds until the time bound, at least 0.
  int ms_left() const;
  // Reads what the child has written, without waiting; true once it is
  // finished (its output whole, or stopped at the time bound).
  bool poll();
  // Waits until it is finished.
  void wait();
  bool stopped() const { return stopped_; }
  double seconds() const { return seconds_; }
  const std::string& output() const { return out_; }

 private:
  Evaluation() = default;
  void stop();
  void reap();

  pid_t pid_ = -1;
  int fd_ = -1;
  double seconds_ = 0;
  Clock::time_point deadline_;
  std::string out_;
  bool done_ = false, stopped_ = false;
};

}  // namespace napkin::lsp
