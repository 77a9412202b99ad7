// Solid check: a unit cube and the ways a mesh fails to be one (a hole, a flipped triangle, a
// shared edge, inside out, flat), welded and unwelded.
#include "geometry/solid_check.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace kdop {
namespace {

using Tri = std::array<std::uint32_t, 3>;

// The unit cube's corners (index x + 2y + 4z) and its 12 triangles, counter-clockwise seen
// from outside (each face's normal checked by hand).
const std::vector<Tri> kCubeTriangles = {
    {0, 2, 3}, {0, 3, 1},  // z = 0
    {4, 5, 7}, {4, 7, 6},  // z = 1
    {0, 1, 5}, {0, 5, 4},  // y = 0
    {2, 6, 7}, {2, 7, 3},  // y = 1
    {0, 4, 6}, {0, 6, 2},  // x = 0
    {1, 3, 7}, {1, 7, 5},  // x = 1
};

// A cube of side `s` with its low corner at (ox, oy, oz), from the triangles `tris`, its
// vertices shared (welded) or repeated per triangle (as STL stores them).
Mesh cube(const std::vector<Tri>& tris, bool welded = true, double ox = 0, double oy = 0,
          double oz = 0, double s = 1) {
  Mesh m;
  const auto corner = [&](std::uint32_t i) {
    return std::array<double, 3>{ox + s * (i & 1), oy + s * ((i >> 1) & 1),
                                 oz + s * ((i >> 2) & 1)};
  };
  if (welded) {
    for (std::uint32_t i = 0; i < 8; ++i) {
      const auto p = corner(i);
      m.add_vertex(p[0], p[1], p[2]);
    }
  }
  for (const Tri& t : tris) {
    if (welded) {
      m.add_triangle(t[0], t[1], t[2]);
      continue;
    }
    std::uint32_t v[3];
    for (int k = 0; k < 3; ++k) {
      const auto p = corner(t[k]);
      v[k] = m.add_vertex(p[0], p[1], p[2]);
    }
    m.add_triangle(v[0], v[1], v[2]);
  }
  return m;
}

// Appends `b`'s vertices and triangles to `a`.
void append(Mesh& a, const Mesh& b) {
  const auto base = static_cast<std::uint32_t>(a.vertex_count());
  for (std::size_t i = 0; i < b.vertex_count(); ++i) a.add_vertex(b.x[i], b.y[i], b.z[i]);
  for (std::size_t t = 0; t < b.triangle_count(); ++t) {
    a.add_triangle(base + b.a[t], base + b.b[t], base + b.c[t]);
  }
}

TEST(SolidCheck, UnitCubeIsAnOutwardSolidOfVolumeOne) {
  for (const bool welded : {true, false}) {
    SCOPED_TRACE(welded ? "welded" : "unwelded");
    const SolidCheck c = check_solid(cube(kCubeTriangles, welded));
    EXPECT_EQ(c.triangles, 12u);
    EXPECT_EQ(c.degenerate_triangles, 0u);
    EXPECT_TRUE(c.closed());
    EXPECT_EQ(c.signed_volume, 1.0);
    EXPECT_GT(c.volume_error, 0.0);
    EXPECT_LT(c.volume_error, 1e-12);
    EXPECT_TRUE(c.outward_solid());
    EXPECT_EQ(solid_problem(c), "");
  }
}

TEST(SolidCheck, VolumeIsTranslationInvariantFarFromTheOrigin) {
  // Coordinates near 1e6 with an odd side: the translation to the first vertex keeps the
  // cancellation away, and the bound stays far below the volume.
  const SolidCheck c = check_solid(cube(kCubeTriangles, false, 1e6 + 0.1, -2e6, 3e5, 0.37));
  EXPECT_TRUE(c.outward_solid());
  EXPECT_NEAR(c.signed_volume, 0.37 * 0.37 * 0.37, 1e-9);
  EXPECT_LE(std::abs(c.signed_volume - 0.37 * 0.37 * 0.37), c.volume_error + 1e-9);
}

TEST(SolidCheck, MissingFaceLeavesBoundaryEdges) {
  std::vector<Tri> tris(kCubeTriangles.begin() + 2, kCubeTriangles.end());  // no z = 0 face
  const SolidCheck c = check_solid(cube(tris));
  EXPECT_FALSE(c.closed());
  EXPECT_FALSE(c.outward_solid());
  EXPECT_EQ(c.boundary_edges, 4u);
  EXPECT_EQ(c.non_manifold_edges, 0u);
  EXPECT_EQ(c.inconsistent_edges, 0u);
  // The square's sides: the smallest edge key is 0-1 (triangle 2 after removal: {0, 1, 5}).
  EXPECT_EQ(c.first_boundary.v0, 0u);
  EXPECT_EQ(c.first_boundary.v1, 1u);
  EXPECT_EQ(c.first_boundary.triangle, 2u);
  EXPECT_EQ(solid_problem(c),
            "not a closed solid: 4 boundary edges (first: vertices 0-1 of triangle 2)");

  std::vector<Tri> one(kCubeTriangles.begin() + 1, kCubeTriangles.end());  // half a face
  EXPECT_EQ(check_solid(cube(one)).boundary_edges, 3u);
}

TEST(SolidCheck, FlippedTriangleIsInconsistentlyOriented) {
  std::vector<Tri> tris = kCubeTriangles;
  std::swap(tris[5][1], tris[5][2]);  // {0, 5, 4} -> {0, 4, 5}
  const SolidCheck c = check_solid(cube(tris));
  EXPECT_FALSE(c.closed());
  EXPECT_EQ(c.boundary_edges, 0u);
  EXPECT_EQ(c.inconsistent_edges, 3u);
  EXPECT_NE(solid_problem(c).find("3 inconsistently oriented edges (first: vertices 0-4"),
            std::string::npos)
      << solid_problem(c);
}

TEST(SolidCheck, TwoCubesSharingAnEdgeAreNonManifold) {
  Mesh m = cube(kCubeTriangles);
  append(m, cube(kCubeTriangles, true, 1, 1, 0));  // touches along x = y = 1
  const SolidCheck c = check_solid(m);
  EXPECT_EQ(c.non_manifold_edges, 1u);
  EXPECT_EQ(c.boundary_edges, 0u);
  EXPECT_EQ(c.inconsistent_edges, 0u);
  EXPECT_FALSE(c.closed());
  EXPECT_EQ(c.signed_volume, 2.0);
  // Welded: (1,1,0) is vertex 3 and (1,1,1) vertex 7 of the first cube.
  EXPECT_EQ(c.first_non_manifold.v0, 3u);
  EXPECT_EQ(c.first_non_manifold.v1, 7u);
  EXPECT_NE(solid_problem(c).find("1 non-manifold edge (first: vertices 3-7"), std::string::npos)
      << solid_problem(c);

  // Two disjoint cubes are a fine (two-part) solid.
  Mesh apart = cube(kCubeTriangles);
  append(apart, cube(kCubeTriangles, true, 3, 0, 0));
  EXPECT_TRUE(check_solid(apart).outward_solid());
}

TEST(SolidCheck, InsideOutCubeHasNegativeVolume) {
  std::vector<Tri> tris = kCubeTriangles;
  for (Tri& t : tris) std::swap(t[1], t[2]);
  const SolidCheck c = check_solid(cube(tris));
  EXPECT_TRUE(c.closed());
  EXPECT_EQ(c.signed_volume, -1.0);
  EXPECT_FALSE(c.outward_solid());
  EXPECT_EQ(solid_problem(c), "inside out: the faces point inward (signed volume -1)");
}

TEST(SolidCheck, DegenerateTrianglesAreSkipped) {
  Mesh m = cube(kCubeTriangles);
  m.add_triangle(0, 0, 7);                           // repeated index
  const std::uint32_t twin = m.add_vertex(1, 1, 1);  // a copy of vertex 7
  m.add_triangle(7, twin, 3);                        // repeated point
  const SolidCheck c = check_solid(m);
  EXPECT_EQ(c.degenerate_triangles, 2u);
  EXPECT_TRUE(c.outward_solid());
}

TEST(SolidCheck, FlatOrEmptyMeshHasNoCertainVolume) {
  Mesh flat;
  flat.add_vertex(0, 0, 0);
  flat.add_vertex(1, 0, 0);
  flat.add_vertex(0, 1, 0);
  flat.add_triangle(0, 1, 2);
  flat.add_triangle(0, 2, 1);
  const SolidCheck c = check_solid(flat);
  EXPECT_TRUE(c.closed());  // every edge used twice, in opposite directions
  EXPECT_EQ(c.signed_volume, 0.0);
  EXPECT_FALSE(c.outward_solid());
  EXPECT_NE(solid_problem(c).find("no certain volume"), std::string::npos) << solid_problem(c);

  EXPECT_EQ(solid_problem(check_solid(Mesh{})),
            "not a closed solid: no triangles with three distinct corners");
}

}  // namespace
}  // namespace kdop
