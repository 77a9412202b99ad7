#include "builders/oriented_tree.hpp"
#include "engine/parallel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

#include "builders/obb_fit.hpp"
#include "builders/object_sphere.hpp"
#include "builders/topdown_builder.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {
namespace {

// Coordinates of p along the axes about c, and a bound on their rounding error: p - c per
// coordinate (one rounding each), then a dot product with an axis of entries at most 1 (three
// products, two sums): at most 4.0001 * 2^-53 (|p|_1 + |c|_1); 2^-48 is a 7x margin.
struct Local {
  double u[3];
  double error;
};

Local local_coordinates(const Vec3& p, const Vec3& c, const std::array<Vec3, 3>& axis) {
  const Vec3 d = p - c;
  Local l;
  for (int a = 0; a < 3; ++a) l.u[a] = dot(axis[a], d);
  l.error = 0x1p-48 * (std::fabs(p.x) + std::fabs(p.y) + std::fabs(p.z) + std::fabs(c.x) +
                       std::fabs(c.y) + std::fabs(c.z));
  return l;
}

// The node's box: in the frame of its convex hull's surface, or of its own triangles' when it is
// small or large (builders/obb_fit.hpp).
Obb fit_node(const LeafTriangles& t, SlotRange range, const std::vector<Vec3>& corners) {
  if (corners.size() > kHullFitMinCorners && corners.size() <= kHullFitMaxCorners) {
    return fit_obb(corners);
  }
  std::vector<std::array<Vec3, 3>> surface;
  for (std::uint32_t s = range.first; s < range.first + range.count; ++s) {
    const Triangle tri = t.triangle(s);
    surface.push_back({tri.p0, tri.p1, tri.p2});
  }
  return fit_obb(corners, surface);
}

// Writes the node's volume over its corners; returns its size.
float encode_obb(const Obb& box, const std::vector<Vec3>& corners, double* out) {
  std::array<double, 3> half{0, 0, 0};
  for (const Vec3& p : corners) {
    const Local l = local_coordinates(p, box.center, box.axis);
    for (int a = 0; a < 3; ++a) half[a] = std::max(half[a], std::fabs(l.u[a]) + l.error);
  }
  const double c[3] = {box.center.x, box.center.y, box.center.z};
  std::copy(c, c + 3, out + kCenterAt);
  for (int a = 0; a < 3; ++a) {
    out[kAxesAt + 3 * a] = box.axis[a].x;
    out[kAxesAt + 3 * a + 1] = box.axis[a].y;
    out[kAxesAt + 3 * a + 2] = box.axis[a].z;
    out[kHalfAt + a] = half[a] * (1 + 0x1p-50);  // the sum above rounded once more
  }
  return static_cast<float>(2 * std::max({out[kHalfAt], out[kHalfAt + 1], out[kHalfAt + 2]}));
}

// The largest distance of a corner from the rectangle, plus the local coordinates' error (at
// most sqrt(3) of the per-coordinate bound in length).
double rss_radius(const Rss& r, const std::vector<Vec3>& corners) {
  double radius = 0;
  for (const Vec3& p : corners) {
    const Local l = local_coordinates(p, r.center, r.axis);
    const double dx = std::max(std::fabs(l.u[0]) - r.half[0], 0.0);
    const double dy = std::max(std::fabs(l.u[1]) - r.half[1], 0.0);
    radius = std::max(radius, std::sqrt(dx * dx + dy * dy + l.u[2] * l.u[2]) + 2 * l.error);
  }
  return radius;
}

// Volume of a rectangle swept sphere: the slab, four half cylinders along the edges, the ball.
double rss_volume(const std::array<double, 2>& h, double r) {
  constexpr double pi = 3.141592653589793;
  return 8 * h[0] * h[1] * r + 2 * pi * r * r * (h[0] + h[1]) + 4.0 / 3 * pi * r * r * r;
}

float encode_rss(const Obb& box, const std::vector<Vec3>& corners, double* out) {
  // From the box, the thinnest extent as the radius; then the same rectangle shrunk by that
  // radius on each side (the rounded edges cover the rim, oriented-rounded-bv.txt), with the
  // radius it then needs. The smaller volume wins.
  Rss r = fit_rss(box);
  double radius = rss_radius(r, corners);
  Rss shrunk = r;
  for (double& h : shrunk.half) h = std::max(h - r.radius, 0.0);
  const double shrunk_radius = rss_radius(shrunk, corners);
  if (rss_volume(shrunk.half, shrunk_radius) < rss_volume(r.half, radius)) {
    r = shrunk;
    radius = shrunk_radius;
  }
  out[kCenterAt] = r.center.x;
  out[kCenterAt + 1] = r.center.y;
  out[kCenterAt + 2] = r.center.z;
  for (int a = 0; a < 3; ++a) {
    out[kAxesAt + 3 * a] = r.axis[a].x;
    out[kAxesAt + 3 * a + 1] = r.axis[a].y;
    out[kAxesAt + 3 * a + 2] = r.axis[a].z;
  }
  out[kHalfAt] = r.half[0];
  out[kHalfAt + 1] = r.half[1];
  out[kRadiusAt] = radius * (1 + 0x1p-50);  // sqrt and the sums: a few ulps
  return static_cast<float>(2 * (std::max(r.half[0], r.half[1]) + out[kRadiusAt]));
}

}  // namespace

