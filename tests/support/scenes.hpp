#pragma once
// Small random scenes and poses shared by the oracle tests.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"
#include "geometry/shapes.hpp"

namespace kdop::test {

using kdop::random_pose;

struct Scene {
  std::string name;
  Mesh env;
  Mesh object;
  std::vector<Pose> poses;
};

inline Pose translation(double x, double y, double z) {
  return pose_from_quaternion(x, y, z, 1, 0, 0, 0);
}

// Rotation by a multiple of 90 degrees about z, exact in every entry, then a translation.
inline Pose quarter_turn_z(int quarters, double x, double y, double z) {
  static const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
  const int k = ((quarters % 4) + 4) % 4;
  return pose_from_matrix({c[k], -s[k], 0, x, s[k], c[k], 0, y, 0, 0, 1, z, 0, 0, 0, 1});
}

// An axis-aligned unit-grid plate at height z over [0, n]^2 (2 n^2 triangles).
inline Mesh make_grid_plate(int n, double z) {
  Mesh m;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) m.add_vertex(i, j, z);
  }
  auto at = [&](int i, int j) { return static_cast<std::uint32_t>(i * (n + 1) + j); };
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      m.add_triangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      m.add_triangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  return m;
}

// A tetrahedron standing on its corner 0 at the origin, every other point above z = 0, with
// integer coordinates (so resting it on the plane z = 0 is an exact vertex contact).
inline Mesh make_tetra_on_corner() {
  Mesh tetra;
  tetra.add_vertex(0, 0, 0);
  tetra.add_vertex(1, 0, 1);
  tetra.add_vertex(0, 1, 1);
  tetra.add_vertex(1, 1, 2);
  tetra.add_triangle(0, 1, 2);
  tetra.add_triangle(1, 3, 2);
  tetra.add_triangle(0, 3, 1);
  tetra.add_triangle(0, 2, 3);
  return tetra;
}

// A closed axis-aligned box [0, sx] x [0, sy] x [0, sz] (12 triangles).
inline Mesh make_box(double sx, double sy, double sz) {
  Mesh m;
  for (int i = 0; i < 8; ++i) m.add_vertex((i & 1) ? sx : 0, (i & 2) ? sy : 0, (i & 4) ? sz : 0);
  const std::uint32_t f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  for (const auto& t : f) m.add_triangle(t[0], t[1], t[2]);
  return m;
}

// Adds degenerate triangles (repeated corner, collinear corners, a point) and duplicates of
// existing triangles.
inline void add_degenerate_and_duplicates(Mesh& m, std::uint64_t& rng, int count) {
  const auto tris = static_cast<std::uint32_t>(m.triangle_count());
  for (int k = 0; k < count; ++k) {
    const auto t = static_cast<std::uint32_t>(next_uniform(rng) * tris);
    switch (k % 4) {
      case 0:
        m.add_triangle(m.a[t], m.b[t], m.c[t]);
        break;  // duplicate
      case 1:
        m.add_triangle(m.a[t], m.a[t], m.b[t]);
        break;  // segment by repetition
      case 2:
        m.add_triangle(m.c[t], m.c[t], m.c[t]);
        break;    // point
      default: {  // collinear corners
        const std::uint32_t a = m.a[t], b = m.b[t];
        const std::uint32_t mid =
            m.add_vertex(0.5 * (m.x[a] + m.x[b]), 0.5 * (m.y[a] + m.y[b]), 0.5 * (m.z[a] + m.z[b]));
        m.add_triangle(a, mid, b);
      }
    }
  }
}

}  // namespace kdop::test
