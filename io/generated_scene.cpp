#include "io/generated_scene.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "engine/collision_pair.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

// ---- Random draws and rotations ----------------------------------------------------------------

// An independent generator state per (seed, purpose): a bijective mix, so different seeds give
// different scenes and adding draws to one family never shifts another.
std::uint64_t stream(std::uint64_t seed, std::uint64_t purpose) {
  const std::uint64_t z = (seed * 0xBF58476D1CE4E5B9ull) ^ (purpose * 0x94D049BB133111EBull);
  return (z ^ (z >> 31)) * 0x9E3779B97F4A7C15ull;
}

double uniform(std::uint64_t& rng, double lo, double hi) {
  return lo + (hi - lo) * next_uniform(rng);
}

// A point drawn uniformly in the unit ball, by rejection.
Vec3 random_in_ball(std::uint64_t& rng) {
  for (;;) {
    const Vec3 v{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    if (dot(v, v) <= 1) return v;
  }
}

Vec3 random_unit(std::uint64_t& rng) {
  for (;;) {
    const Vec3 v = random_in_ball(rng);
    const double n = norm(v);
    if (n > 1e-3) return (1 / n) * v;
  }
}

// Unit quaternions (w, x, y, z); composing and normalizing them needs no sin or cos, which keeps
// the paths bit-identical on every platform.
using Quat = std::array<double, 4>;

Quat multiply(const Quat& a, const Quat& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

Quat normalized(const Quat& q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

Quat conjugate(const Quat& q) {
  return {q[0], -q[1], -q[2], -q[3]};
}

// The rotation (1, v) normalized with v = `reach` times a point of the unit ball: about a random
// axis, by an angle of at most 2 atan(reach).
Quat random_turn(std::uint64_t& rng, double reach) {
  const Vec3 v = reach * random_in_ball(rng);
  return normalized({1, v.x, v.y, v.z});
}

Pose pose_at(Vec3 p, const Quat& q) {
  return pose_from_quaternion(p.x, p.y, p.z, q[0], q[1], q[2], q[3]);
}

Vec3 rotate(const Pose& pose, Vec3 v) {
  const auto& r = pose.r;
  return {r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
          r[6] * v.x + r[7] * v.y + r[8] * v.z};
}

// ---- Sizes and names ------------------------------------------------------------------------

int scaled(double full, double scale, int minimum) {
  return std::max(minimum, static_cast<int>(std::lround(full * scale)));
}

// Shortest decimal that reads back to `v`, with at least one digit after the point ("1.0",
// "0.0003"), for scene names.
std::string decimal(double v) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed).ptr;
  std::string s(buf, end);
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

std::string percent(int part, std::size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * part / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string str(std::size_t n) {
  return std::to_string(n);
}

// ---- Shared pieces ----------------------------------------------------------------------------

// Adds the tetrahedron with corners v, its triangles facing outward.
void add_tetrahedron(Mesh& m, const std::array<Vec3, 4>& v) {
  std::uint32_t i[4];
  for (int k = 0; k < 4; ++k) i[k] = m.add_vertex(v[k].x, v[k].y, v[k].z);
  // With v3 on the positive side of (v0, v1, v2), the faces below all face away from the
  // opposite corner; otherwise swapping two corners makes it so.
  if (dot(cross(v[1] - v[0], v[2] - v[0]), v[3] - v[0]) < 0) std::swap(i[1], i[2]);
  m.add_triangle(i[0], i[2], i[1]);
  m.add_triangle(i[0], i[1], i[3]);
  m.add_triangle(i[1], i[2], i[3]);
  m.add_triangle(i[2], i[0], i[3]);
}

// A randomly turned, slightly irregular tetrahedron whose corners lie within `radius` of `c`
// (between 0.75 and 1 times it).
std::array<Vec3, 4> random_tetrahedron(std::uint64_t& rng, Vec3 c, double radius) {
  static constexpr double k = 0.57735026918962576;  // 1 / sqrt(3): regular corners on the sphere
  const Vec3 corners[4] = {{k, k, k}, {k, -k, -k}, {-k, k, -k}, {-k, -k, k}};
  const Pose turn = random_pose(rng, {0, 0, 0}, {0, 0, 0});
  std::array<Vec3, 4> v;
  for (int i = 0; i < 4; ++i) {
    v[i] = c + (radius * uniform(rng, 0.75, 1.0)) * rotate(turn, corners[i]);
  }
  return v;
}

double bounding_radius(const Mesh& m) {
  double r2 = 0;
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    r2 = std::max(r2, m.x[v] * m.x[v] + m.y[v] * m.y[v] + m.z[v] * m.z[v]);
  }
  return std::sqrt(r2);
}

struct Billiard {
  Vec3 lo, hi;     // the box the object's origin stays in; its walls reflect the path
  double speed;    // distance per step
  double spin;     // reach of the per-step turn (random_turn)
  double deflect;  // how far a reversal is turned aside (0 = exact reversal)
  int steps;
};

struct Path {
  std::vector<Pose> poses;
  int colliding = 0;
};

// The k-DOP paper's billiard path (section 5.2): the object moves by a velocity and a slow spin;
// the room's walls reflect it; when a pose collides (kdop first-contact query), the motion
// reverses: the object stays at its last free pose and velocity and spin flip. Every queried pose
// is recorded, colliding ones included, as in the paper's flights. The reversed velocity is also
// turned aside at random: an exact reversal retraces the path and would shuttle between the same
// two obstacles forever.
Path billiard_path(const Mesh& environment, const Mesh& object, const Billiard& b, Vec3 start,
                   std::uint64_t& rng) {
  CollisionPair pair(environment, object, PairConfig{});
  auto collides = [&](const Pose& pose) {
    return pair.query(pose, QueryMode::first_contact).collides;
  };
  Vec3 p = start;
  Quat q{1, 0, 0, 0};
  // Start from a free pose, so there is always a free pose to return to.
  for (int attempt = 0; collides(pose_at(p, q)); ++attempt) {
    if (attempt == 1000) throw std::runtime_error("billiard path: no free start pose found");
    p = {uniform(rng, b.lo.x, b.hi.x), uniform(rng, b.lo.y, b.hi.y), uniform(rng, b.lo.z, b.hi.z)};
  }
  Vec3 v = b.speed * random_unit(rng);
  Quat turn = random_turn(rng, b.spin);

  Path path;
  path.poses.reserve(static_cast<std::size_t>(b.steps));
  for (int step = 0; step < b.steps; ++step) {
    Vec3 next = p + v;
    if (next.x < b.lo.x || next.x > b.hi.x) v.x = -v.x;
    if (next.y < b.lo.y || next.y > b.hi.y) v.y = -v.y;
    if (next.z < b.lo.z || next.z > b.hi.z) v.z = -v.z;
    next = p + v;
    const Quat next_q = normalized(multiply(q, turn));
    const Pose pose = pose_at(next, next_q);
    path.poses.push_back(pose);
    if (collides(pose)) {
      ++path.colliding;
      const Vec3 away = (-1 / b.speed) * v + b.deflect * random_unit(rng);
      v = (b.speed / norm(away)) * away;
      turn = conjugate(turn);
    } else {
      p = next;
      q = next_q;
    }
  }
  return path;
}

// ---- Families ---------------------------------------------------------------------------------

// k-DOP paper, section 5.2 and Table 2, "Torus": a deformed torus flying a billiard path among
// stalagmites, as `kdop demo` flies it (room 100 x 100 x 30, 1,250 cones of 80 triangles).
GeneratedScene torus_scene(const SceneOptions& o) {
  const double s = o.scale;
  const double side = std::max(20.0, 100 * std::sqrt(s));  // keeps the cone density
  const Vec3 room_lo{0, 0, 0}, room_hi{side, side, 30};
  GeneratedScene scene{"torus", "torus", {}, {}, {}, {}};
  scene.environment =
      make_stalagmites(room_lo, room_hi, scaled(1250, s, 1), 40, stream(o.seed, 10));
  const int major = scaled(200, std::sqrt(s), 12), minor = scaled(50, std::sqrt(s), 4);
  scene.object = make_torus({0, 0, 0}, 3.0, 1.0, major, minor, 0.15);

  const double margin = 4.5;  // about the torus' outer radius
  const Billiard b{room_lo + Vec3{margin, margin, margin},
                   room_hi - Vec3{margin, margin, margin},
                   0.25,
                   0.03,
                   0.6,
                   scaled(2000, s, 10)};
  std::uint64_t rng = stream(o.seed, 11);
  Path path = billiard_path(scene.environment, scene.object, b, {side / 2, side / 2, 15}, rng);
  scene.poses = std::move(path.poses);
  scene.description = "k-DOP paper 5.2 Torus: deformed torus (" +
                      str(scene.object.triangle_count()) + " tri) on a billiard path among " +
                      "stalagmites (" + str(scene.environment.triangle_count()) + " tri), " +
                      str(scene.poses.size()) + " steps, " +
                      percent(path.colliding, scene.poses.size()) + " colliding";
  return scene;
}

// A cubic uniform B-spline over a random walk of control points and turns, one spline segment
// per 125 steps whatever the step count (so a scaled-down path is a shorter path, not a faster
// one): smooth in position and orientation, built from arithmetic only.
std::vector<Pose> smooth_random_path(std::uint64_t& rng, int steps, double stride) {
  constexpr double steps_per_segment = 125;
  const int segments = static_cast<int>(std::ceil(steps / steps_per_segment));
  std::vector<Vec3> points{{0, 0, 0}};
  std::vector<Quat> turns{random_turn(rng, 4.0)};
  for (int k = 1; k < segments + 3; ++k) {
    points.push_back(points.back() + stride * random_in_ball(rng));
    // Each control orientation turns the previous one by at most 77 degrees: a smooth tumble,
    // and neighbours keep a positive dot product, so blending them never flips.
    turns.push_back(multiply(turns.back(), random_turn(rng, 0.8)));
  }
  std::vector<Pose> poses;
  for (int i = 0; i < steps; ++i) {
    const double t = i / steps_per_segment;
    const int k = std::min(static_cast<int>(t), segments - 1);
    const double u = t - k, u2 = u * u, u3 = u2 * u;
    const double w[4] = {(1 - 3 * u + 3 * u2 - u3) / 6, (4 - 6 * u2 + 3 * u3) / 6,
                         (1 + 3 * u + 3 * u2 - 3 * u3) / 6, u3 / 6};
    Vec3 p;
    Quat q{0, 0, 0, 0};
    for (int j = 0; j < 4; ++j) {
      p = p + w[j] * points[static_cast<std::size_t>(k + j)];
      for (int c = 0; c < 4; ++c) q[c] += w[j] * turns[static_cast<std::size_t>(k + j)][c];
    }
    poses.push_back(pose_at(p, normalized(q)));
  }
  return poses;
}

// Candidate obstacles for the swept scene: tetrahedra just outside the object's surface at
// random poses of the path (a surface point drawn by area, pushed out along the face normal).
std::vector<std::array<Vec3, 4>> near_path_tetrahedra(std::uint64_t& rng, const Mesh& object,
                                                      const std::vector<Pose>& poses, int n) {
  std::vector<double> cumulative_area;
  double total = 0;
  for (std::size_t t = 0; t < object.triangle_count(); ++t) {
    const Vec3 a{object.x[object.a[t]], object.y[object.a[t]], object.z[object.a[t]]};
    const Vec3 b{object.x[object.b[t]], object.y[object.b[t]], object.z[object.b[t]]};
    const Vec3 c{object.x[object.c[t]], object.y[object.c[t]], object.z[object.c[t]]};
    total += norm(cross(b - a, c - a));
    cumulative_area.push_back(total);
  }
  std::vector<std::array<Vec3, 4>> tets;
  for (int i = 0; i < n; ++i) {
    const Pose& pose = poses[static_cast<std::size_t>(next_uniform(rng) * poses.size())];
    const auto t =
        static_cast<std::size_t>(std::upper_bound(cumulative_area.begin(), cumulative_area.end(),
                                                  total * next_uniform(rng)) -
                                 cumulative_area.begin());
    const Vec3 a{object.x[object.a[t]], object.y[object.a[t]], object.z[object.a[t]]};
    const Vec3 b{object.x[object.b[t]], object.y[object.b[t]], object.z[object.b[t]]};
    const Vec3 c{object.x[object.c[t]], object.y[object.c[t]], object.z[object.c[t]]};
    const double r = std::sqrt(next_uniform(rng)), h = next_uniform(rng);
    const Vec3 surface = apply_pose(pose, (1 - r) * a + (r * (1 - h)) * b + (r * h) * c);
    const Vec3 n_face = cross(b - a, c - a);
    const Vec3 normal = rotate(pose, (1 / norm(n_face)) * n_face);
    const double radius = uniform(rng, 0.02, 0.05), gap = uniform(rng, 0.002, 0.03);
    tets.push_back(random_tetrahedron(rng, surface + (gap + radius) * normal, radius));
  }
  return tets;
}

// k-DOP paper, section 5.1 and Table 2, "Swept": an axe-like polyhedron flies a random smooth
// path; random tetrahedra are placed close to, but not touching, its swept volume, so the flight
// has no contact but thousands of near misses.
GeneratedScene swept_scene(const SceneOptions& o) {
  GeneratedScene scene{"swept", "swept", {}, make_axe(4), {}, {}};
  std::uint64_t rng = stream(o.seed, 20);
  scene.poses = smooth_random_path(rng, scaled(1000, o.scale, 20), 16.0);

  // Candidates touching the object at any pose of the path (kdop all-contacts) are dropped and
  // replaced by fresh ones until the target count is reached; kept ones never need re-checking.
  // Each round draws enough candidates for the share that survived the previous round.
  const auto target = static_cast<std::size_t>(scaled(10000, o.scale, 20));
  std::vector<std::array<Vec3, 4>> kept;
  double survive = 0.5;
  for (int round = 0; kept.size() < target; ++round) {
    if (round == 50) throw std::runtime_error("swept scene: too many candidates touch the path");
    const auto n = static_cast<int>(1.1 * static_cast<double>(target - kept.size()) / survive) + 16;
    const std::vector<std::array<Vec3, 4>> candidates =
        near_path_tetrahedra(rng, scene.object, scene.poses, n);
    Mesh env;
    for (const auto& t : candidates) add_tetrahedron(env, t);
    CollisionPair pair(env, scene.object, PairConfig{});
    std::vector<char> touched(candidates.size(), 0);
    for (const Pose& pose : scene.poses) {
      for (const ContactPair& c : pair.query(pose, QueryMode::all_contacts).pairs) {
        touched[c.env_triangle / 4] = 1;
      }
    }
    const auto untouched = std::count(touched.begin(), touched.end(), 0);
    survive = std::max(0.02, static_cast<double>(untouched) / static_cast<double>(n));
    for (std::size_t i = 0; i < candidates.size() && kept.size() < target; ++i) {
      if (!touched[i]) kept.push_back(candidates[i]);
    }
  }
  for (const auto& t : kept) add_tetrahedron(scene.environment, t);
  scene.description = "k-DOP paper 5.1 Swept: axe (" + str(scene.object.triangle_count()) +
                      " tri) on a smooth random path of " + str(scene.poses.size()) + " steps, " +
                      str(kept.size()) + " tetrahedra (" + str(scene.environment.triangle_count()) +
                      " tri) close to its swept volume, 0 contacts";
  return scene;
}

// k-DOP paper, section 5.2 and Table 2, "747": an airplane-like model flies a billiard path among
// random pairwise-disjoint tetrahedra. Disjoint by construction: each tetrahedron lies inside its
// own cell of a grid (random cells stay empty, and so do the cells around the start).
GeneratedScene obstacles_scene(const SceneOptions& o) {
  const double s = o.scale, cell = 4.0;
  GeneratedScene scene{"obstacles", "obstacles", {}, {}, {}, {}};
  scene.object = make_airplane(10.0, scaled(15000, s, 400));
  const double reach = bounding_radius(scene.object);
  const auto tets = static_cast<std::size_t>(scaled(25000, s, 20));
  std::uint64_t rng = stream(o.seed, 30);

  // A grid of about 2n x 2n x n cells, 25% more cells than tetrahedra, at least tall enough for
  // the object to turn in; widened if the cleared start region leaves too few cells.
  const int nz = std::max(static_cast<int>(std::lround(std::cbrt(1.25 * tets / 4))),
                          static_cast<int>(std::ceil(3 * reach / cell)));
  int nxy = static_cast<int>(std::ceil(std::sqrt(1.25 * tets / nz)));
  std::vector<std::array<int, 3>> free_cells;
  Vec3 box, start;
  for (;; ++nxy) {
    box = {nxy * cell, nxy * cell, nz * cell};
    start = 0.5 * box;
    free_cells.clear();
    for (int i = 0; i < nxy; ++i) {
      for (int j = 0; j < nxy; ++j) {
        for (int k = 0; k < nz; ++k) {
          const Vec3 center{(i + 0.5) * cell, (j + 0.5) * cell, (k + 0.5) * cell};
          if (norm(center - start) > reach + cell) free_cells.push_back({i, j, k});
        }
      }
    }
    if (free_cells.size() >= tets) break;
  }
  // A partial Fisher-Yates shuffle picks which cells hold a tetrahedron.
  for (std::size_t t = 0; t < tets; ++t) {
    const std::size_t pick =
        t + static_cast<std::size_t>(next_uniform(rng) * (free_cells.size() - t));
    std::swap(free_cells[t], free_cells[pick]);
    const auto& [i, j, k] = free_cells[t];
    // Corners within 0.05 + 0.35 cells of the cell centre on every axis: inside the cell.
    const Vec3 center{(i + 0.5 + uniform(rng, -0.05, 0.05)) * cell,
                      (j + 0.5 + uniform(rng, -0.05, 0.05)) * cell,
                      (k + 0.5 + uniform(rng, -0.05, 0.05)) * cell};
    add_tetrahedron(scene.environment,
                    random_tetrahedron(rng, center, uniform(rng, 0.2, 0.35) * cell));
  }

  const Vec3 margin{reach, reach, reach};
  const Billiard b{margin, box - margin, 0.1, 0.004, 0.6, scaled(10000, s, 20)};
  Path path = billiard_path(scene.environment, scene.object, b, start, rng);
  scene.poses = std::move(path.poses);
  scene.description = "k-DOP paper 5.2 747: airplane (" + str(scene.object.triangle_count()) +
                      " tri) on a billiard path among " + str(tets) + " disjoint tetrahedra (" +
                      str(scene.environment.triangle_count()) + " tri), " +
                      str(scene.poses.size()) + " steps, " +
                      percent(path.colliding, scene.poses.size()) + " colliding";
  return scene;
}

// make_sphere's slices and stacks for about `triangles` = 2 slices (stacks - 1) triangles, with
// slices about 2 (stacks - 1) (nearly square quads at the equator); exact when a divisor is near.
std::pair<int, int> sphere_resolution(int triangles) {
  const int half = triangles / 2;
  const int ideal = std::max(2, static_cast<int>(std::lround(std::sqrt(triangles / 4.0))));
  int rows = ideal;
  for (int d = 0; d <= ideal / 4; ++d) {
    if (half % (ideal + d) == 0) {
      rows = ideal + d;
      break;
    }
    if (ideal - d >= 2 && half % (ideal - d) == 0) {
      rows = ideal - d;
      break;
    }
  }
  const int slices = std::max(3, static_cast<int>(std::lround(half / static_cast<double>(rows))));
  return {slices, rows + 1};
}

// The smallest distance from the origin to the plane of a triangle of `m`.
double in_radius(const Mesh& m) {
  double r = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const Vec3 a{m.x[m.a[t]], m.y[m.a[t]], m.z[m.a[t]]};
    const Vec3 b{m.x[m.b[t]], m.y[m.b[t]], m.z[m.b[t]]};
    const Vec3 c{m.x[m.c[t]], m.y[m.c[t]], m.z[m.c[t]]};
    const Vec3 n = cross(b - a, c - a);
    r = std::min(r, std::fabs(dot(n, a)) / norm(n));
  }
  return r;
}

// k-DOP paper, section 5.2, Tables 6 and 7 (after Gottschalk et al.'s parallel close proximity
// test): a sphere of radius 1 and its copy scaled by 1 - alpha, at the identity and rotated about
// the common centre.
//
// The tessellated sphere P is convex, so the copy's surface misses P's iff every copy vertex lies
// inside P. A copy vertex sits at radius 1 - alpha; P contains the ball of its in-radius r. If
// 1 - alpha < r, any rotation is safe and the rotations are uniformly random. Otherwise a rotation
// must stay near a symmetry of the tessellation: a turn by 2 pi k / slices about z, possibly
// after a half turn about x, then a tilt by at most half the safe angle: near a vertex w, P
// contains the cone from w tangent to the ball of radius r, whose radius at angle theta from w is
// r / cos(acos(r) - theta), above 1 - alpha for theta < acos(r) - acos(r / (1 - alpha)).
std::vector<GeneratedScene> spheres_scenes(const SceneOptions& o) {
  const double alphas[] = {0.55, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001, 0.0003, 0.0001};
  std::vector<GeneratedScene> scenes;
  for (const int full : {2000, 20000}) {
    const auto [slices, stacks] = sphere_resolution(scaled(full, o.scale, 32));
    const Mesh outer = make_sphere({0, 0, 0}, 1.0, slices, stacks);
    const double r = in_radius(outer);
    for (const double alpha : alphas) {
      // The same stream for every alpha: where rotations may be uniformly random, scenes of one
      // size differ in alpha only.
      std::uint64_t rng = stream(o.seed, 40 + static_cast<std::uint64_t>(full));
      GeneratedScene scene{"spheres-" + std::to_string(full) + "-a" + decimal(alpha),
                           "spheres",
                           outer,
                           scaled_mesh(outer, 1 - alpha),
                           {Pose{}},
                           {}};
      const int poses = scaled(200, o.scale, 2);
      const bool any_rotation = 1 - alpha < r * (1 - 1e-9);  // margin for rounding
      const double tilt =
          any_rotation ? 0 : 0.5 * (std::acos(r) - std::acos(std::min(1.0, r / (1 - alpha))));
      for (int i = 1; i < poses; ++i) {
        if (any_rotation) {
          scene.poses.push_back(random_pose(rng, {0, 0, 0}, {0, 0, 0}));
          continue;
        }
        const double half_turn = std::numbers::pi * std::floor(next_uniform(rng) * slices) / slices;
        Quat symmetry{std::cos(half_turn), 0, 0, std::sin(half_turn)};
        if (next_uniform(rng) < 0.5) symmetry = multiply(symmetry, {0, 1, 0, 0});
        const Vec3 v = std::tan(tilt / 2) * random_in_ball(rng);
        scene.poses.push_back(
            pose_at({0, 0, 0}, multiply(symmetry, normalized({1, v.x, v.y, v.z}))));
      }
      scene.description = "k-DOP paper 5.2 nested spheres: sphere (" + str(outer.triangle_count()) +
                          " tri, radius 1) around its copy scaled by 1 - " + decimal(alpha) + ", " +
                          str(scene.poses.size()) + " poses (identity, " +
                          (any_rotation ? "random rotations" : "rotations near symmetries") +
                          "), 0 contacts";
      scenes.push_back(std::move(scene));
    }
  }
  return scenes;
}

// Moves and scales `m` uniformly so that its bounding box is centred at the origin and its
// longest side is `size`.
void fit_into_cube(Mesh& m, double size) {
  const auto [x0, x1] = std::minmax_element(m.x.begin(), m.x.end());
  const auto [y0, y1] = std::minmax_element(m.y.begin(), m.y.end());
  const auto [z0, z1] = std::minmax_element(m.z.begin(), m.z.end());
  const Vec3 lo{*x0, *y0, *z0}, hi{*x1, *y1, *z1};
  const Vec3 c = 0.5 * (lo + hi);
  const double f = size / std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    m.x[v] = f * (m.x[v] - c.x);
    m.y[v] = f * (m.y[v] - c.y);
    m.z[v] = f * (m.z[v] - c.z);
  }
}

