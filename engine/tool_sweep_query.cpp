#include "engine/tool_sweep_query.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/dop.hpp"
#include "geometry/tri_tri.hpp"

namespace kdop {

namespace {

double l1(Vec3 v) {
  return std::fabs(v.x) + std::fabs(v.y) + std::fabs(v.z);
}

// The swept solid's slabs in double: lo[j] <= n_j . x <= hi[j] for every point x of the sweep,
// widened by `within` |n_j| (|n_j|_1 >= |n_j|) and by the support values' rounding. Each support
// value is a handful of products and sums of terms at most |n|_1 (tool extent + |p|_1) in size,
// each rounded by half an ulp: 2^-40 of that bound covers them hundreds of times over.
template <int K>
void swept_slabs(const RevolvedSolid& solid, Vec3 from, Vec3 to, double within, double* lo,
                 double* hi) {
  constexpr auto dirs = DopShape<K>::directions();
  const double extent = bounding_radius(solid) + std::max(l1(from), l1(to));
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    const Vec3 n = to_vec3(dirs[j]);
    const double n1 = l1(n);
    const double widen = within * n1 + 0x1p-40 * n1 * extent;
    hi[j] = support_value(solid, from, to, n) + widen;
    lo[j] = -support_value(solid, from, to, Vec3{-n.x, -n.y, -n.z}) - widen;
  }
}

}  // namespace

template <int K>
void swept_tool_dop(const RevolvedSolid& solid, Vec3 from, Vec3 to, double within, float* out) {
  constexpr int L = DopShape<K>::lanes;
  double lo[DopShape<K>::slabs], hi[DopShape<K>::slabs];
  swept_slabs<K>(solid, from, to, within, lo, hi);
  for (int j = 0; j < L; ++j) {
    out[j] = j < DopShape<K>::slabs ? float_below(lo[j]) : 0.0f;
    out[L + j] = j < DopShape<K>::slabs ? float_above(hi[j]) : 0.0f;
  }
}

template <int K>
void tool_sweep_query(const DopTree<K>& env, const RevolvedSolid& solid, Vec3 from, Vec3 to,
                      const ToolSweepOptions& options, ToolSweepResult& result) {
  constexpr int S = DopShape<K>::slabs;
  constexpr int L = DopShape<K>::lanes;
  constexpr auto dirs = DopShape<K>::directions();
  result.contacts.clear();
  result.nodes_visited = 0;
  result.triangles_tested = 0;
  if (solid.parts.empty() || env.topology.node_count() == 0) return;

  double lo[S], hi[S];
  swept_slabs<K>(solid, from, to, options.within, lo, hi);
  float tool[2 * L];
  swept_tool_dop<K>(solid, from, to, options.within, tool);
  // A triangle's own slabs are exact up to project()'s rounding (projection_error_bound).
  auto triangle_outside = [&](const Triangle& t) {
    const double size = std::max({l1(t.p0), l1(t.p1), l1(t.p2)});
    const double error = projection_error_bound(size);
    for (int j = 0; j < S; ++j) {
      const double a = project(dirs[j], t.p0.x, t.p0.y, t.p0.z);
      const double b = project(dirs[j], t.p1.x, t.p1.y, t.p1.z);
      const double c = project(dirs[j], t.p2.x, t.p2.y, t.p2.z);
      if (std::min({a, b, c}) - error > hi[j] || std::max({a, b, c}) + error < lo[j]) return true;
    }
    return false;
  };
  DistanceOptions gjk;
  gjk.tolerance = options.tolerance;
  gjk.threshold = options.within;
  DistanceOptions tight;
  tight.tolerance = options.tolerance;

  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    ++result.nodes_visited;
    const float* b = env.node_bounds(n);
    bool overlap = true;
    for (int j = 0; j < S && overlap; ++j) overlap = b[j] <= tool[L + j] && tool[j] <= b[L + j];
    if (!overlap) continue;
    if (!env.topology.is_leaf(n)) {
      stack.push_back(env.topology.right(n));
      stack.push_back(env.topology.left(n));
      continue;
    }
    const std::uint32_t first = env.topology.child_or_first[n];
    for (std::uint32_t s = first; s < first + env.topology.leaf_count[n]; ++s) {
      const Triangle t = env.triangles.triangle(s);
      if (triangle_outside(t)) continue;
      ++result.triangles_tested;
      DistanceBounds d = triangle_sweep_distance(t, solid, from, to, gjk);
      if (!(d.lower <= options.within)) continue;
      // Deciding stopped GJK early; a reported contact gets bounds within the tolerance.
      if (!options.first_only && d.upper - d.lower > options.tolerance) {
        d = triangle_sweep_distance(t, solid, from, to, tight);
      }
      result.contacts.push_back({env.triangles.original[s], d.lower, d.upper, d.on_triangle});
      if (options.first_only && d.upper <= options.within) {
        stack.clear();
        break;
      }
    }
  }
  std::sort(result.contacts.begin(), result.contacts.end(),
            [](const ToolContact& a, const ToolContact& b) { return a.triangle < b.triangle; });
}

#define KDOP_TOOL_SWEEP(K)                                                               \
  template void tool_sweep_query<K>(const DopTree<K>&, const RevolvedSolid&, Vec3, Vec3, \
                                    const ToolSweepOptions&, ToolSweepResult&);          \
  template void swept_tool_dop<K>(const RevolvedSolid&, Vec3, Vec3, double, float*);
KDOP_TOOL_SWEEP(6)
KDOP_TOOL_SWEEP(8)
KDOP_TOOL_SWEEP(14)
KDOP_TOOL_SWEEP(18)
KDOP_TOOL_SWEEP(26)
KDOP_TOOL_SWEEP(32)
#undef KDOP_TOOL_SWEEP

}  // namespace kdop
