#include "geometry/shapes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

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

Mesh scaled_mesh(const Mesh& m, double factor) {
  Mesh s = m;
  for (std::vector<double>* c : {&s.x, &s.y, &s.z}) {
    for (double& v : *c) v *= factor;
  }
  return s;
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

Mesh make_ellipsoid(Vec3 center, Vec3 radii, int slices, int stacks) {
  Mesh m = make_sphere({0, 0, 0}, 1.0, slices, stacks);
  // make_sphere puts its poles on z; a cyclic permutation of the axes (a rotation, so triangles
  // keep facing outward) moves them to the longest axis.
  const int pole_axis = radii.x >= radii.y && radii.x >= radii.z ? 0 : (radii.y >= radii.z ? 1 : 2);
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    const double x = m.x[v], y = m.y[v], pole = m.z[v];
    const Vec3 p = pole_axis == 0   ? Vec3{pole, x, y}
                   : pole_axis == 1 ? Vec3{y, pole, x}
                                    : Vec3{x, y, pole};
    m.x[v] = center.x + radii.x * p.x;
    m.y[v] = center.y + radii.y * p.y;
    m.z[v] = center.z + radii.z * p.z;
  }
  return m;
}

namespace {

Vec3 vertex(const Mesh& m, std::uint32_t i) {
  return {m.x[i], m.y[i], m.z[i]};
}

// Adds triangle (i, j, k) facing away from `inside`, a point from which the part is star-shaped.
void add_outward(Mesh& m, std::uint32_t i, std::uint32_t j, std::uint32_t k, Vec3 inside) {
  const Vec3 p = vertex(m, i);
  if (dot(cross(vertex(m, j) - p, vertex(m, k) - p), p - inside) < 0) std::swap(j, k);
  m.add_triangle(i, j, k);
}

// The quad p q r s (in order around it) as two outward triangles sharing the diagonal p r.
void add_outward_quad(Mesh& m, std::uint32_t p, std::uint32_t q, std::uint32_t r, std::uint32_t s,
                      Vec3 inside) {
  add_outward(m, p, q, r, inside);
  add_outward(m, p, r, s, inside);
}

}  // namespace

