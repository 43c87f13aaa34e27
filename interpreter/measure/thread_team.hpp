#pragma once
// A fixed team of threads that run one function together, so a timed
// region measures the work and not thread start-up.
#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>
#include "grammar/diagnostic.hpp"

namespace napkin::measure {

class ThreadTeam {
 public:
  // Past this a team measures the scheduler, not the memory or the cores;
  // settle() keeps the `threads` argument well below it.
  static constexpr int kMaxSize = 4096;

  // How a member is started; tests pass one that fails part-way.
  using Start = std::function<std::thread(std::function<void()>)>;

  // Throws napkin::Error, with every thread it started joined again,
  // when a thread cannot start or the size is beyond kMaxSize.
  explicit ThreadTeam(int size, const Start& start = nullptr) : size_(size < 1 ? 1 : size), sync_(size_) {
    if (size_ > kMaxSize)
      fail(codes::probe_unavailable, fmt::format("a team of {} threads is more than the {} napkin allows", size_, kMaxSize));
    workers_.reserve(static_cast<std::size_t>(size_ - 1));
    for (int i = 1; i < size_; ++i) {
      auto body = [this, i] {
        for (;;) {
          sync_.arrive_and_wait();
          if (stop_) return;
          work_(i);
          sync_.arrive_and_wait();
        }
      };
      try {
        workers_.push_back(start ? start(body) : std::thread(body));
      } catch (const std::exception& e) {
        // Joinable threads destroyed unjoined would call std::terminate:
        // they are waiting at the first barrier, so arrive for the caller
        // and for every member that never started, and they leave.
        release(i - 1);
        fail(codes::probe_unavailable, fmt::format("cannot start thread {} of {}: {}", i + 1, size_, e.what()));
      }
    }
  }
  ~ThreadTeam() { release(size_ - 1); }
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return size_; }

  // Calls fn(i) for i in [0, size) at once, the caller being member 0.
  void run(std::function<void(int)> fn) {
    work_ = std::move(fn);
    sync_.arrive_and_wait();
    work_(0);
    sync_.arrive_and_wait();
  }

  // The half-open share [begin, end) of n items that member i owns.
  std::pair<std::size_t, std::size_t> share(std::size_t n, int i) const {
    const std::size_t per = n / size_, extra = n % size_, k = static_cast<std::size_t>(i);
    const std::size_t begin = k * per + std::min(k, extra);
    return {begin, begin + per + (k < extra ? 1 : 0)};
  }

 private:
  // Ends the team while `running` workers wait at the barrier: the caller
  // arrives for itself and for every member that is not running, so the
  // phase completes, the workers see stop_ and return, and are joined.
  void release(int running) {
    stop_ = true;
    (void)sync_.arrive(size_ - running);
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  int size_;
  std::barrier<> sync_;
  std::vector<std::thread> workers_;
  std::function<void(int)> work_;
  bool stop_ = false;  // written before an arrival, read after the phase it completes
};

}  // namespace napkin::measure
