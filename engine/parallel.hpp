#pragma once
// The one place kdop meets a thread pool: index ranges run as tasks on oneTBB's work-stealing
// scheduler inside an arena of a chosen size, or inline when one thread is asked for (the same
// code, sequentially, as tests and debugging want). The builders and readers reach threads only
// through parallel_for_ranges and parallel_invoke below, the engine through ParallelRunner and
// run_tasks.
//
// Backends (CMake KDOP_PARALLEL_BACKEND, compiled into parallel.cpp only): "tbb", the default,
// and "std", plain std::threads, for ThreadSanitizer runs: Debian's oneTBB is not instrumented,
// so TSan cannot see its synchronisation and would report its hand-offs as races. The std
// backend runs ParallelRunner's indices on that many threads, splits ranges over the hardware
// threads and runs nested run_tasks inline (a split query's tasks would otherwise need worker
// ids of their own); it is for checking, not for speed.
#include <cstddef>
#include <exception>
#include <memory>
#include <type_traits>

namespace kdop {

// Runs task(context, i) for i in [0, count): as stealable oneTBB tasks in the caller's arena
// when `parallel` (isolated: the waiting caller runs only these tasks, never unrelated work that
// could reuse its per-thread state), else one after the other. Compiled once, for the baseline ISA;
// the per-ISA query code reaches oneTBB only through this function (engine/isa/).
void run_tasks(std::size_t count, void (*task)(void*, std::size_t), void* context, bool parallel);

// The calling thread's slot among the threads that may run run_tasks' tasks (its slot in the
// current oneTBB arena), in [0, task_slots()): a split query's tasks keep per-thread caches by it.
// task_slots() is asked before run_tasks, task_slot() inside each task; the std backend runs the
// tasks inline, on slot 0 of 1.
unsigned task_slot();
unsigned task_slots();

// True for the std::thread backend, which creates its threads on every run (so the batch
// engine's no-allocation-after-warm-up guarantee is the oneTBB backend's).
bool parallel_backend_spawns_threads();

// Calls range(context, lo, hi) on disjoint sub-ranges covering [begin, end), each at most about
// `grain` long, in parallel. Exceptions propagate to the caller (one of them).
void run_ranges(std::size_t begin, std::size_t end, std::size_t grain,
                void (*range)(void*, std::size_t, std::size_t), void* context);

// Calls first(a) and second(b), possibly at the same time, and returns when both are done.
void run_both(void (*first)(void*), void* a, void (*second)(void*), void* b);

template <class Body>
void parallel_for_ranges(std::size_t begin, std::size_t end, std::size_t grain, Body&& body) {
  using B = std::remove_reference_t<Body>;
  run_ranges(
      begin, end, grain,
      [](void* c, std::size_t lo, std::size_t hi) { (*static_cast<B*>(c))(lo, hi); }, &body);
}

// body(i) for every i in [0, count), one index per task.
template <class Body>
void parallel_for_indices(std::size_t count, Body&& body) {
  parallel_for_ranges(0, count, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) body(i);
  });
}

// f() and g(), possibly at the same time. An exception of either is held until both are done and
// then rethrown (f's first): thrown through the scheduler it would cancel the other's nested
// parallel loops, which then return early and leave it to go on with partial results.
template <class F, class G>
void parallel_invoke(F&& f, G&& g) {
  std::exception_ptr f_error, g_error;
  auto guarded = [](auto& work, std::exception_ptr& error) {
    return [&work, &error] {
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
    };
  };
  auto guarded_f = guarded(f, f_error);
  auto guarded_g = guarded(g, g_error);
  using FF = decltype(guarded_f);
  using GG = decltype(guarded_g);
  run_both([](void* c) { (*static_cast<FF*>(c))(); }, &guarded_f,
           [](void* c) { (*static_cast<GG*>(c))(); }, &guarded_g);
  if (f_error) std::rethrow_exception(f_error);
  if (g_error) std::rethrow_exception(g_error);
}

class ParallelRunner {
 public:
  // threads == 0: every hardware thread. More threads than cores raise oneTBB's process-wide pool
  // limit while the runner lives; where several such runners live at once, oneTBB keeps the
  // smallest of their limits (the answers do not change, only the speed).
  explicit ParallelRunner(unsigned threads);
  ~ParallelRunner();
  ParallelRunner(ParallelRunner&&) noexcept;
  ParallelRunner& operator=(ParallelRunner&&) noexcept;

  unsigned threads() const { return threads_; }

  // Calls body(i) for every i in [0, count), each index as one stealable task (grain 1): the
  // caller chooses what an index is worth (a block of poses). Returns when all are done. The
  // body is passed by reference, never copied or wrapped, so a call allocates nothing.
  template <class Body>
  void for_each_index(std::size_t count, Body& body) {
    run_indices(
        count, [](void* b, std::size_t i) { (*static_cast<Body*>(b))(i); }, &body);
  }

  // A small dense id of the calling worker thread, in [0, threads()), for per-thread state;
  // valid inside for_each_index's body.
  unsigned worker_id() const;

 private:
  void run_indices(std::size_t count, void (*call)(void*, std::size_t), void* body);

  unsigned threads_;
  struct Arena;
  std::unique_ptr<Arena> arena_;
};

}  // namespace kdop
