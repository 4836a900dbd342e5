// The host thread pool the bins of a render pass run on: the caller is one of its threads, so
// it runs queued tasks while it waits, the costliest first (the oldest of equal costs), and never
// more than `threads` run at once.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "common/thread_pool.h"

namespace tessera {
namespace {

TEST(ThreadPool, OneThreadRunsEachTaskOnTheCallerInsideSubmit) {
  ThreadPool pool(1);
  std::vector<int> order;
  for (int i = 0; i < 4; ++i) {
    pool.submit([&order, i] { order.push_back(i); });
    EXPECT_EQ(order.size(), size_t(i + 1)) << "task " << i << " did not run inside submit";
  }
  EXPECT_FALSE(pool.runOne());
  pool.wait();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
}

TEST(ThreadPool, TheCallerIsOneOfTheThreadsAndNoMoreThanThatManyRunAtOnce) {
  constexpr unsigned kThreads = 3;
  ThreadPool pool(kThreads);
  std::mutex mutex;
  std::set<std::thread::id> ran;
  std::atomic<int> running = 0, most = 0;
  for (int i = 0; i < 64; ++i)
    pool.submit([&] {
      const int now = ++running;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      {
        std::lock_guard<std::mutex> lock(mutex);
        ran.insert(std::this_thread::get_id());
      }
      --running;
    });
  pool.wait();
  EXPECT_LE(most.load(), int(kThreads));
  EXPECT_LE(ran.size(), size_t{kThreads});
  // The pool's own threads took tasks while the caller was still submitting; the caller ran
  // the ones still queued when it began to wait.
  EXPECT_TRUE(ran.contains(std::this_thread::get_id()));
}

// A pool of two threads whose own thread is held by a first task until release(): the tasks
// submitted meanwhile wait in the queue for the caller's runOne.
struct HeldPool {
  ThreadPool pool{2};
  std::mutex gate;
  std::unique_lock<std::mutex> hold{gate};
  std::atomic<bool> started = false;
  HeldPool() {
    pool.submit([this] {
      started = true;
      std::lock_guard<std::mutex> lock(gate);
    });
    while (!started) std::this_thread::yield();
  }
  // Lets the first task finish and waits for every task.
  void release() {
    if (hold.owns_lock()) hold.unlock();
    pool.wait();
  }
  ~HeldPool() { release(); }
};

TEST(ThreadPool, RunOneTakesTheOldestQueuedTaskOnTheCaller) {
  HeldPool held;
  std::vector<int> order;
  held.pool.submit([&order] { order.push_back(1); });
  held.pool.submit([&order] { order.push_back(2); });
  EXPECT_TRUE(held.pool.runOne());
  EXPECT_EQ(order, std::vector<int>{1});
  EXPECT_TRUE(held.pool.runOne());
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_FALSE(held.pool.runOne());
}

TEST(ThreadPool, TheCostliestQueuedTaskRunsFirstAndTheOldestOfEqualCosts) {
  HeldPool held;
  std::vector<int> order;
  const uint64_t costs[] = {5, 20, 5, 0, 20, 7};
  for (int i = 0; i < 6; ++i) held.pool.submit([&order, i] { order.push_back(i); }, costs[i]);
  while (held.pool.runOne()) {
  }
  EXPECT_EQ(order, (std::vector<int>{1, 4, 5, 0, 2, 3}));
}

TEST(ThreadPool, HelpersRunAfterQueuedWorkAndAreNotCountedAsWork) {
  HeldPool held;
  std::vector<int> order;
  held.pool.submitHelper([&order] { order.push_back(1); });
  EXPECT_EQ(held.pool.queuedWork(), 0u) << "a queued helper counts as work";
  held.pool.submitHelper([&order] { order.push_back(2); });
  held.pool.submit([&order] { order.push_back(3); });
  held.pool.submit([&order] { order.push_back(4); }, 9);
  EXPECT_EQ(held.pool.queuedWork(), 2u);
  while (held.pool.runOne()) {
  }
  EXPECT_EQ(held.pool.queuedWork(), 0u);
  // Work first, the costliest first; then the helpers, the oldest first.
  EXPECT_EQ(order, (std::vector<int>{4, 3, 1, 2}));
}

TEST(ThreadPool, OneThreadRunsAHelperOnTheCallerInsideSubmit) {
  ThreadPool pool(1);
  bool ran = false;
  pool.submitHelper([&ran] { ran = true; });
  EXPECT_TRUE(ran);
  EXPECT_EQ(pool.queuedWork(), 0u);
}

}  // namespace
}  // namespace tessera