// Zachmann 1998, section 5: two identical tori fitted into a cube of size 2; the environment one
// lies in the xy plane, the object one stands up (its axis along y before turning), its bounding
// box centre at distance d along x, and turns once about the z axis through that centre in equal
// steps. The seed only sets the starting angle.
std::vector<GeneratedScene> tori_scenes(const SceneOptions& o) {
  const double distances[] = {0.7, 1.0, 1.5, 1.9, 2.0, 2.5};
  Mesh torus = make_torus({0, 0, 0}, 0.7, 0.3, scaled(112, std::sqrt(o.scale), 8),
                          scaled(56, std::sqrt(o.scale), 4), 0);
  fit_into_cube(torus, 2.0);
  const int steps = scaled(2000, o.scale, 8);
  std::uint64_t rng = stream(o.seed, 50);
  const double start = 2 * std::numbers::pi * next_uniform(rng);
  std::vector<GeneratedScene> scenes;
  for (const double d : distances) {
    GeneratedScene scene{"tori-d" + decimal(d), "tori", torus, torus, {}, {}};
    for (int k = 0; k < steps; ++k) {
      const double phi = start + 2 * std::numbers::pi * k / steps;
      const double c = std::cos(phi), s = std::sin(phi);
      Pose pose;
      pose.r = {c, 0, s, s, 0, -c, 0, 1, 0};  // turn by phi about z after standing up about x
      pose.t = {d, 0, 0};
      scene.poses.push_back(pose);
    }
    scene.description = "Zachmann 1998 tori: two tori (" + str(torus.triangle_count()) +
                        " tri each, in a cube of size 2) at distance " + decimal(d) +
                        ", one turning once about z in " + str(scene.poses.size()) + " steps";
    scenes.push_back(std::move(scene));
  }
  return scenes;
}

}  // namespace

std::vector<std::string> scene_families() {
  return {"torus", "swept", "obstacles", "spheres", "tori"};
}

std::vector<GeneratedScene> generate_scenes(const std::string& family,
                                            const SceneOptions& options) {
  if (!(options.scale > 0 && options.scale <= 16)) {
    throw std::invalid_argument("scene scale must lie in (0, 16], got " +
                                std::to_string(options.scale));
  }
  auto one = [](GeneratedScene scene) {
    std::vector<GeneratedScene> scenes;
    scenes.push_back(std::move(scene));
    return scenes;
  };
  if (family == "torus") return one(torus_scene(options));
  if (family == "swept") return one(swept_scene(options));
  if (family == "obstacles") return one(obstacles_scene(options));
  if (family == "spheres") return spheres_scenes(options);
  if (family == "tori") return tori_scenes(options);
  std::string valid;
  for (const std::string& f : scene_families()) valid += (valid.empty() ? "" : ", ") + f;
  throw std::invalid_argument("unknown scene family '" + family + "' (valid: " + valid + ")");
}

}  // namespace kdop
