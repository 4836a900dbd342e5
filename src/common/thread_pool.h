// A fixed set of host threads that run tasks, the one with the largest predicted cost first (in
// submission order among equal costs), so that the longest tasks of a batch do not start last.
// The caller is one of the `threads`: the pool starts threads - 1 of its own, and the caller
// runs queued tasks itself while it waits for them (runOne, wait), so that `threads` tasks run
// at once and no more: a thread of ours never waits for a processor another of ours holds.
// With one thread no thread is started: tasks run on the caller, inside submit(). Tessera's GPU
// model uses it for the bins of a render pass (gpu/pipeline/bin_jobs.h), whose results never
// depend on which thread ran what.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

class ThreadPool final {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Tasks must not throw: they catch what they raise and report it through their own state.
  // `cost` is the task's predicted cost in any unit the caller uses for all of its tasks; it only
  // orders the queue.
  void submit(std::function<void()> task, uint64_t cost = 0);
  // A helper: a task that only speeds up work another thread is already doing, and gives its
  // thread back when work is queued (queuedWork). It runs after every queued task of work, the
  // oldest helper first, and is not counted as work: a helper whose work ended before it
  // started, still waiting in the queue, never makes a running one leave.
  void submitHelper(std::function<void()> task);
  // Runs the next queued task on the caller; false when none is queued.
  bool runOne();
  // Runs queued tasks on the caller, then blocks until every submitted task has finished.
  void wait();
  // Runs queued tasks on the caller until `done` holds, sleeping while none is queued: a task
  // submitted meanwhile (by a running task) runs here too. `done` is checked whenever a task
  // ends or is queued, under the pool's lock, so it must be cheap and must not use the pool.
  void runUntil(const std::function<bool()>& done);
  // Tasks other than helpers queued and not yet started, read without the lock (a hint for a
  // helper that spins).
  size_t queuedWork() const { return queuedWork_.load(std::memory_order_relaxed); }

 private:
  struct Task {
    std::function<void()> run;
    uint64_t cost;
    bool helper;
  };
  void push(Task task);
  void work();
  // Runs the next queued task (work before helpers, the largest cost first, the oldest of
  // equals); `lock` holds mutex_ before and after.
  void runNext(std::unique_lock<std::mutex>& lock);

  unsigned threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  // wake_: a task for a worker; idle_: nothing queued or running; progress_: a task queued or
  // ended, for callers in runUntil.
  std::condition_variable wake_, idle_, progress_;
  std::deque<Task> tasks_;
  size_t running_ = 0;
  std::atomic<size_t> queuedWork_{0};  // tasks_ that are not helpers, kept by the lock's holder
  bool stop_ = false;
};

// The host threads Tessera's GPU model uses by default: TESSERA_THREADS when set (1 to
// kMaxThreads; anything else throws std::invalid_argument naming the variable), else one per
// processor.
unsigned defaultThreads();
inline constexpr unsigned kMaxThreads = 256;
// Parses a thread count (1 to kMaxThreads) given by `what` (an option or variable name).
unsigned parseThreads(const char* text, const char* what);

}  // namespace tessera
