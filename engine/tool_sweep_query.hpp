#pragma once
// Which triangles of a k-DOP environment hierarchy an NC tool part comes within a distance of
// while it translates along a linear move (issue 7: 3-axis moves are pure translations).
//
// The tool part is an analytic solid of revolution (geometry/revolved_solid.hpp), never
// tessellated. Its sweep's k-DOP is exact and cheap: along each slab direction n_j the swept
// solid reaches support_value(solid, from, to, n_j), a closed form, so one DOP bounds the whole
// move (no tumbling: the tool keeps the environment's frame). The traversal descends the
// environment nodes whose DOP overlaps it, widened by the distance asked for (the directions
// are not unit length: by `within` times |n_j|, Klosowski et al. 1998, section 3.3), and at the
// leaves bounds each triangle's distance to the swept solid by GJK
// (geometry/convex_distance.hpp): a triangle is reported when its certified lower bound is at
// most `within`, so none that comes within it is missed; its upper bound tells the caller
// whether contact is proved or only possible (a "near" finding).
#include <cstdint>
#include <limits>
#include <vector>

#include "builders/dop_tree.hpp"
#include "geometry/convex_distance.hpp"
#include "geometry/revolved_solid.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct ToolContact {
  std::uint32_t triangle = 0;   // input index in the environment mesh
  double lower = 0, upper = 0;  // bounds of its distance to the swept solid
  Vec3 on_triangle;             // the witness point of `upper` on the triangle
};

struct ToolSweepOptions {
  double within = 0;        // report triangles whose distance may be at most this (mm, >= 0)
  double tolerance = 1e-6;  // GJK stops once its bounds are this close (issue 7's delta)
  bool first_only = false;  // stop at the first triangle whose contact is proved (upper <= within)
};

struct ToolSweepResult {
  std::vector<ToolContact> contacts;  // sorted by triangle; first_only: at most one proved
  std::uint64_t nodes_visited = 0;    // environment nodes whose DOP was tested
  std::uint64_t triangles_tested = 0;
};

// Triangles of `env` within options.within of `solid` translated from `from` to `to`
// (from == to: at rest). `result` is cleared first; reuse it to keep its capacity.
template <int K>
void tool_sweep_query(const DopTree<K>& env, const RevolvedSolid& solid, Vec3 from, Vec3 to,
                      const ToolSweepOptions& options, ToolSweepResult& result);

// The swept solid's DOP, for the traversal and tests: DopShape<K>::floats values laid out like a
// node's (lo lanes, then hi lanes), widened by `within` |n_j| and rounded outward to float.
template <int K>
void swept_tool_dop(const RevolvedSolid& solid, Vec3 from, Vec3 to, double within, float* out);

}  // namespace kdop
