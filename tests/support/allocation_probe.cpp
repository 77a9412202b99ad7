// Replaces the global operator new of a test executable to record the largest single request
// and count requests (allocation_probe.hpp). Its own translation unit, so that no caller sees
// malloc/free inlined into new/delete (GCC's -Wmismatched-new-delete would flag that).
#include "tests/support/allocation_probe.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace kdop::test {
namespace {
std::atomic<std::size_t> largest_request{0};
std::atomic<std::uint64_t> requests{0};
}  // namespace

void reset_allocation_probe() {
  largest_request.store(0);
  requests.store(0);
}
std::size_t largest_allocation() {
  return largest_request.load();
}
std::uint64_t allocation_count() {
  return requests.load();
}

}  // namespace kdop::test

void* operator new(std::size_t n) {
  auto& largest = kdop::test::largest_request;
  kdop::test::requests.fetch_add(1, std::memory_order_relaxed);
  std::size_t seen = largest.load(std::memory_order_relaxed);
  while (n > seen && !largest.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
