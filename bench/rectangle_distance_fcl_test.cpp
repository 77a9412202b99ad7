// kdop's rectangle distance (geometry/rectangle_distance.hpp) against FCL's rectDistance, the
// peer's own routine for its RSS volumes, as an independent oracle.
#include <fcl/math/bv/RSS.h>
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/pose.hpp"
#include "geometry/rectangle_distance.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

double fcl_distance(const double a[2], const double b[2], const double R[9], const double T[3]) {
  fcl::Matrix3d rab;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) rab(i, j) = R[3 * i + j];
  }
  const fcl::Vector3d tab(T[0], T[1], T[2]);
  return fcl::rectDistance<double>(rab, tab, a, b);
}

TEST(RectangleDistance, AgreesWithFcl) {
  std::uint64_t rng = 31;
  int apart = 0, meeting = 0;
  for (int i = 0; i < 20000; ++i) {
    // FCL's rectangles span [0, a] x [0, b]; ours are centred: move B's corner to the centre.
    double a[2] = {0.1 + next_uniform(rng), 0.1 + next_uniform(rng)};
    double b[2] = {0.1 + next_uniform(rng), 0.1 + next_uniform(rng)};
    const Pose p = random_pose(rng, {-1.5, -1.5, -1.5}, {1.5, 1.5, 1.5});
    double R[9], T[3];
    for (int k = 0; k < 9; ++k) R[k] = p.r[k];
    for (int k = 0; k < 3; ++k) T[k] = p.t[k];
    const double ours = rectangle_distance(a, b, R, T);
    // In FCL's corner frames: A's corner at (-a0, -a1, 0); B's corner at T - b0 R_0 - b1 R_1.
    const double fa[2] = {2 * a[0], 2 * a[1]}, fb[2] = {2 * b[0], 2 * b[1]};
    double ft[3];
    for (int k = 0; k < 3; ++k) ft[k] = T[k] - b[0] * R[3 * k] - b[1] * R[3 * k + 1];
    ft[0] += a[0];
    ft[1] += a[1];
    const double theirs = fcl_distance(fa, fb, R, ft);
    EXPECT_NEAR(ours, theirs, 1e-9) << "pair " << i;
    (ours > 0 ? apart : meeting)++;
  }
  EXPECT_GT(apart, 2000);
  EXPECT_GT(meeting, 2000);
}

// Hand-computed cases: parallel planes, crossing rectangles, an edge above the other's face.
TEST(RectangleDistance, HandComputedCases) {
  const double a[2] = {1, 1}, b[2] = {0.5, 0.5};
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double above[3] = {0.2, -0.3, 0.7};  // parallel, overlapping in projection
  EXPECT_NEAR(rectangle_distance(a, b, identity, above), 0.7, 1e-15);
  const double beside[3] = {2.5, 0, 0.0};  // coplanar, 1 apart in x
  EXPECT_NEAR(rectangle_distance(a, b, identity, beside), 1.0, 1e-15);
  // B stands upright (its plane x = 0.3) through A's interior: they cross.
  const double upright[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
  const double crossing[3] = {0.3, 0, 0};
  EXPECT_EQ(rectangle_distance(a, b, upright, crossing), 0);
  const double hovering[3] = {0.3, 0, 0.5 + 0.25};  // its lower edge 0.25 above A
  EXPECT_NEAR(rectangle_distance(a, b, upright, hovering), 0.25, 1e-15);
}

}  // namespace
}  // namespace kdop
