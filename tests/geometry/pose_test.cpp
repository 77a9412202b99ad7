#include "geometry/pose.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace kdop {
namespace {

TEST(Pose, QuaternionIsNormalized) {
  const Pose a = pose_from_quaternion(1, 2, 3, 2, 0, 0, 2);  // 90 degrees about z, scaled
  const Vec3 p = apply_pose(a, {1, 0, 0});
  EXPECT_NEAR(p.x, 1.0, 1e-15);
  EXPECT_NEAR(p.y, 3.0, 1e-15);
  EXPECT_NEAR(p.z, 3.0, 1e-15);
}

// Any finite non-zero quaternion normalizes, even where its squared norm overflows or
// underflows in double: the same rotation as its unit form, 90 degrees about z.
TEST(Pose, HugeAndTinyQuaternionsNormalize) {
  for (double s : {1e300, 1e-300, 4e-320 /* subnormal */, 1.7e308}) {
    const Pose a = pose_from_quaternion(1, 2, 3, s, 0, 0, s);
    const Vec3 p = apply_pose(a, {1, 0, 0});
    EXPECT_NEAR(p.x, 1.0, 1e-15) << s;
    EXPECT_NEAR(p.y, 3.0, 1e-15) << s;
    EXPECT_NEAR(p.z, 3.0, 1e-15) << s;
  }
}

TEST(Pose, ZeroOrNonFiniteQuaternionIsAnError) {
  EXPECT_THROW(pose_from_quaternion(0, 0, 0, 0, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(pose_from_quaternion(0, 0, 0, NAN, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(pose_from_quaternion(INFINITY, 0, 0, 1, 0, 0, 0), std::invalid_argument);
}

TEST(Pose, MatrixRowsActOnColumnVectors) {
  const Pose p = pose_from_matrix({0, -1, 0, 10, 1, 0, 0, 20, 0, 0, 1, 30, 0, 0, 0, 1});
  const Vec3 q = apply_pose(p, {1, 2, 3});
  EXPECT_EQ(q.x, 8.0);
  EXPECT_EQ(q.y, 21.0);
  EXPECT_EQ(q.z, 33.0);
}

TEST(Pose, MatrixMustBeARotation) {
  EXPECT_THROW(pose_from_matrix({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1}),
               std::invalid_argument);  // reflection
  EXPECT_THROW(pose_from_matrix({2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}),
               std::invalid_argument);  // scale
  EXPECT_THROW(pose_from_matrix({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1}),
               std::invalid_argument);  // last row
  EXPECT_NO_THROW(pose_from_matrix({1, 1e-7, 0, 0, -1e-7, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(Pose, SoaRoutineMatchesPointRoutineBitForBit) {
  const Pose p = pose_from_quaternion(0.1, -0.2, 0.3, 0.3, 0.5, -0.7, 0.2);
  const double x[3] = {0.1, 1e6, -3.3}, y[3] = {0.7, -2.5, 1e-9}, z[3] = {1.0 / 3, 0, 4};
  double ox[3], oy[3], oz[3];
  apply_pose(p, x, y, z, 3, ox, oy, oz);
  for (int i = 0; i < 3; ++i) {
    const Vec3 q = apply_pose(p, {x[i], y[i], z[i]});
    EXPECT_EQ(q.x, ox[i]);
    EXPECT_EQ(q.y, oy[i]);
    EXPECT_EQ(q.z, oz[i]);
  }
}

}  // namespace
}  // namespace kdop
