#include "builders/object_sphere.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>

#include "builders/dop_tree.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

using Point = std::array<double, 3>;

// The oracle: the distinct points the triangles use, by exact coordinates.
std::set<Point> distinct_referenced(const Mesh& mesh) {
  std::set<Point> points;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    for (std::uint32_t v : {mesh.a[t], mesh.b[t], mesh.c[t]}) {
      points.insert({mesh.x[v], mesh.y[v], mesh.z[v]});
    }
  }
  return points;
}

std::set<Point> as_set(const std::vector<Vec3>& corners) {
  std::set<Point> points;
  for (const Vec3& p : corners) points.insert({p.x, p.y, p.z});
  return points;
}

// The mesh as an STL reader gives it: three vertices of its own per triangle.
Mesh soup_of(const Mesh& mesh) {
  Mesh soup;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const std::uint32_t first = static_cast<std::uint32_t>(soup.vertex_count());
    for (std::uint32_t v : {mesh.a[t], mesh.b[t], mesh.c[t]}) {
      soup.add_vertex(mesh.x[v], mesh.y[v], mesh.z[v]);
    }
    soup.add_triangle(first, first + 1, first + 2);
  }
  return soup;
}

TEST(ReferencedCorners, ASoupsRepeatedCornersOnce) {
  Mesh cube = soup_of(make_box({0, 0, 0}, {1, 2, 3}));
  cube.add_vertex(9, 9, 9);  // unreferenced
  ASSERT_EQ(cube.vertex_count(), 37u);
  const std::vector<Vec3> corners = referenced_corners(cube);
  EXPECT_EQ(corners.size(), 8u);
  EXPECT_EQ(as_set(corners), distinct_referenced(cube));
}

// -0 and +0 are one point (== says so), so they must meet in the table.
TEST(ReferencedCorners, SignedZerosAreOnePoint) {
  Mesh m;
  m.add_triangle(m.add_vertex(0.0, 1, 2), m.add_vertex(1, 0.0, 0.0), m.add_vertex(2, 2, 2));
  m.add_triangle(m.add_vertex(-0.0, 1, 2), m.add_vertex(1, -0.0, -0.0), m.add_vertex(2, 2, 2));
  m.add_triangle(m.add_vertex(-0.0, 1, -0.0), m.add_vertex(1, 0.0, -0.0),
                 m.add_vertex(0.0, 1, 0.0));
  const std::vector<Vec3> corners = referenced_corners(m);
  EXPECT_EQ(corners.size(), 4u);  // (0,1,2), (1,0,0), (2,2,2), (0,1,0)
}

TEST(ReferencedCorners, MatchesTheDistinctPointsOfRandomSoups) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> cell(-3, 3);
  for (int round = 0; round < 50; ++round) {
    Mesh mesh;
    const int triangles = 1 + round * 7;
    for (int t = 0; t < triangles; ++t) {
      std::uint32_t v[3];
      for (std::uint32_t& i : v) i = mesh.add_vertex(cell(rng) * 0.5, cell(rng), cell(rng) * 0.25);
      mesh.add_triangle(v[0], v[1], v[2]);
    }
    const std::vector<Vec3> corners = referenced_corners(mesh);
    const std::set<Point> expected = distinct_referenced(mesh);
    EXPECT_EQ(corners.size(), expected.size()) << "round " << round;
    EXPECT_EQ(as_set(corners), expected) << "round " << round;
  }
}

// A flying tree of a soup keeps the same hull as of the indexed mesh: the box's 8 corners, each
// with its 3 box edges and the diagonals of the triangulated faces meeting there.
TEST(ReferencedCorners, ASoupsRootHullHasTheMeshsCorners) {
  const Mesh box = make_box({-1, -2, -3}, {1, 2, 3});
  const FlyingDopTree<18> indexed = build_flying_dop_tree<18>(box, BuildConfig::object_defaults());
  const FlyingDopTree<18> soup =
      build_flying_dop_tree<18>(soup_of(box), BuildConfig::object_defaults());
  EXPECT_EQ(soup.root_hull.points.size(), 8u);
  EXPECT_EQ(as_set(soup.root_hull.points), as_set(indexed.root_hull.points));
  EXPECT_EQ(soup.root_hull.edges.size(), indexed.root_hull.edges.size());
  EXPECT_EQ(soup.sphere_radius, indexed.sphere_radius);
  EXPECT_EQ(soup.corner_radius, indexed.corner_radius);
}

}  // namespace
}  // namespace kdop
