#pragma once
// A probe of the global operator new, replaced by tests/support/allocation_probe.cpp in the
// test executables that link it: the largest single request and the number of requests since
// the last reset (both atomic: gtest and worker threads may allocate concurrently).
#include <cstddef>
#include <cstdint>

namespace kdop::test {

void reset_allocation_probe();
std::size_t largest_allocation();
std::uint64_t allocation_count();

}  // namespace kdop::test
