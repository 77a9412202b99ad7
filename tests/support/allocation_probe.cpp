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

namespace {

// Counts the request and allocates; nullptr when out of memory.
void* counted_malloc(std::size_t n) noexcept {
  auto& largest = kdop::test::largest_request;
  kdop::test::requests.fetch_add(1, std::memory_order_relaxed);
  std::size_t seen = largest.load(std::memory_order_relaxed);
  while (n > seen && !largest.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
  }
  return std::malloc(n == 0 ? 1 : n);
}

}  // namespace

// Every replaceable form that malloc can serve, so all of them are counted and every pointer
// is released by the matching free (std::stable_partition's buffer comes from the nothrow
// form: left out, a sanitizer's own nothrow new met this file's free).
void* operator new(std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
