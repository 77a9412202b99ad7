// Interpolation between waypoints and the motion bound the continuous check rests on.
#include "verify/motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

Waypoint waypoint(double t, std::array<double, 3> translation, double angle,
                  std::array<double, 3> axis) {
  const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double s = std::sin(angle / 2) / n;
  return {t, translation, {std::cos(angle / 2), s * axis[0], s * axis[1], s * axis[2]}, 0};
}

TEST(Motion, RotationAngleIsTwiceTheArc) {
  const Waypoint a = waypoint(0, {0, 0, 0}, 0, {0, 0, 1});
  for (double angle : {0.0, 1e-12, 1e-7, 0.3, 1.5, 3.0, std::numbers::pi}) {
    const Waypoint b = waypoint(1, {0, 0, 0}, angle, {1, 2, 3});
    EXPECT_NEAR(rotation_angle(a.rotation, b.rotation), angle, 1e-15 + 1e-13 * angle);
    // -q is the same rotation.
    const std::array<double, 4> minus{-b.rotation[0], -b.rotation[1], -b.rotation[2],
                                      -b.rotation[3]};
    EXPECT_NEAR(rotation_angle(a.rotation, minus), angle, 1e-15 + 1e-13 * angle);
  }
  // Past pi the shorter way round: 3 pi / 2 is pi / 2 the other way.
  EXPECT_NEAR(
      rotation_angle(a.rotation, waypoint(1, {}, 1.5 * std::numbers::pi, {0, 0, 1}).rotation),
      0.5 * std::numbers::pi, 1e-14);
}

TEST(Motion, PureTranslationKeepsTheRotationExactly) {
  const Waypoint a = waypoint(0, {1, 2, 3}, 0.7, {1, 1, 0});
  Waypoint b = a;
  b.t = 2;
  b.translation = {5, -2, 3};
  for (double t : {0.0, 0.3, 1.0, 1.7, 2.0}) {
    const MotionState s = interpolate(a, b, t);
    EXPECT_EQ(s.rotation, a.rotation);
    EXPECT_DOUBLE_EQ(s.translation[0], 1 + 4 * t / 2);
    EXPECT_DOUBLE_EQ(s.translation[1], 2 - 4 * t / 2);
  }
  // The same rotation written as -q is still a pure translation.
  for (double& q : b.rotation) q = -q;
  EXPECT_EQ(interpolate(a, b, 0.9).rotation, a.rotation);
}

TEST(Motion, SlerpTurnsAtAConstantRate) {
  const Waypoint a = waypoint(0, {0, 0, 0}, 0, {0, 0, 1});
  const Waypoint b = waypoint(4, {0, 0, 0}, 2.0, {0, 0, 1});
  for (double t : {0.0, 1.0, 2.0, 3.0, 4.0}) {
    const Pose p = to_pose(interpolate(a, b, t));
    const double angle = std::atan2(p.r[3], p.r[0]);  // about z
    EXPECT_NEAR(angle, 0.5 * t, 1e-14);
  }
  // The ends are the waypoints exactly.
  EXPECT_EQ(interpolate(a, b, 4.0).rotation, b.rotation);
  EXPECT_EQ(interpolate(a, b, 0.0).rotation, a.rotation);
}

TEST(Motion, StateAtRestsBeforeAndAfterAndPicksTheSegment) {
  std::vector<Waypoint> path{waypoint(1, {0, 0, 0}, 0, {0, 0, 1}),
                             waypoint(2, {1, 0, 0}, 0, {0, 0, 1}),
                             waypoint(4, {1, 2, 0}, 0, {0, 0, 1})};
  EXPECT_EQ(state_at(path, -5).translation, path[0].translation);
  EXPECT_EQ(state_at(path, 9).translation, path[2].translation);
  EXPECT_DOUBLE_EQ(state_at(path, 3).translation[1], 1.0);
  EXPECT_EQ(segment_at(path, 1.5), 0u);
  EXPECT_EQ(segment_at(path, 2.0), 1u);
  EXPECT_EQ(segment_at(path, 4.0), 1u);
  EXPECT_EQ(segment_at(path, 0.0), 0u);
}

// The speed bound against the motion itself: no corner of a random object moves farther than
// speed * h in any time h, on random segments.
TEST(Motion, SpeedBoundCoversEveryPointsMotion) {
  std::uint64_t rng = 7;
  const Mesh object = make_tetrahedra({-1, -2, -1}, {2, 1, 1}, 10, 0.7, 3);
  double radius = 0;
  for (std::size_t v = 0; v < object.vertex_count(); ++v) {
    radius = std::max(radius, std::sqrt(object.x[v] * object.x[v] + object.y[v] * object.y[v] +
                                        object.z[v] * object.z[v]));
  }
  for (int trial = 0; trial < 200; ++trial) {
    auto u = [&] { return 2 * next_uniform(rng) - 1; };
    const Waypoint a = waypoint(0, {u(), u(), u()}, 3.1 * next_uniform(rng), {u(), u(), u()});
    const Waypoint b = waypoint(0.5 + next_uniform(rng), {u(), u(), u()}, 3.1 * next_uniform(rng),
                                {u(), u(), u()});
    const double speed = speed_bound(a, b, radius);
    for (int k = 0; k < 20; ++k) {
      const double t = b.t * next_uniform(rng);
      const double h = (b.t - t) * next_uniform(rng);
      const Pose p = to_pose(interpolate(a, b, t)), q = to_pose(interpolate(a, b, t + h));
      for (std::size_t v = 0; v < object.vertex_count(); ++v) {
        const Vec3 x{object.x[v], object.y[v], object.z[v]};
        const double moved = norm(apply_pose(q, x) - apply_pose(p, x));
        ASSERT_LE(moved, speed * h + 1e-12) << "trial " << trial;
      }
    }
  }
}

TEST(Motion, RelativePoseMapsIntoTheOtherFrame) {
  std::uint64_t rng = 11;
  for (int i = 0; i < 50; ++i) {
    const Pose a = random_pose(rng, {-3, -3, -3}, {3, 3, 3});
    const Pose b = random_pose(rng, {-3, -3, -3}, {3, 3, 3});
    const Pose r = relative_pose(a, b);
    const Vec3 x{next_uniform(rng), next_uniform(rng), next_uniform(rng)};
    // a (a^-1 b x) = b x
    const Vec3 there = apply_pose(a, apply_pose(r, x)), direct = apply_pose(b, x);
    EXPECT_NEAR(there.x, direct.x, 1e-13);
    EXPECT_NEAR(there.y, direct.y, 1e-13);
    EXPECT_NEAR(there.z, direct.z, 1e-13);
  }
}

}  // namespace
}  // namespace kdop
