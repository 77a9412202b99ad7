// The batch's pose clock: ticks convert to the time steady_clock measures over the same interval,
// a reading before an earlier one gives 0, never a negative time, and reports name the source.
#include "engine/pose_clock.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace kdop {
namespace {

// Both clocks across one interval of about 100 ms, each end read as steady_clock between two
// tick readings; an end whose two tick readings lie far apart (the thread was interrupted there)
// is read again.
struct Interval {
  double steady_us = 0, pose_clock_us = 0;
};

Interval measure_interval(const PoseClock& clock) {
  using Steady = std::chrono::steady_clock;
  auto read_end = [&](Steady::time_point& time, std::uint64_t& ticks) {
    double best = INFINITY;
    for (int attempt = 0; attempt < 32; ++attempt) {
      const std::uint64_t before = clock.ticks();
      const Steady::time_point t = Steady::now();
      const std::uint64_t after = clock.ticks();
      if (after < before) continue;  // read on two cores whose counters differ
      const double width = clock.us_between(before, after);
      if (width < best) {
        best = width;
        time = t;
        ticks = before + (after - before) / 2;
      }
    }
  };
  Steady::time_point t0, t1;
  std::uint64_t c0 = 0, c1 = 0;
  read_end(t0, c0);
  while (Steady::now() - t0 < std::chrono::milliseconds(100)) {
  }
  read_end(t1, c1);
  return {std::chrono::duration<double, std::micro>(t1 - t0).count(), clock.us_between(c0, c1)};
}

// (Where the pose clock is steady_clock itself, this compares it with itself.)
TEST(PoseClock, AgreesWithSteadyClockOverAnInterval) {
  const PoseClock& clock = pose_clock();
  // A shared machine may stall one reading: the best of three intervals must agree within 1%.
  double best_error = INFINITY;
  for (int round = 0; round < 3 && best_error > 0.01; ++round) {
    const Interval i = measure_interval(clock);
    ASSERT_GT(i.steady_us, 0.0);
    best_error = std::min(best_error, std::fabs(i.pose_clock_us - i.steady_us) / i.steady_us);
  }
  EXPECT_LT(best_error, 0.01) << (clock.tsc ? "time-stamp counter" : "steady_clock");
}

TEST(PoseClock, RateMeasurementIsStable) {
  const PoseClock& clock = pose_clock();
  const double rate = measure_us_per_tick(5'000'000);
  if (!clock.tsc) {
    EXPECT_DOUBLE_EQ(clock.us_per_tick, 1e-3);  // steady_clock's nanoseconds
    GTEST_SKIP() << "no invariant time-stamp counter, or its rate was not trusted: the pose "
                    "clock reads steady_clock";
  }
  ASSERT_GT(rate, 0.0);
  EXPECT_NEAR(rate / clock.us_per_tick, 1.0, 0.01);
}

TEST(PoseClock, AnEarlierReadingGivesZeroNotANegativeTime) {
  PoseClock clock;
  clock.us_per_tick = 0.25;
  EXPECT_EQ(clock.us_between(100, 140), 10.0);
  EXPECT_EQ(clock.us_between(140, 100), 0.0);
  EXPECT_EQ(clock.us_between(7, 7), 0.0);
}

TEST(PoseClock, NamesItsSourceForReports) {
  PoseClock clock;
  EXPECT_EQ(pose_clock_name(clock), "steady_clock");
  clock.tsc = true;
  clock.us_per_tick = 1.0 / 2100.0;  // 2.1 GHz
  EXPECT_EQ(pose_clock_name(clock), "the time-stamp counter (2.10 GHz)");
}

}  // namespace
}  // namespace kdop
