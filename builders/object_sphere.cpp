#include "builders/object_sphere.hpp"

#include <algorithm>
#include <cmath>

namespace kdop {

// Every corner the triangles use, once (unreferenced vertices do not matter).
std::vector<Vec3> referenced_corners(const Mesh& mesh) {
  std::vector<char> used(mesh.vertex_count(), 0);
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    used[mesh.a[t]] = used[mesh.b[t]] = used[mesh.c[t]] = 1;
  std::vector<Vec3> points;
  for (std::size_t v = 0; v < used.size(); ++v) {
    if (used[v]) points.push_back({mesh.x[v], mesh.y[v], mesh.z[v]});
  }
  return points;
}

ObjectSphere object_sphere(const std::vector<Vec3>& corners) {
  ObjectSphere s;
  for (const Vec3& p : corners) s.corner_radius = std::max(s.corner_radius, norm(p));
  // The sphere: centred on the corners' box, radius rounded up past norm()'s few ulps.
  Vec3 box_lo{INFINITY, INFINITY, INFINITY}, box_hi{-INFINITY, -INFINITY, -INFINITY};
  for (const Vec3& p : corners) {
    box_lo = {std::min(box_lo.x, p.x), std::min(box_lo.y, p.y), std::min(box_lo.z, p.z)};
    box_hi = {std::max(box_hi.x, p.x), std::max(box_hi.y, p.y), std::max(box_hi.z, p.z)};
  }
  s.center = 0.5 * (box_lo + box_hi);
  for (const Vec3& p : corners) s.radius = std::max(s.radius, norm(p - s.center));
  s.radius = s.radius * (1 + 0x1p-48) + 0x1p-48 * norm(s.center);
  s.corner_radius *= 1 + 0x1p-50;  // norm() is off by a few ulps at most
  return s;
}

}  // namespace kdop
