#include "geometry/dop_normal_fan.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/dop_vertices.hpp"

namespace kdop {
namespace {

template <int K>
Vec3 signed_direction(int g) {
  constexpr auto dirs = DopShape<K>::directions();
  constexpr int S = DopShape<K>::slabs;
  const Direction& d = dirs[g % S];
  const double sign = g < S ? 1.0 : -1.0;
  return {sign * d.x, sign * d.y, sign * d.z};
}

// The cube-map cell of direction u (not zero): the face of its largest component, then the
// other two components over that one, each in [-1, 1], cut into cube_map_side parts.
std::size_t cube_map_cell(const Vec3& u) {
  constexpr int n = NormalFan::cube_map_side;
  const double a[3] = {std::fabs(u.x), std::fabs(u.y), std::fabs(u.z)};
  const double c[3] = {u.x, u.y, u.z};
  const int axis = a[0] >= a[1] ? (a[0] >= a[2] ? 0 : 2) : (a[1] >= a[2] ? 1 : 2);
  if (!(a[axis] > 0)) return 0;  // no direction: any cell's cones fail, and the search decides
  const int face = 2 * axis + (c[axis] < 0 ? 1 : 0);
  auto part = [&](double v) {
    const int i = static_cast<int>((v / a[axis] + 1) * (0.5 * n));
    return std::clamp(i, 0, n - 1);
  };
  const int p = part(c[(axis + 1) % 3]), q = part(c[(axis + 2) % 3]);
  return (static_cast<std::size_t>(face) * n + static_cast<std::size_t>(p)) * n +
         static_cast<std::size_t>(q);
}

// Each cell's cones, by containing_cone over a 5 x 5 grid of directions spanning the cell (its
// corners included): 2-3 ms per K, once per process.
void fill_cube_map(NormalFan& fan) {
  constexpr int n = NormalFan::cube_map_side, grid = 5;
  fan.cell_cones.assign(6 * n * n, {});
  for (auto& cell : fan.cell_cones) cell.fill(NormalFan::no_cone);
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2;
    const double sign = face % 2 == 0 ? 1.0 : -1.0;
    for (int p = 0; p < n; ++p) {
      for (int q = 0; q < n; ++q) {
        std::vector<std::pair<int, std::uint16_t>> met;  // (times met, cone)
        for (int i = 0; i < grid; ++i) {
          for (int k = 0; k < grid; ++k) {
            double c[3];
            c[axis] = sign;
            c[(axis + 1) % 3] = -1 + 2.0 * (p + i / (grid - 1.0)) / n;
            c[(axis + 2) % 3] = -1 + 2.0 * (q + k / (grid - 1.0)) / n;
            double l[3];
            const auto cone = static_cast<std::uint16_t>(
                &containing_cone(fan, Vec3{c[0], c[1], c[2]}, l) - fan.cones.data());
            auto it = std::find_if(met.begin(), met.end(),
                                   [&](const auto& m) { return m.second == cone; });
            if (it == met.end()) {
              met.emplace_back(1, cone);
            } else {
              ++it->first;
            }
          }
        }
        std::stable_sort(met.begin(), met.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        auto& cell = fan.cell_cones[(static_cast<std::size_t>(face) * n + p) * n + q];
        for (std::size_t i = 0; i < met.size() && i < cell.size(); ++i) cell[i] = met[i].second;
      }
    }
  }
}

template <int K>
NormalFan build_fan() {
  constexpr int S = DopShape<K>::slabs;
  // Every plane at distance 1 from the origin (offset |n|): each is tangent to the unit sphere
  // at its own normal, a point strictly inside every other half-space, so each is a real face.
  double lo[S], hi[S];
  constexpr auto dirs = DopShape<K>::directions();
  for (int j = 0; j < S; ++j) {
    hi[j] = norm(dirs[j]);
    lo[j] = -hi[j];
  }
  const DopVertices generic = dop_vertices<K>(lo, hi);
  NormalFan fan;
  fan.cone_first.push_back(0);
  for (const Vec3& v : generic.points) {
    // The planes through v, ordered around v's direction.
    std::vector<int> through;
    for (int g = 0; g < 2 * S; ++g) {
      const Vec3 n = signed_direction<K>(g);
      if (std::fabs(dot(n, v) - norm(n)) < 1e-9) through.push_back(g);
    }
    const Vec3 axis = (1.0 / norm(v)) * v;
    Vec3 e1 = cross(axis, Vec3{1, 0, 0});
    if (norm(e1) < 0.5) e1 = cross(axis, Vec3{0, 1, 0});
    e1 = (1.0 / norm(e1)) * e1;
    const Vec3 e2 = cross(axis, e1);
    std::sort(through.begin(), through.end(), [&](int a, int b) {
      const Vec3 na = signed_direction<K>(a), nb = signed_direction<K>(b);
      return std::atan2(dot(na, e2), dot(na, e1)) < std::atan2(dot(nb, e2), dot(nb, e1));
    });
    // A fan of triangles from the first generator.
    for (std::size_t i = 1; i + 1 < through.size(); ++i) {
      const int g[3] = {through[0], through[i], through[i + 1]};
      const Vec3 a = signed_direction<K>(g[0]), b = signed_direction<K>(g[1]),
                 c = signed_direction<K>(g[2]);
      // M has columns a, b, c; M^-1 = adj(M) / det(M), rows (b x c), (c x a), (a x b) / det.
      const double det = dot(a, cross(b, c));
      if (std::fabs(det) < 1e-12) continue;  // coplanar generators span no cone
      const Vec3 r0 = cross(b, c), r1 = cross(c, a), r2 = cross(a, b);
      FanCone cone{{static_cast<std::uint8_t>(g[0]), static_cast<std::uint8_t>(g[1]),
                    static_cast<std::uint8_t>(g[2])},
                   {r0.x / det, r0.y / det, r0.z / det, r1.x / det, r1.y / det, r1.z / det,
                    r2.x / det, r2.y / det, r2.z / det}};
      fan.cones.push_back(cone);
    }
    fan.vertices.push_back(v);
    fan.cone_first.push_back(static_cast<std::uint32_t>(fan.cones.size()));
  }
  fill_cube_map(fan);
  return fan;
}

}  // namespace

template <int K>
const NormalFan& normal_fan() {
  static const NormalFan fan = build_fan<K>();  // immutable once built (thread-safe init)
  return fan;
}

template const NormalFan& normal_fan<6>();
template const NormalFan& normal_fan<8>();
template const NormalFan& normal_fan<14>();
template const NormalFan& normal_fan<18>();
template const NormalFan& normal_fan<26>();
template const NormalFan& normal_fan<32>();

const FanCone& containing_cone(const NormalFan& fan, const Vec3& u, double l[3]) {
  std::uint32_t best_vertex = 0;
  double best = -INFINITY;
  for (std::uint32_t v = 0; v < fan.vertices.size(); ++v) {
    const double d = dot(u, fan.vertices[v]);
    if (d > best) {
      best = d;
      best_vertex = v;
    }
  }
  const FanCone* chosen = &fan.cones[fan.cone_first[best_vertex]];
  double chosen_min = -INFINITY;
  for (std::uint32_t c = fan.cone_first[best_vertex]; c < fan.cone_first[best_vertex + 1]; ++c) {
    const double* m = fan.cones[c].inverse;
    const double l0 = m[0] * u.x + m[1] * u.y + m[2] * u.z;
    const double l1 = m[3] * u.x + m[4] * u.y + m[5] * u.z;
    const double l2 = m[6] * u.x + m[7] * u.y + m[8] * u.z;
    const double smallest = std::min({l0, l1, l2});
    if (smallest > chosen_min) {
      chosen_min = smallest;
      chosen = &fan.cones[c];
      l[0] = l0;
      l[1] = l1;
      l[2] = l2;
    }
  }
  return *chosen;
}

const FanCone& find_cone(const NormalFan& fan, const Vec3& u, double l[3]) {
  for (const std::uint16_t c : fan.cell_cones[cube_map_cell(u)]) {
    if (c == NormalFan::no_cone) break;
    if (cone_holds(fan.cones[c], u, l)) return fan.cones[c];
  }
  return containing_cone(fan, u, l);
}

}  // namespace kdop
