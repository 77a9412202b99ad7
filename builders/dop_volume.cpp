#include "builders/dop_volume.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "geometry/int_matrix.hpp"
#include "geometry/predicates.hpp"

namespace kdop {
namespace {

// Moves c to the middle of the chord of the DOP through c along u, if that chord exists.
template <int K>
void center_on_chord(const double* lo, const double* hi, const Vec3& u, Vec3& c) {
  constexpr auto dirs = DopShape<K>::directions();
  double t0 = -INFINITY, t1 = INFINITY;
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    const double a = project(dirs[j], u.x, u.y, u.z);
    const double p = project(dirs[j], c.x, c.y, c.z);
    if (a == 0) {
      if (p < lo[j] || p > hi[j]) return;  // the line misses this slab
      continue;
    }
    const double t_lo = (lo[j] - p) / a, t_hi = (hi[j] - p) / a;
    t0 = std::max(t0, std::min(t_lo, t_hi));
    t1 = std::min(t1, std::max(t_lo, t_hi));
  }
  if (t0 <= t1) c = c + (0.5 * (t0 + t1)) * u;
}

// An incremental convex hull of at most P points with exact orientation tests, in fixed-size
// arrays (no allocation). Faces are counter-clockwise seen from outside; edge_face[a][b] is the
// face holding the directed edge a -> b.
template <int P>
struct DualHull {
  static constexpr int max_faces = 2 * P;  // a hull of P points has at most 2P - 4 faces
  std::array<std::array<std::uint8_t, 3>, max_faces> face{};
  std::array<bool, max_faces> alive{};
  std::array<std::array<std::uint8_t, P>, P> edge_face{};
  std::array<Vec3, max_faces> outward{};  // (b - a) x (c - a), rounded
  std::array<std::uint8_t, max_faces> free_list{};
  int free_count = 0;
  int used = 0;  // faces ever allocated (slots [0, used) may be alive)
  const Vec3* d = nullptr;
  double certain = 0;  // |outward . (p - a)| above this decides the side without orient3d

  int new_face(int a, int b, int c) {
    const int f = free_count > 0 ? free_list[--free_count] : used++;
    face[f] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b),
               static_cast<std::uint8_t>(c)};
    outward[f] = cross(d[b] - d[a], d[c] - d[a]);
    alive[f] = true;
    edge_face[a][b] = edge_face[b][c] = edge_face[c][a] = static_cast<std::uint8_t>(f);
    return f;
  }

  // A point sees face f when it is strictly outside f's plane. The rounded plane decides when
  // it is clearly off the plane, the exact orientation otherwise (so the hull stays consistent).
  bool sees(int f, int p) const {
    const double side = dot(outward[f], d[p] - d[face[f][0]]);
    if (side > certain) return true;
    if (side < -certain) return false;
    return orient3d(d[face[f][0]], d[face[f][1]], d[face[f][2]], d[p]) < 0;
  }

  // The hull of points[0, n); the first four must not be coplanar. Points on the hull's surface
  // or inside are skipped.
  void build(const Vec3* points, int n) {
    d = points;
    // With every |coordinate| <= m, a face normal's components are <= 8 m^2 and err by less
    // than 40 eps m^2, and the side value (<= 48 m^3) by less than 400 eps m^3 in all; 2^-40 m^3
    // is twenty times that.
    double m = 0;
    for (int i = 0; i < n; ++i) {
      m = std::max({m, std::fabs(d[i].x), std::fabs(d[i].y), std::fabs(d[i].z)});
    }
    certain = 0x1p-40 * m * m * m;
    if (orient3d(d[0], d[1], d[2], d[3]) > 0) {
      new_face(0, 1, 2), new_face(0, 3, 1), new_face(1, 3, 2), new_face(0, 2, 3);
    } else {
      new_face(0, 2, 1), new_face(0, 1, 3), new_face(2, 3, 1), new_face(0, 3, 2);
    }
    std::array<bool, max_faces> visible{};
    std::array<std::array<std::uint8_t, 2>, 3 * max_faces> horizon{};
    for (int p = 4; p < n; ++p) {
      bool any = false;
      for (int f = 0; f < used; ++f) {
        visible[f] = alive[f] && sees(f, p);
        any |= visible[f];
      }
      if (!any) continue;
      int h = 0;
      for (int f = 0; f < used; ++f) {
        if (!visible[f]) continue;
        for (int e = 0; e < 3; ++e) {
          const int a = face[f][e], b = face[f][(e + 1) % 3];
          if (!visible[edge_face[b][a]]) {
            horizon[h++] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
          }
        }
      }
      for (int f = 0; f < used; ++f) {
        if (!visible[f]) continue;
        alive[f] = false;
        visible[f] = false;
        free_list[free_count++] = static_cast<std::uint8_t>(f);
      }
      for (int e = 0; e < h; ++e) new_face(horizon[e][0], horizon[e][1], p);
    }
  }
};