Mesh make_axe(int edge_segments) {
  Mesh m;
  // Handle: the box [-0.05, 0.05] x [-0.035, 0.035] x [-0.7, 0.55], corner i at bits (x, y, z).
  const Vec3 lo{-0.05, -0.035, -0.7}, hi{0.05, 0.035, 0.55};
  for (int i = 0; i < 8; ++i) {
    m.add_vertex((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
  }
  const Vec3 handle_inside = 0.5 * (lo + hi);
  const std::uint32_t faces[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                     {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& f : faces) add_outward_quad(m, f[0], f[1], f[2], f[3], handle_inside);

  // Blade: cross-sections at heights along u in [-1, 1], each a triangle: a back edge in the
  // handle's mid-plane x = 0 (0.06 thick, 0.16 tall overall) and a point of the cutting edge,
  // which flares to 0.4 tall and bulges to x = 0.47 in the middle, like an axe's bit.
  const double zc = 0.4;
  const Vec3 blade_inside{0.15, 0, zc};
  std::vector<std::uint32_t> back_pos, back_neg, edge;
  for (int i = 0; i <= edge_segments; ++i) {
    const double u = -1 + 2.0 * i / edge_segments;
    back_pos.push_back(m.add_vertex(0, 0.03, zc + 0.08 * u));
    back_neg.push_back(m.add_vertex(0, -0.03, zc + 0.08 * u));
    edge.push_back(m.add_vertex(0.06 + 0.41 * (1 - 0.3 * u * u), 0, zc + 0.2 * u));
  }
  for (int i = 0; i < edge_segments; ++i) {
    add_outward_quad(m, back_pos[i], back_pos[i + 1], back_neg[i + 1], back_neg[i], blade_inside);
    add_outward_quad(m, back_pos[i], back_pos[i + 1], edge[i + 1], edge[i], blade_inside);
    add_outward_quad(m, back_neg[i], back_neg[i + 1], edge[i + 1], edge[i], blade_inside);
  }
  const auto last = static_cast<std::size_t>(edge_segments);
  add_outward(m, back_pos[0], back_neg[0], edge[0], blade_inside);
  add_outward(m, back_pos[last], back_neg[last], edge[last], blade_inside);
  return m;
}

namespace {

// One ellipsoid part of the airplane, in units of its length: rotated by `yaw` about z, then
// `pitch` about y (about its own centre), tessellated into about `triangles` nearly isotropic
// triangles (more rings along the long axis of a slender part).
Mesh airplane_part(double length, Vec3 center, Vec3 radii, double yaw, double pitch,
                   int triangles) {
  const double longest = std::fmax(radii.x, std::fmax(radii.y, radii.z));
  const double others = (radii.x + radii.y + radii.z - longest) / 2;
  const double aspect = std::clamp(longest / (2 * others), 0.5, 8.0);
  const int rows = std::max(2, static_cast<int>(std::lround(std::sqrt(triangles * aspect / 2))));
  const int slices = std::max(4, static_cast<int>(std::lround(triangles / (2.0 * rows))));
  Mesh m = make_ellipsoid({0, 0, 0}, length * radii, slices, rows + 1);
  const double cy = std::cos(yaw), sy = std::sin(yaw), cp = std::cos(pitch), sp = std::sin(pitch);
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    const double x1 = cy * m.x[v] - sy * m.y[v], y1 = sy * m.x[v] + cy * m.y[v];
    const double x2 = cp * x1 + sp * m.z[v], z2 = -sp * x1 + cp * m.z[v];
    m.x[v] = length * center.x + x2;
    m.y[v] = length * center.y + y1;
    m.z[v] = length * center.z + z2;
  }
  return m;
}

}  // namespace

Mesh make_airplane(double length, int triangles) {
  struct Part {
    Vec3 center, radii;  // in units of the length
    double yaw, pitch;   // radians
    double share;        // of the triangles (the shares add up to 1)
  };
  // Positive yaw sweeps a +y wing back (its tip to -x); negative pitch leans the fin back.
  const Part parts[] = {
      {{0, 0, 0}, {0.5, 0.045, 0.05}, 0, 0, 0.38},               // fuselage
      {{-0.04, 0.2, -0.025}, {0.07, 0.23, 0.01}, 0.5, 0, 0.16},  // wings
      {{-0.04, -0.2, -0.025}, {0.07, 0.23, 0.01}, -0.5, 0, 0.16},
      {{-0.42, 0.075, 0.015}, {0.035, 0.085, 0.006}, 0.6, 0, 0.05},  // stabilizers
      {{-0.42, -0.075, 0.015}, {0.035, 0.085, 0.006}, -0.6, 0, 0.05},
      {{-0.4, 0, 0.085}, {0.065, 0.006, 0.09}, 0, -0.5, 0.08},    // fin
      {{0.03, 0.12, -0.055}, {0.045, 0.016, 0.016}, 0, 0, 0.03},  // engines
      {{0.03, -0.12, -0.055}, {0.045, 0.016, 0.016}, 0, 0, 0.03},
      {{-0.05, 0.26, -0.05}, {0.045, 0.016, 0.016}, 0, 0, 0.03},
      {{-0.05, -0.26, -0.05}, {0.045, 0.016, 0.016}, 0, 0, 0.03},
  };
  Mesh m;
  for (const Part& p : parts) {
    const int budget = static_cast<int>(std::lround(p.share * triangles));
    append_mesh(m, airplane_part(length, p.center, p.radii, p.yaw, p.pitch, budget));
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

Mesh make_box(Vec3 lo, Vec3 hi) {
  Mesh m;
  for (int i = 0; i < 8; ++i) {
    m.add_vertex(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
  }
  // Corner i has bit 0 for x, bit 1 for y, bit 2 for z; each face counter-clockwise from outside.
  const std::uint32_t faces[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                                      {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                                      {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  for (const auto& f : faces) m.add_triangle(f[0], f[1], f[2]);
  return m;
}

Mesh make_heightfield_block(const std::vector<double>& xs, const std::vector<double>& ys,
                            double base_z, const std::vector<double>& heights) {
  const std::size_t nx = xs.size(), ny = ys.size();
  if (nx < 2 || ny < 2 || heights.size() != nx * ny) {
    throw std::invalid_argument(
        "height field block: need a 2 x 2 grid or more and one height per "
        "grid vertex");
  }
  for (std::size_t i = 1; i < nx; ++i) {
    if (!(xs[i] > xs[i - 1])) throw std::invalid_argument("height field block: xs must increase");
  }
  for (std::size_t j = 1; j < ny; ++j) {
    if (!(ys[j] > ys[j - 1])) throw std::invalid_argument("height field block: ys must increase");
  }
  for (const double h : heights) {
    if (!(h > base_z) || !std::isfinite(h)) {
      throw std::invalid_argument(
          "height field block: every height must be finite and above "
          "the base");
    }
  }
  Mesh m;
  // Top vertices first (index j * nx + i), then the bottom ones (offset nx * ny).
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) m.add_vertex(xs[i], ys[j], heights[j * nx + i]);
  }
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) m.add_vertex(xs[i], ys[j], base_z);
  }
  auto top = [&](std::size_t i, std::size_t j) { return static_cast<std::uint32_t>(j * nx + i); };
  auto bottom = [&](std::size_t i, std::size_t j) {
    return static_cast<std::uint32_t>(nx * ny + j * nx + i);
  };
  for (std::size_t j = 0; j + 1 < ny; ++j) {
    for (std::size_t i = 0; i + 1 < nx; ++i) {
      // Counter-clockwise seen from above on top, from below on the bottom.
      m.add_triangle(top(i, j), top(i + 1, j), top(i + 1, j + 1));
      m.add_triangle(top(i, j), top(i + 1, j + 1), top(i, j + 1));
      m.add_triangle(bottom(i, j), bottom(i + 1, j + 1), bottom(i + 1, j));
      m.add_triangle(bottom(i, j), bottom(i, j + 1), bottom(i + 1, j + 1));
    }
  }
  // Sides: a quad from the bottom edge to the top edge, counter-clockwise from outside.
  auto side = [&](std::uint32_t b0, std::uint32_t b1, std::uint32_t t0, std::uint32_t t1) {
    m.add_triangle(b0, b1, t1);
    m.add_triangle(b0, t1, t0);
  };
  for (std::size_t i = 0; i + 1 < nx; ++i) {
    side(bottom(i, 0), bottom(i + 1, 0), top(i, 0), top(i + 1, 0));  // y = ys.front(): -y
    side(bottom(i + 1, ny - 1), bottom(i, ny - 1), top(i + 1, ny - 1), top(i, ny - 1));  // +y
  }
  for (std::size_t j = 0; j + 1 < ny; ++j) {
    side(bottom(nx - 1, j), bottom(nx - 1, j + 1), top(nx - 1, j), top(nx - 1, j + 1));  // +x
    side(bottom(0, j + 1), bottom(0, j), top(0, j + 1), top(0, j));                      // -x
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