template <class Bv>
OrientedTree<Bv> build_oriented_tree(const Mesh& mesh, const BuildConfig& config) {
  // The builder's K only matters to the k-DOP volume rules; 6 is the cheapest.
  const BuildTree b = build_topdown<6>(mesh, config);
  OrientedTree<Bv> t;
  t.topology = encode_topology(b);
  t.triangles = gather_leaf_triangles(mesh, b.order);
  const std::uint32_t nodes = t.topology.node_count();
  const std::vector<SlotRange> ranges = slot_ranges(t.topology);
  std::vector<double> boxes = populated_vector(std::size_t{nodes} * Bv::doubles, 0.0);
  std::vector<float> size = populated_vector(std::size_t{nodes}, 0.0f);
  // Every node is fitted to its own corners (Gottschalk's hull per node), independently.
  parallel_for_ranges(0, nodes, 8, [&](std::size_t range_first, std::size_t range_last) {
    std::vector<Vec3> corners;
    for (std::uint32_t n = static_cast<std::uint32_t>(range_first);
         n < static_cast<std::uint32_t>(range_last); ++n) {
      distinct_corners(t.triangles, ranges[n], corners);
      double* out = boxes.data() + std::size_t{n} * Bv::doubles;
      const Obb box = fit_node(t.triangles, ranges[n], corners);
      if constexpr (std::is_same_v<Bv, ObbBv>) {
        size[n] = encode_obb(box, corners, out);
      } else {
        size[n] = encode_rss(box, corners, out);
      }
    }
  });
  t.boxes = std::move(boxes);
  t.size = std::move(size);
  return t;
}

template <class Bv>
FlyingOrientedTree<Bv> build_flying_oriented_tree(const Mesh& mesh, const BuildConfig& config) {
  FlyingOrientedTree<Bv> f;
  f.tree = build_oriented_tree<Bv>(mesh, config);
  f.floats = leaf_floats(f.tree.triangles);
  const ObjectSphere sphere = object_sphere(referenced_corners(mesh));
  f.corner_radius = sphere.corner_radius;
  f.sphere_center = sphere.center;
  f.sphere_radius = sphere.radius;
  return f;
}

template OrientedTree<ObbBv> build_oriented_tree<ObbBv>(const Mesh&, const BuildConfig&);
template OrientedTree<RssBv> build_oriented_tree<RssBv>(const Mesh&, const BuildConfig&);
template FlyingOrientedTree<ObbBv> build_flying_oriented_tree<ObbBv>(const Mesh&,
                                                                     const BuildConfig&);
template FlyingOrientedTree<RssBv> build_flying_oriented_tree<RssBv>(const Mesh&,
                                                                     const BuildConfig&);

}  // namespace kdop
