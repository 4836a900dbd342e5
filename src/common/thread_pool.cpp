#include "common/thread_pool.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessera {

ThreadPool::ThreadPool(unsigned threads) : threads_(threads < 1 ? 1 : threads) {
  if (threads_ == 1) return;
  workers_.reserve(threads_ - 1);
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::submit(std::function<void()> task, uint64_t cost) {
  push({std::move(task), cost, false});
}

void ThreadPool::submitHelper(std::function<void()> task) {
  push({std::move(task), 0, true});
}

void ThreadPool::push(Task task) {
  if (workers_.empty()) {
    task.run();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!task.helper) queuedWork_.fetch_add(1, std::memory_order_relaxed);
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
  progress_.notify_all();  // a caller in runUntil may take it
}

bool ThreadPool::runOne() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (tasks_.empty()) return false;
  runNext(lock);
  return true;
}

void ThreadPool::runNext(std::unique_lock<std::mutex>& lock) {
  // Work before helpers, then the costliest; max_element keeps the first of equal elements: the
  // oldest of equal costs.
  const auto next =
      std::max_element(tasks_.begin(), tasks_.end(), [](const Task& a, const Task& b) {
        return std::pair(!a.helper, a.cost) < std::pair(!b.helper, b.cost);
      });
  std::function<void()> task = std::move(next->run);
  if (!next->helper) queuedWork_.fetch_sub(1, std::memory_order_relaxed);
  tasks_.erase(next);
  ++running_;
  lock.unlock();
  task();
  lock.lock();
  --running_;
  if (tasks_.empty() && running_ == 0) idle_.notify_all();
  progress_.notify_all();  // a caller in runUntil waits for a task to end
}

void ThreadPool::wait() {
  while (runOne()) {
  }
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return tasks_.empty() && running_ == 0; });
}

void ThreadPool::runUntil(const std::function<bool()>& done) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (done()) return;
    if (!tasks_.empty()) {
      runNext(lock);
      continue;
    }
    progress_.wait(lock);
  }
}

void ThreadPool::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, and nothing left
    runNext(lock);
  }
}

unsigned parseThreads(const char* text, const char* what) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno || end == text || *end || v < 1 || v > long{kMaxThreads})
    throw std::invalid_argument(std::string(what) + "=" + text +
                                ": expected a thread count from 1 to " +
                                std::to_string(kMaxThreads));
  return static_cast<unsigned>(v);
}

unsigned defaultThreads() {
  if (const char* env = std::getenv("TESSERA_THREADS")) return parseThreads(env, "TESSERA_THREADS");
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : std::min(n, kMaxThreads);
}

}  // namespace tessera
