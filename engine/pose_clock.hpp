#pragma once
// The clock that times each pose of a batch (PoseResult::time_us). A steady_clock reading costs
// 26-28 ns on these VMs (kvm-clock), most of a pose that the bounding-sphere test answers; the
// CPU's time-stamp counter costs about 11 ns. Where the counter runs at a constant rate (x86 with
// an invariant TSC, CPUID 0x80000007 EDX bit 8; GCC or Clang) the batch reads it, and converts
// ticks to microseconds at a rate measured once per process against steady_clock; elsewhere it
// reads steady_clock in nanoseconds.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define KDOP_POSE_CLOCK_TSC 1
#endif

namespace kdop {

struct PoseClock {
  bool tsc = false;           // read the time-stamp counter, else steady_clock (ns)
  double us_per_tick = 1e-3;  // microseconds per tick

  // Not ordered against the instructions around it (no fence): a pose's time may move by tens
  // of cycles to its neighbour, which a fence would cost more than.
  std::uint64_t ticks() const {
#ifdef KDOP_POSE_CLOCK_TSC
    if (tsc) return __builtin_ia32_rdtsc();
#endif
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
  // Microseconds from `from` to `to`, never negative (a thread moved between cores whose
  // counters differ by a few ticks reads 0).
  double us_between(std::uint64_t from, std::uint64_t to) const {
    return to > from ? static_cast<double>(to - from) * us_per_tick : 0.0;
  }
};

// The process's pose clock. The first call measures the counter's rate (twice, 1 ms each,
// spinning on steady_clock: the caller waits about 2 ms; BatchQuery's constructor makes that
// call) and every later call returns the same value.
const PoseClock& pose_clock();

// "the time-stamp counter (2.45 GHz)" or "steady_clock", for reports.
std::string pose_clock_name(const PoseClock& clock);

// A steady_clock reading and `clock`'s ticks at it: the midpoint of the narrowest of 16
// brackets (ticks, steady_clock, ticks), so a try interrupted in between is not used. Empty if
// the ticks went backwards in every try (read on cores whose counters differ).
struct ClockReading {
  std::chrono::steady_clock::time_point time;
  std::uint64_t ticks = 0;
};
std::optional<ClockReading> bracketed_reading(const PoseClock& clock);

// The counter's rate in microseconds per tick: steady_clock's time over the counter's ticks
// across an interval of at least `spin_ns`. 0 where there is no counter.
double measure_us_per_tick(std::uint64_t spin_ns);

}  // namespace kdop
