#pragma once
// The one place kdop's engine meets a thread pool: index ranges run as tasks on oneTBB's
// work-stealing scheduler inside an arena of a chosen size, or inline when one thread is asked
// for (the same code, sequentially, as tests and debugging want).
#include <cstddef>
#include <memory>

namespace kdop {

// Runs task(context, i) for i in [0, count): as stealable oneTBB tasks in the caller's arena
// when `parallel` (isolated: the waiting caller runs only these tasks, never unrelated work that
// could reuse its per-thread state), else one after the other. Compiled once, for the baseline ISA;
// the per-ISA query code reaches oneTBB only through this function (engine/isa/).
void run_tasks(std::size_t count, void (*task)(void*, std::size_t), void* context, bool parallel);

class ParallelRunner {
 public:
  // threads == 0: every hardware thread.
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
