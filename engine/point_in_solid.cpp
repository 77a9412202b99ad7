#include "engine/point_in_solid.hpp"

#include <vector>

#include "geometry/dop.hpp"
#include "geometry/predicates.hpp"
#include "geometry/tri_tri.hpp"

namespace kdop {

namespace {

// The sign of orient2d(a, b, p') for p' = p + (e, e^2), e infinitesimal: the exact sign, or the
// first non-zero term of its expansion, D + e (ay - by) + e^2 (bx - ax). Zero only when a and b
// coincide in x and y.
int perturbed_orient(const Vec3& a, const Vec3& b, const Vec3& p) {
  const int s = orient2d(a.x, a.y, b.x, b.y, p.x, p.y);
  if (s != 0) return s;
  if (a.y != b.y) return a.y > b.y ? 1 : -1;
  if (a.x != b.x) return b.x > a.x ? 1 : -1;
  return 0;
}

// +1: the upward ray from p crosses t; 0: it does not; -1: p lies on t.
int crossing(const Triangle& t, const Vec3& p) {
  const int s0 = perturbed_orient(t.p0, t.p1, p);
  const int s1 = perturbed_orient(t.p1, t.p2, p);
  const int s2 = perturbed_orient(t.p2, t.p0, p);
  // Inside the (perturbed) projection: all three on one side, none zero (a zero means an edge of
  // no extent in x and y: the projection has no area).
  if (s0 == 0 || s1 == 0 || s2 == 0 || s0 != s1 || s1 != s2) {
    // p may still lie on the triangle (on a vertical one, or on an edge); that is the boundary.
    return segment_triangle_intersect(p, p, t) ? -1 : 0;
  }
  // The projection turns counter-clockwise (s0 > 0) or clockwise; the plane is above p when
  // orient3d(a, b, c, p) has the sign that makes p below: for a counter-clockwise projection
  // (normal with +z) p is below the plane iff orient3d > 0.
  const int o = orient3d(t.p0, t.p1, t.p2, p);
  if (o == 0) return -1;
  return (o > 0) == (s0 > 0) ? 1 : 0;
}

}  // namespace

template <int K>
SolidSide point_in_solid(const DopTree<K>& solid, Vec3 p) {
  constexpr int L = DopShape<K>::lanes;
  constexpr auto dirs = DopShape<K>::directions();
  if (solid.topology.node_count() == 0) return SolidSide::outside;
  // Slabs 0, 1, 2 are x, y and z for every K but 8.
  constexpr bool has_axes = K != 8;
  static_assert(!has_axes || (dirs[0].x == 1 && dirs[1].y == 1 && dirs[2].z == 1));
  int crossings = 0;
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    if constexpr (has_axes) {
      const float* b = solid.node_bounds(n);
      // The ray x = p.x, y = p.y, z >= p.z (the perturbation moves it by less than any gap).
      if (double{b[0]} > p.x || double{b[L]} < p.x || double{b[1]} > p.y ||
          double{b[L + 1]} < p.y || double{b[L + 2]} < p.z) {
        continue;
      }
    }
    if (!solid.topology.is_leaf(n)) {
      stack.push_back(solid.topology.right(n));
      stack.push_back(solid.topology.left(n));
      continue;
    }
    const std::uint32_t first = solid.topology.child_or_first[n];
    for (std::uint32_t s = first; s < first + solid.topology.leaf_count[n]; ++s) {
      const int c = crossing(solid.triangles.triangle(s), p);
      if (c < 0) return SolidSide::boundary;
      crossings += c;
    }
  }
  return crossings % 2 == 1 ? SolidSide::inside : SolidSide::outside;
}

template SolidSide point_in_solid<6>(const DopTree<6>&, Vec3);
template SolidSide point_in_solid<8>(const DopTree<8>&, Vec3);
template SolidSide point_in_solid<14>(const DopTree<14>&, Vec3);
template SolidSide point_in_solid<18>(const DopTree<18>&, Vec3);
template SolidSide point_in_solid<26>(const DopTree<26>&, Vec3);
template SolidSide point_in_solid<32>(const DopTree<32>&, Vec3);

}  // namespace kdop
