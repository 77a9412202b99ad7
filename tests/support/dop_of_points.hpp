#pragma once
// The k/2 intervals of a point set (double projections, no widening: tests that use it compare
// with tolerances or measure, never claim containment).
#include <cmath>
#include <vector>

#include "geometry/dop.hpp"
#include "geometry/vec3.hpp"

namespace kdop::test {

template <int K>
void dop_of_points(const std::vector<Vec3>& pts, double* lo, double* hi) {
  constexpr auto dirs = DopShape<K>::directions();
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    lo[j] = INFINITY;
    hi[j] = -INFINITY;
    for (const Vec3& p : pts) {
      lo[j] = std::fmin(lo[j], project(dirs[j], p.x, p.y, p.z));
      hi[j] = std::fmax(hi[j], project(dirs[j], p.x, p.y, p.z));
    }
  }
}

}  // namespace kdop::test