// Solves n_q[i] . v = s[q[i]] for i < 3 (geometry/int_matrix.hpp). False if the normals are
// dependent.
bool solve_three_planes(const auto& n, const double* s, const int q[3], Vec3& v) {
  const IntMatrix m{{{n[q[0]].x, n[q[0]].y, n[q[0]].z},
                     {n[q[1]].x, n[q[1]].y, n[q[1]].z},
                     {n[q[2]].x, n[q[2]].y, n[q[2]].z}}};
  const int det = determinant(m);
  if (det == 0) return false;
  const double h[3] = {s[q[0]], s[q[1]], s[q[2]]};
  double x[3];
  solve_with_adjugate(adjugate(m), det, h, x);
  v = {x[0], x[1], x[2]};
  return true;
}

}  // namespace

template <int K>
DopMeasure dop_measure(const double* lo, const double* hi, const Vec3& inside) {
  using Shape = DopShape<K>;
  constexpr int S = Shape::slabs;
  constexpr int P = 2 * S;  // planes: 2j is n_j . p <= hi_j, 2j + 1 is -n_j . p <= -lo_j
  constexpr auto dirs = Shape::directions();
  for (int j = 0; j < S; ++j) {
    if (!(lo[j] <= hi[j])) return {};
  }

  // 1. A well-centred interior point: the middle of chords along every direction (a point on
  // the boundary moves off every plane that some direction crosses).
  Vec3 c = inside;
  for (int j = 0; j < S; ++j) {
    center_on_chord<K>(lo, hi, to_vec3(dirs[j]), c);
  }
  std::array<Direction, P> normal;  // outward
  std::array<double, P> slack;
  double widest = 0;
  for (int j = 0; j < S; ++j) {
    widest = std::max(widest, (hi[j] - lo[j]) / norm(dirs[j]));
    const double p = project(dirs[j], c.x, c.y, c.z);
    normal[2 * j] = dirs[j];
    slack[2 * j] = hi[j] - p;
    normal[2 * j + 1] = {-dirs[j].x, -dirs[j].y, -dirs[j].z};
    slack[2 * j + 1] = p - lo[j];
  }
  // No interior point, or none farther than rounding noise from a plane: a flat DOP, whose
  // volume is at most that noise times its area.
  const double flat = 0x1p-40 * widest;
  for (int q = 0; q < P; ++q) {
    if (!(slack[q] > flat * norm(normal[q]))) return {};
  }

  // 2. The dual points and their hull. The planes +x, -x, +y, +z go first: their dual points lie
  // on the three coordinate axes, +x and -x on both sides of the origin, so the first four are
  // never coplanar.
  std::array<Vec3, P> dual;
  std::array<int, P> plane_of;  // dual point i is plane plane_of[i]
  {
    constexpr int first[4] = {0, 1, 2, 4};  // +x, -x, +y, +z
    int n = 0;
    for (int q : first) plane_of[n++] = q;
    for (int q = 0; q < P; ++q) {
      if (q != 0 && q != 1 && q != 2 && q != 4) plane_of[n++] = q;
    }
    for (int i = 0; i < P; ++i) dual[i] = (1 / slack[plane_of[i]]) * to_vec3(normal[plane_of[i]]);
  }
  DualHull<P> hull;
  hull.build(dual.data(), P);

  // 3. DOP vertex per hull facet: where its three planes meet, solved in the primal with the
  // integer normals' adjugate (more accurate than m / e when slacks differ by orders of
  // magnitude, as for thin DOPs). A facet whose dual points are collinear (three planes of one
  // pencil) takes a neighbour's vertex: both lie on the pencil's common line.
  std::array<Vec3, DualHull<P>::max_faces> vertex;
  std::array<bool, DualHull<P>::max_faces> solved{};
  int unsolved = 0;
  for (int f = 0; f < hull.used; ++f) {
    if (!hull.alive[f]) continue;
    const int q[3] = {plane_of[hull.face[f][0]], plane_of[hull.face[f][1]],
                      plane_of[hull.face[f][2]]};
    solved[f] = solve_three_planes(normal, slack.data(), q, vertex[f]);
    unsolved += !solved[f];
  }
  for (int pass = 0; unsolved > 0 && pass < DualHull<P>::max_faces; ++pass) {
    for (int f = 0; f < hull.used; ++f) {
      if (!hull.alive[f] || solved[f]) continue;
      for (int e = 0; e < 3 && !solved[f]; ++e) {
        const int g = hull.edge_face[hull.face[f][(e + 1) % 3]][hull.face[f][e]];
        if (solved[g]) vertex[f] = vertex[g], solved[f] = true, --unsolved;
      }
    }
  }
  if (unsolved > 0) return {};  // every facet degenerate: no volume to speak of
  // Face a (dual point a) is fanned from the foot of the perpendicular from c on its plane,
  // foot = (s / |n|^2) n: triangle (foot, v_f, v_g) for each hull edge a -> b of facet f, g the
  // facet across it. Its tetrahedron with c has 6 x volume foot . (v_f x v_g).
  std::array<double, P> face_six_volume{};  // signed, per dual point
  for (int f = 0; f < hull.used; ++f) {
    if (!hull.alive[f]) continue;
    for (int e = 0; e < 3; ++e) {
      const int a = hull.face[f][e], b = hull.face[f][(e + 1) % 3];
      const Vec3& other = vertex[hull.edge_face[b][a]];
      const int q = plane_of[a];
      face_six_volume[a] += dot(to_vec3(normal[q]), cross(vertex[f], other)) * slack[q];
    }
  }
  // With foot = (s / |n|^2) n: 6 V_face = (s / |n|^2) n . (v_f x v_g) summed, and the face's
  // pyramid has 6 V = 2 h A with h = s / |n|, so A = 3 V / h.
  DopMeasure out;
  double six_volume = 0;
  for (int a = 0; a < P; ++a) {
    const int q = plane_of[a];
    const double nn = dot(to_vec3(normal[q]), to_vec3(normal[q]));
    const double six = face_six_volume[a] / nn;
    six_volume += six;
    out.area += std::fabs(six) / 2 / (slack[q] / std::sqrt(nn));
  }
  out.volume = std::fabs(six_volume) / 6;
  return out;
}

template DopMeasure dop_measure<6>(const double*, const double*, const Vec3&);
template DopMeasure dop_measure<8>(const double*, const double*, const Vec3&);
template DopMeasure dop_measure<14>(const double*, const double*, const Vec3&);
template DopMeasure dop_measure<18>(const double*, const double*, const Vec3&);
template DopMeasure dop_measure<26>(const double*, const double*, const Vec3&);
template DopMeasure dop_measure<32>(const double*, const double*, const Vec3&);

}  // namespace kdop
