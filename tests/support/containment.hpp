#pragma once
// Strict containment checks of corners in float DOPs: n.p is evaluated in double and must lie
// inside [lo, hi] by more than its own rounding bound, so a pass never depends on rounding luck.
#include <cstdint>

#include "geometry/dop.hpp"

namespace kdop::test {

template <int K>
bool dop_contains(const float* bounds, double x, double y, double z) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  const double err = projection_error_bound(std::fabs(x) + std::fabs(y) + std::fabs(z));
  for (int j = 0; j < Shape::slabs; ++j) {
    const double v = project(dirs[j], x, y, z);
    if (!(bounds[j] <= v - err && v + err <= bounds[Shape::lanes + j])) return false;
  }
  for (int j = Shape::slabs; j < Shape::lanes; ++j) {
    if (!(bounds[j] < bounds[Shape::lanes + j])) return false;  // padding must never reject
  }
  return true;
}

}  // namespace kdop::test
