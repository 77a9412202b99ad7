#include "geometry/shapes.hpp"

#include <cmath>
#include <numbers>

namespace kdop {

double next_uniform(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-53;
}

void append_mesh(Mesh& mesh, const Mesh& part) {
  const auto offset = static_cast<std::uint32_t>(mesh.vertex_count());
  mesh.x.insert(mesh.x.end(), part.x.begin(), part.x.end());
  mesh.y.insert(mesh.y.end(), part.y.begin(), part.y.end());
  mesh.z.insert(mesh.z.end(), part.z.begin(), part.z.end());
  for (std::size_t t = 0; t < part.triangle_count(); ++t) {
    mesh.add_triangle(part.a[t] + offset, part.b[t] + offset, part.c[t] + offset);
  }
}

Mesh make_sphere(Vec3 center, double radius, int slices, int stacks) {
  Mesh m;
  const double pi = std::numbers::pi;
  const std::uint32_t north = m.add_vertex(center.x, center.y, center.z + radius);
  for (int i = 1; i < stacks; ++i) {
    const double theta = pi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double phi = 2 * pi * j / slices;
      m.add_vertex(center.x + radius * std::sin(theta) * std::cos(phi),
                   center.y + radius * std::sin(theta) * std::sin(phi),
                   center.z + radius * std::cos(theta));
    }
  }
  const std::uint32_t south = m.add_vertex(center.x, center.y, center.z - radius);
  auto ring = [&](int i, int j) {
    return static_cast<std::uint32_t>(1 + (i - 1) * slices + (j % slices));
  };
  for (int j = 0; j < slices; ++j) m.add_triangle(north, ring(1, j), ring(1, j + 1));
  for (int i = 1; i + 1 < stacks; ++i) {
    for (int j = 0; j < slices; ++j) {
      m.add_triangle(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1));
      m.add_triangle(ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
    }
  }
  for (int j = 0; j < slices; ++j)
    m.add_triangle(ring(stacks - 1, j + 1), ring(stacks - 1, j), south);
  return m;
}

Mesh make_torus(Vec3 center, double major_radius, double minor_radius, int major, int minor,
                double deform) {
  Mesh m;
  const double pi = std::numbers::pi;
  for (int i = 0; i < major; ++i) {
    const double u = 2 * pi * i / major;
    const double big = major_radius * (1 + deform * std::sin(3 * u));
    for (int j = 0; j < minor; ++j) {
      const double v = 2 * pi * j / minor;
      const double small = minor_radius * (1 + deform * std::cos(2 * u + v));
      m.add_vertex(center.x + (big + small * std::cos(v)) * std::cos(u),
                   center.y + (big + small * std::cos(v)) * std::sin(u),
                   center.z + small * std::sin(v) + deform * major_radius * 0.3 * std::sin(2 * u));
    }
  }
  auto at = [&](int i, int j) {
    return static_cast<std::uint32_t>((i % major) * minor + (j % minor));
  };
  for (int i = 0; i < major; ++i) {
    for (int j = 0; j < minor; ++j) {
      m.add_triangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      m.add_triangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  return m;
}

Mesh make_stalagmites(Vec3 box_lo, Vec3 box_hi, int count, int segments, std::uint64_t seed) {
  Mesh m;
  const double pi = std::numbers::pi;
  const double height = box_hi.z - box_lo.z;
  const double span = std::fmin(box_hi.x - box_lo.x, box_hi.y - box_lo.y);
  for (int k = 0; k < count; ++k) {
    const bool hanging = next_uniform(seed) < 0.5;
    const double cx = box_lo.x + (box_hi.x - box_lo.x) * next_uniform(seed);
    const double cy = box_lo.y + (box_hi.y - box_lo.y) * next_uniform(seed);
    const double r = span * (0.01 + 0.03 * next_uniform(seed));
    const double h = height * (0.15 + 0.35 * next_uniform(seed));
    const double base_z = hanging ? box_hi.z : box_lo.z;
    const double tip_z = hanging ? base_z - h : base_z + h;
    const double lean_x = r * (next_uniform(seed) - 0.5), lean_y = r * (next_uniform(seed) - 0.5);
    const std::uint32_t tip = m.add_vertex(cx + lean_x, cy + lean_y, tip_z);
    const std::uint32_t base = m.add_vertex(cx, cy, base_z);
    const auto first = static_cast<std::uint32_t>(m.vertex_count());
    for (int s = 0; s < segments; ++s) {
      const double a = 2 * pi * s / segments;
      const double wobble = 1 + 0.2 * (next_uniform(seed) - 0.5);
      m.add_vertex(cx + r * wobble * std::cos(a), cy + r * wobble * std::sin(a), base_z);
    }
    for (int s = 0; s < segments; ++s) {
      const std::uint32_t p = first + s, q = first + (s + 1) % segments;
      m.add_triangle(p, q, tip);
      m.add_triangle(q, p, base);
    }
  }
  return m;
}

Mesh make_tetrahedra(Vec3 box_lo, Vec3 box_hi, int count, double size, std::uint64_t seed) {
  Mesh m;
  for (int k = 0; k < count; ++k) {
    const Vec3 c{box_lo.x + (box_hi.x - box_lo.x) * next_uniform(seed),
                 box_lo.y + (box_hi.y - box_lo.y) * next_uniform(seed),
                 box_lo.z + (box_hi.z - box_lo.z) * next_uniform(seed)};
    std::uint32_t v[4];
    for (int i = 0; i < 4; ++i) {
      v[i] = m.add_vertex(c.x + size * (next_uniform(seed) - 0.5),
                          c.y + size * (next_uniform(seed) - 0.5),
                          c.z + size * (next_uniform(seed) - 0.5));
    }
    m.add_triangle(v[0], v[1], v[2]);
    m.add_triangle(v[0], v[3], v[1]);
    m.add_triangle(v[1], v[3], v[2]);
    m.add_triangle(v[2], v[3], v[0]);
  }
  return m;
}

Pose random_pose(std::uint64_t& state, Vec3 lo, Vec3 hi) {
  double q[4], n2;
  do {
    for (double& v : q) v = 2 * next_uniform(state) - 1;
    n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  } while (n2 > 1 || n2 < 1e-6);
  return pose_from_quaternion(lo.x + (hi.x - lo.x) * next_uniform(state),
                              lo.y + (hi.y - lo.y) * next_uniform(state),
                              lo.z + (hi.z - lo.z) * next_uniform(state), q[0], q[1], q[2], q[3]);
}

}  // namespace kdop
