#include "geometry/dop_vertices.hpp"

#include <algorithm>
#include <cmath>

namespace kdop {
namespace {

struct IntMatrix {
  int m[3][3];
};

int determinant(const IntMatrix& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

// Adjugate (transposed cofactors): a^-1 = adj / det. Entries are small integers, so adj * h
// costs three roundings per component.
IntMatrix adjugate(const IntMatrix& a) {
  IntMatrix r{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      r.m[i][j] = a.m[r0][c0] * a.m[r1][c1] - a.m[r0][c1] * a.m[r1][c0];
    }
  }
  return r;
}

}  // namespace

template <int K>
DopVertices dop_vertices(const double* lo, const double* hi) {
  constexpr int S = DopShape<K>::slabs;
  constexpr auto dirs = DopShape<K>::directions();
  double scale = 0;
  for (int j = 0; j < S; ++j) scale = std::max({scale, std::fabs(lo[j]), std::fabs(hi[j])});
  // Solving costs <= 4 roundings of values <= 6 * scale; a candidate is kept if it violates a
  // constraint by at most tol, and near-duplicates within tol are merged.
  const double solve_error = 0x1p-48 * scale;
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
          for (int r = 0; r < 3; ++r) {
            x[r] = (adj.m[r][0] * h[0] + adj.m[r][1] * h[1] + adj.m[r][2] * h[2]) / det;
          }
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
template DopVertices dop_vertices<14>(const double*, const double*);
template DopVertices dop_vertices<18>(const double*, const double*);
template DopVertices dop_vertices<26>(const double*, const double*);

}  // namespace kdop
