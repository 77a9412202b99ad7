#include "engine/pose_clock.hpp"

#include <cmath>
#include <cstdio>

#ifdef KDOP_POSE_CLOCK_TSC
#include <cpuid.h>
#endif

namespace kdop {
namespace {

bool invariant_tsc() {
#ifdef KDOP_POSE_CLOCK_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  if (__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx >> 8) & 1u;
#else
  return false;
#endif
}

PoseClock make_pose_clock() {
  PoseClock clock;
  if (!invariant_tsc()) return clock;
  // Two measurements that agree within 1%, at a rate of a real clock (100 MHz to 100 GHz);
  // otherwise the counter (or steady_clock, against which it is measured) cannot be trusted
  // here: keep steady_clock.
  const double rate = measure_us_per_tick(1'000'000);
  const double again = measure_us_per_tick(1'000'000);
  if (!(rate > 1e-5 && rate < 1e-2) || !(std::fabs(again - rate) <= 0.01 * rate)) return clock;
  clock.tsc = true;
  clock.us_per_tick = rate;
  return clock;
}

}  // namespace

std::optional<ClockReading> bracketed_reading(const PoseClock& clock) {
  std::optional<ClockReading> best;
  std::uint64_t best_width = ~std::uint64_t{0};
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::uint64_t before = clock.ticks();
    const auto time = std::chrono::steady_clock::now();
    const std::uint64_t after = clock.ticks();
    if (after < before || after - before >= best_width) continue;
    best_width = after - before;
    best = ClockReading{time, before + (after - before) / 2};
  }
  return best;
}

double measure_us_per_tick(std::uint64_t spin_ns) {
#ifdef KDOP_POSE_CLOCK_TSC
  const PoseClock counter{.tsc = true};
  const std::optional<ClockReading> start = bracketed_reading(counter);
  if (!start) return 0;
  while (static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now() - start->time)
                                        .count()) < spin_ns) {
  }
  const std::optional<ClockReading> end = bracketed_reading(counter);
  if (!end || end->ticks <= start->ticks) return 0;
  return std::chrono::duration<double, std::micro>(end->time - start->time).count() /
         static_cast<double>(end->ticks - start->ticks);
#else
  (void)spin_ns;
  return 0;
#endif
}

std::string pose_clock_name(const PoseClock& clock) {
  if (!clock.tsc) return "steady_clock";
  char text[64];
  std::snprintf(text, sizeof text, "the time-stamp counter (%.2f GHz)", 1e-3 / clock.us_per_tick);
  return text;
}

const PoseClock& pose_clock() {
  static const PoseClock clock = make_pose_clock();
  return clock;
}

}  // namespace kdop
