#include "geometry/dop_vertices.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/int_matrix.hpp"

namespace kdop {

template <int K>
DopVertices dop_vertices(const double* lo, const double* hi) {
  constexpr int S = DopShape<K>::slabs;
  constexpr auto dirs = DopShape<K>::directions();
  double scale = 0;
  for (int j = 0; j < S; ++j) scale = std::max({scale, std::fabs(lo[j]), std::fabs(hi[j])});
  // Solving (solve_with_adjugate) costs at most 4 roundings of values <= R * scale, R the
  // largest row sum |adj|_1 of any three directions' adjugate (|det| >= 1): 4 for the
  // directions in {-1, 0, 1}, 9 for K = 32, whose adjugates hold 3s and 4s (their products with
  // h round too, within the same count). A candidate is kept if it violates a constraint by at
  // most tol, and near-duplicates within tol are merged.
  const double solve_error = (K == 32 ? 0x1p-47 : 0x1p-48) * scale;
  const double tol = 4 * solve_error;

  DopVertices out;
  for (int i = 0; i < S; ++i) {
    for (int j = i + 1; j < S; ++j) {
      for (int k = j + 1; k < S; ++k) {
        const IntMatrix n{{{dirs[i].x, dirs[i].y, dirs[i].z},
                           {dirs[j].x, dirs[j].y, dirs[j].z},
                           {dirs[k].x, dirs[k].y, dirs[k].z}}};
        const int det = determinant(n);
        if (det == 0) continue;
        const IntMatrix adj = adjugate(n);
        for (int side = 0; side < 8; ++side) {
          const double h[3] = {(side & 1) ? hi[i] : lo[i], (side & 2) ? hi[j] : lo[j],
                               (side & 4) ? hi[k] : lo[k]};
          double x[3];
          solve_with_adjugate(adj, det, h, x);
          bool inside = true;
          for (int m = 0; m < S && inside; ++m) {
            const double d = project(dirs[m], x[0], x[1], x[2]);
            inside = d >= lo[m] - tol && d <= hi[m] + tol;
          }
          if (!inside) continue;
          const Vec3 p{x[0], x[1], x[2]};
          const bool duplicate =
              std::any_of(out.points.begin(), out.points.end(), [&](const Vec3& q) {
                return std::fabs(q.x - p.x) <= tol && std::fabs(q.y - p.y) <= tol &&
                       std::fabs(q.z - p.z) <= tol;
              });
          if (!duplicate) out.points.push_back(p);
        }
      }
    }
  }
  out.error_bound = solve_error + tol;
  return out;
}

template DopVertices dop_vertices<6>(const double*, const double*);
template DopVertices dop_vertices<8>(const double*, const double*);
template DopVertices dop_vertices<14>(const double*, const double*);
template DopVertices dop_vertices<18>(const double*, const double*);
template DopVertices dop_vertices<26>(const double*, const double*);
template DopVertices dop_vertices<32>(const double*, const double*);

}  // namespace kdop
