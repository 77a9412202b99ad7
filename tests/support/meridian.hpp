#pragma once
// The 2-D models that tests of bodies of revolution check against: a body is its section in a
// meridian plane (r: signed distance from the axis, z: height) swept round, so distances to it
// and depths inside it are 2-D distances to a convex polygon.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kdop::test {

struct MeridianPoint {
  double r, z;
};

// Signed distance from p to a convex polygon given counter-clockwise: negative inside (minus the
// depth). A polygon of zero area has no inside (the distance is to its edges).
inline double signed_distance(const std::vector<MeridianPoint>& poly, MeridianPoint p) {
  double boundary = INFINITY, area2 = 0;
  bool outside = false;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const MeridianPoint a = poly[i], b = poly[(i + 1) % poly.size()];
    const double er = b.r - a.r, ez = b.z - a.z, len2 = er * er + ez * ez;
    const double t =
        len2 > 0 ? std::clamp(((p.r - a.r) * er + (p.z - a.z) * ez) / len2, 0.0, 1.0) : 0.0;
    boundary = std::min(boundary, std::hypot(p.r - (a.r + t * er), p.z - (a.z + t * ez)));
    if (er * (p.z - a.z) - ez * (p.r - a.r) < 0) outside = true;  // right of the edge
    area2 += a.r * b.z - b.r * a.z;
  }
  return area2 > 0 && !outside ? -boundary : boundary;
}

}  // namespace kdop::test
