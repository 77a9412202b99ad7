#include "builders/object_sphere.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kdop {

namespace {

// A hash of a point's coordinates; -0 and +0 (one point) hash alike.
std::uint64_t point_hash(double x, double y, double z) {
  auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v + 0.0); };
  std::uint64_t h = bits(x) * 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 31) ^ bits(y)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 29) ^ bits(z)) * 0x94d049bb133111ebull;
  return h ^ (h >> 32);
}

}  // namespace

// Every corner the triangles use, once (unreferenced vertices do not matter), in vertex order.
// An STL file is a triangle soup (each corner stored once per triangle, about six times in a
// closed mesh): equal coordinates are one point, or the object's convex hull would work on six
// times the points (qhull took 9.9 s for a 1,000,000-triangle sphere's 3,000,000 corners, 6.4 s
// for its 500,001 distinct ones). An open-addressing table of vertex indices finds the equal
// ones: a sort of 30,000,000 corners took 12 s.
std::vector<Vec3> referenced_corners(const Mesh& mesh) {
  std::vector<char> used(mesh.vertex_count(), 0);
  std::size_t used_count = 0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    for (std::uint32_t v : {mesh.a[t], mesh.b[t], mesh.c[t]}) {
      used_count += used[v] == 0;
      used[v] = 1;
    }
  }
  std::size_t slots = 16;
  while (slots < 2 * used_count) slots *= 2;
  constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> table(slots, kEmpty);  // vertex indices of the distinct points
  const std::size_t mask = slots - 1;
  std::vector<Vec3> points;
  for (std::size_t v = 0; v < used.size(); ++v) {
    if (!used[v]) continue;
    const double x = mesh.x[v], y = mesh.y[v], z = mesh.z[v];
    std::size_t at = point_hash(x, y, z) & mask;
    while (table[at] != kEmpty &&
           !(mesh.x[table[at]] == x && mesh.y[table[at]] == y && mesh.z[table[at]] == z)) {
      at = (at + 1) & mask;
    }
    if (table[at] != kEmpty) continue;  // seen
    table[at] = static_cast<std::uint32_t>(v);
    points.push_back({x, y, z});
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
