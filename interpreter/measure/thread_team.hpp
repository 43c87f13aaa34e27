#pragma once
// A fixed team of threads that run one function together, so a timed
// region measures the work and not thread start-up.
#include <algorithm>
#include <barrier>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace napkin::measure {

class ThreadTeam {
 public:
  explicit ThreadTeam(int size) : size_(size < 1 ? 1 : size), sync_(size_) {
    for (int i = 1; i < size_; ++i)
      workers_.emplace_back([this, i] {
        for (;;) {
          sync_.arrive_and_wait();
          if (stop_) return;
          work_(i);
          sync_.arrive_and_wait();
        }
      });
  }
  ~ThreadTeam() {
    stop_ = true;
    sync_.arrive_and_wait();
    for (auto& t : workers_) t.join();
  }
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
  int size_;
  std::barrier<> sync_;
  std::vector<std::thread> workers_;
  std::function<void(int)> work_;
  bool stop_ = false;
};

}  // namespace napkin::measure
