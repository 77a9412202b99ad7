#pragma once
// The convex hull of a point set as a vertex graph, for hill-climbing (Klosowski et al. 1998,
// section 4.1, method I): on a convex polytope a vertex with no neighbour that is better along a
// direction is the best vertex along it, so the extreme vertex is found by walking edges.
// The hull comes from qhull (Debian libqhull-dev). Flat or degenerate point sets (all on a
// plane or a line) have no 3D hull; then every point is kept and the search is exhaustive.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "geometry/vec3.hpp"

namespace kdop {

struct HullGraph {
  std::vector<Vec3> points;               // hull vertices
  std::vector<std::uint32_t> first_edge;  // neighbours of i: edges[first_edge[i], first_edge[i+1])
  std::vector<std::uint32_t> edges;
  // Any input point lies within this max-norm distance of conv(points): qhull's rounding, with a
  // wide safety factor (see convex_hull.cpp). Zero when the search is exhaustive.
  double outside_bound = 0;
  bool exhaustive = false;  // no 3D hull: search every point
};

HullGraph convex_hull_graph(const std::vector<Vec3>& input);

// The convex hull's surface as triangles (qhull, triangulated output 'Qt'); empty when there is no
// 3D hull (fewer than 4 points, or all on a plane). Orientation is not fixed.
std::vector<std::array<Vec3, 3>> convex_hull_triangles(const std::vector<Vec3>& points);

// Volume and surface area of the convex hull of `points` by qhull (option 'FA'); nullopt when
// there is no 3D hull (fewer than 4 points, or all on a plane). The oracle and the library peer
// of builders/dop_volume.hpp.
struct HullMeasure {
  double volume = 0, area = 0;
};
std::optional<HullMeasure> convex_hull_measure(const std::vector<Vec3>& points);

// Where to start hill-climbing for a direction: the extreme vertex of the nearest cell of a cube
// map (6 faces x grid x grid directions), found once at build. A walk from there takes a few
// steps whatever the pose, where a walk from a fixed vertex crosses the hull. The grid grows with
// the hull (8, 16 or 32: about as many cells as vertices, up to 6,144), so a large hull's walk
// stays short too (docs/design-notes.md, "Exact root by hill-climbing").
struct ClimbStarts {
  static constexpr int min_grid = 8, max_grid = 32;
  int grid = min_grid;
  std::vector<std::uint32_t> vertex;  // 6 * grid * grid entries
};

// The grid for a hull of `vertices` points, and the grid of a table of `entries` (0 if no
// allowed grid has that many).
int climb_grid(std::size_t vertices);
int climb_grid_of(std::size_t entries);

ClimbStarts climb_starts(const HullGraph& hull);
std::uint32_t climb_start(const ClimbStarts& starts, const Vec3& d);

// A few hull vertices spread over every direction, in float: the climb starts of a coarser grid
// of cells (6 faces x per_face x per_face, per_face dividing starts.grid; one cell of the map per
// coarse cell, next to its centre), each vertex once. Read from the map, not climbed, so a flat
// object's exhaustive hull costs nothing more at load. They are points of the object, so at any
// pose their projections bound its exact DOP from inside, in one pass of the tumble kernel over
// a few hundred contiguous bytes (engine/dop_query.hpp, exact_root_may_separate). Rounding to
// float moves a point by at most half an ulp of each coordinate; only that rule's choice, never
// an answer, depends on them.
struct InnerPoints {
  std::vector<float> x, y, z;
};
InnerPoints inner_points(const HullGraph& hull, const ClimbStarts& starts, int per_face);

// Index of a vertex maximizing dot(d, v), walking uphill from vertex `start` (strictly
// increasing values, so it terminates).
std::uint32_t hill_climb(const HullGraph& hull, const Vec3& d, std::uint32_t start);

}  // namespace kdop
