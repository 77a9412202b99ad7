// Replaces the global operator new of the io test executable to record the largest single
// request, for huge_count_test.cpp. Its own translation unit, so that no caller sees
// malloc/free inlined into new/delete (GCC's -Wmismatched-new-delete would flag that).
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace kdop::test {
namespace {
// Largest request since the last reset; atomic because gtest may allocate on other threads.
std::atomic<std::size_t> largest_request{0};
}  // namespace

void reset_largest_allocation() {
  largest_request.store(0);
}
std::size_t largest_allocation() {
  return largest_request.load();
}

}  // namespace kdop::test

void* operator new(std::size_t n) {
  auto& largest = kdop::test::largest_request;
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
