#include "engine/parallel.hpp"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace kdop {

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

struct ParallelRunner::Arena {
  tbb::task_arena arena;
};

ParallelRunner::ParallelRunner(unsigned threads)
    : threads_(threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency()) : threads) {
  if (threads_ > 1)
    arena_ = std::make_unique<Arena>(Arena{tbb::task_arena(static_cast<int>(threads_))});
}

ParallelRunner::~ParallelRunner() = default;
ParallelRunner::ParallelRunner(ParallelRunner&&) noexcept = default;
ParallelRunner& ParallelRunner::operator=(ParallelRunner&&) noexcept = default;

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

unsigned ParallelRunner::worker_id() const {
  if (!arena_) return 0;
  const int slot = tbb::this_task_arena::current_thread_index();
  return slot < 0 ? 0u : static_cast<unsigned>(slot);
}

}  // namespace kdop
