#include "geometry/obb_overlap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "geometry/pose.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

// The oracle: both boxes' 8 corners in A's frame, projected onto each of the 15 axes (formed
// explicitly, normalized); the largest gap between the two intervals, 0 or less if no axis
// separates. Independent of Table 1's algebra.
double largest_gap(const double a[3], const double b[3], const double R[9], const double T[3]) {
  std::vector<Vec3> ca, cb;
  for (int c = 0; c < 8; ++c) {
    const double s[3] = {c & 1 ? 1.0 : -1.0, c & 2 ? 1.0 : -1.0, c & 4 ? 1.0 : -1.0};
    ca.push_back({s[0] * a[0], s[1] * a[1], s[2] * a[2]});
    Vec3 p{T[0], T[1], T[2]};
    for (int j = 0; j < 3; ++j) {
      p = p + (s[j] * b[j]) * Vec3{R[j], R[3 + j], R[6 + j]};
    }
    cb.push_back(p);
  }
  const Vec3 axes_a[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Vec3 axes_b[3] = {{R[0], R[3], R[6]}, {R[1], R[4], R[7]}, {R[2], R[5], R[8]}};
  std::vector<Vec3> axes(axes_a, axes_a + 3);
  axes.insert(axes.end(), axes_b, axes_b + 3);
  for (const Vec3& u : axes_a) {
    for (const Vec3& v : axes_b) {
      const Vec3 w = cross(u, v);
      if (norm(w) > 1e-6) axes.push_back((1 / norm(w)) * w);
    }
  }
  double best = -INFINITY;
  for (const Vec3& axis : axes) {
    double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
    for (const Vec3& p : ca) alo = std::min(alo, dot(axis, p)), ahi = std::max(ahi, dot(axis, p));
    for (const Vec3& p : cb) blo = std::min(blo, dot(axis, p)), bhi = std::max(bhi, dot(axis, p));
    best = std::max(best, std::max(blo - ahi, alo - bhi));
  }
  return best;
}

void random_pair(std::uint64_t& rng, double a[3], double b[3], double R[9], double T[3],
                 double spread) {
  for (int i = 0; i < 3; ++i) {
    a[i] = 0.05 + next_uniform(rng);
    b[i] = 0.05 + next_uniform(rng);
  }
  const Pose p = random_pose(rng, {-spread, -spread, -spread}, {spread, spread, spread});
  for (int i = 0; i < 9; ++i) R[i] = p.r[i];
  for (int i = 0; i < 3; ++i) T[i] = p.t[i];
}

// Table 1 never calls overlapping boxes disjoint, and finds every separation wider than 1e-9.
TEST(ObbOverlap, AgreesWithTheFifteenAxesFormedExplicitly) {
  std::uint64_t rng = 17;
  int disjoint = 0, overlapping = 0;
  for (int i = 0; i < 20000; ++i) {
    double a[3], b[3], R[9], T[3];
    random_pair(rng, a, b, R, T, 2.5);
    const double gap = largest_gap(a, b, R, T);
    const bool got = obb_disjoint(a, b, R, T);
    if (got) {
      ++disjoint;
      EXPECT_GT(gap, 0) << "pair " << i << ": a separating axis that the oracle does not see";
    } else {
      ++overlapping;
      EXPECT_LE(gap, 1e-9) << "pair " << i << ": a separation of " << gap << " missed";
    }
  }
  EXPECT_GT(disjoint, 2000);
  EXPECT_GT(overlapping, 2000);
}

// Parallel boxes (every cross product vanishes) and boxes touching face to face: the slack
// keeps rounding from separating them.
TEST(ObbOverlap, ParallelAndTouchingBoxes) {
  const double a[3] = {1, 1, 1}, b[3] = {0.5, 0.5, 0.5};
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double touching[3] = {1.5, 0.2, -0.3};  // faces x = 1 meet
  EXPECT_FALSE(obb_disjoint(a, b, identity, touching));
  const double apart[3] = {1.5 + 1e-6, 0.2, -0.3};
  EXPECT_TRUE(obb_disjoint(a, b, identity, apart));
  // Turned 45 degrees about z, its edge 1e-3 beyond A's face: only an axis of A or B separates.
  const double c = std::sqrt(0.5);
  const double turned[9] = {c, -c, 0, c, c, 0, 0, 0, 1};
  const double reach = 0.5 * std::sqrt(2.0);
  const double near[3] = {1 + reach - 1e-3, 0, 0}, far[3] = {1 + reach + 1e-3, 0, 0};
  EXPECT_FALSE(obb_disjoint(a, b, turned, near));
  EXPECT_TRUE(obb_disjoint(a, b, turned, far));
}

}  // namespace
}  // namespace kdop
