#include "engine/parallel.hpp"

#include <memory>

#if KDOP_PARALLEL_STD
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#else
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>
#endif

namespace kdop {

#if !KDOP_PARALLEL_STD

bool parallel_backend_spawns_threads() {
  return false;
}

void run_tasks(std::size_t count, void (*task)(void*, std::size_t), void* context, bool parallel) {
  if (!parallel || count < 2) {
    for (std::size_t i = 0; i < count; ++i) task(context, i);
    return;
  }
  // Isolated: while this thread waits for the tasks, oneTBB would otherwise let it run any task
  // of the arena, such as another block of poses, which would take over this thread's
  // per-worker scratch (ParallelRunner::worker_id) in the middle of the caller's query.
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, count, 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t i = r.begin(); i != r.end(); ++i) task(context, i);
        },
        tbb::simple_partitioner());
  });
}

void run_ranges(std::size_t begin, std::size_t end, std::size_t grain,
                void (*range)(void*, std::size_t, std::size_t), void* context) {
  if (begin >= end) return;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(begin, end, std::max<std::size_t>(grain, 1)),
      [&](const tbb::blocked_range<std::size_t>& r) { range(context, r.begin(), r.end()); });
}

void run_both(void (*first)(void*), void* a, void (*second)(void*), void* b) {
  tbb::parallel_invoke([&] { first(a); }, [&] { second(b); });
}

struct ParallelRunner::Arena {
  // More threads than cores were asked for: oneTBB's pool is capped at the cores unless raised
  // (it would otherwise run fewer threads and print a warning), for as long as the runner lives.
  std::unique_ptr<tbb::global_control> pool_limit;
  tbb::task_arena arena;
};

ParallelRunner::ParallelRunner(unsigned threads)
    : threads_(threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency()) : threads) {
  if (threads_ <= 1) return;
  arena_ = std::make_unique<Arena>();
  if (threads_ > static_cast<unsigned>(tbb::info::default_concurrency())) {
    arena_->pool_limit = std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism, threads_);
  }
  arena_->arena.initialize(static_cast<int>(threads_));
}

void ParallelRunner::run_indices(std::size_t count, void (*call)(void*, std::size_t), void* body) {
  if (!arena_) {
    for (std::size_t i = 0; i < count; ++i) call(body, i);
    return;
  }
  arena_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, count, 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t i = r.begin(); i != r.end(); ++i) call(body, i);
        },
        tbb::simple_partitioner());
  });
}

unsigned task_slot() {
  const int slot = tbb::this_task_arena::current_thread_index();
  return slot < 0 ? 0u : static_cast<unsigned>(slot);
}

unsigned task_slots() {
  return static_cast<unsigned>(std::max(tbb::this_task_arena::max_concurrency(), 1));
}

unsigned ParallelRunner::worker_id() const {
  return arena_ ? task_slot() : 0;
}

#else  // KDOP_PARALLEL_STD: plain threads, for ThreadSanitizer

namespace {

// The id of a ParallelRunner worker on this thread (0 elsewhere).
thread_local unsigned this_worker = 0;

unsigned hardware_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

// Runs work(k) on k = 1..extra in new threads and work(0) on the caller; rethrows the first
// exception after all have joined.
template <class Work>
void on_threads(unsigned extra, Work&& work) {
  std::exception_ptr error;
  std::mutex error_mutex;
  auto guarded = [&](unsigned k) {
    try {
      work(k);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(extra);
  for (unsigned k = 1; k <= extra; ++k) threads.emplace_back(guarded, k);
  guarded(0);
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace

bool parallel_backend_spawns_threads() {
  return true;
}

void run_tasks(std::size_t count, void (*task)(void*, std::size_t), void* context, bool) {
  for (std::size_t i = 0; i < count; ++i) task(context, i);
}

unsigned task_slot() {
  return 0;
}

unsigned task_slots() {
  return 1;
}

void run_ranges(std::size_t begin, std::size_t end, std::size_t grain,
                void (*range)(void*, std::size_t, std::size_t), void* context) {
  if (begin >= end) return;
  grain = std::max<std::size_t>(grain, 1);
  const std::size_t chunks = (end - begin + grain - 1) / grain;
  std::atomic<std::size_t> next{0};
  const unsigned extra =
      static_cast<unsigned>(std::min<std::size_t>(chunks, hardware_threads())) - 1;
  on_threads(extra, [&](unsigned) {
    for (std::size_t c = next++; c < chunks; c = next++) {
      range(context, begin + c * grain, std::min(end, begin + (c + 1) * grain));
    }
  });
}

void run_both(void (*first)(void*), void* a, void (*second)(void*), void* b) {
  // Recursive builders nest these: past a few dozen live threads the rest run inline.
  static std::atomic<unsigned> live{0};
  if (live.fetch_add(1) >= 4 * hardware_threads()) {
    live.fetch_sub(1);
    first(a);
    second(b);
    return;
  }
  on_threads(1, [&](unsigned k) { k == 1 ? first(a) : second(b); });
  live.fetch_sub(1);
}

struct ParallelRunner::Arena {};

ParallelRunner::ParallelRunner(unsigned threads)
    : threads_(threads == 0 ? hardware_threads() : threads) {}

void ParallelRunner::run_indices(std::size_t count, void (*call)(void*, std::size_t), void* body) {
  if (count == 0) return;
  std::atomic<std::size_t> next{0};
  const unsigned extra = static_cast<unsigned>(std::min<std::size_t>(count, threads_)) - 1;
  const unsigned outer = this_worker;
  on_threads(extra, [&](unsigned k) {
    this_worker = k;
    for (std::size_t i = next++; i < count; i = next++) call(body, i);
  });
  this_worker = outer;
}

unsigned ParallelRunner::worker_id() const {
  return this_worker;
}

#endif

ParallelRunner::~ParallelRunner() = default;
ParallelRunner::ParallelRunner(ParallelRunner&&) noexcept = default;
ParallelRunner& ParallelRunner::operator=(ParallelRunner&&) noexcept = default;

}  // namespace kdop
