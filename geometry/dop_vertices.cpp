#include "geometry/dop_vertices.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/int_matrix.hpp"

namespace kdop {
namespace {

// Calls f(i, j, k, det, adj) for every three directions i < j < k of the K-DOP with independent
// normals: det and adj of the matrix of their normals (rows i, j, k), exact in int.
template <int K, class F>
constexpr void for_each_independent_triple(F&& f) {
  constexpr auto dirs = DopShape<K>::directions();
  constexpr int S = DopShape<K>::slabs;
  for (int i = 0; i < S; ++i) {
    for (int j = i + 1; j < S; ++j) {
      for (int k = j + 1; k < S; ++k) {
        const IntMatrix n{{{dirs[i].x, dirs[i].y, dirs[i].z},
                           {dirs[j].x, dirs[j].y, dirs[j].z},
                           {dirs[k].x, dirs[k].y, dirs[k].z}}};
        const int det = determinant(n);
        if (det != 0) f(i, j, k, det, adjugate(n));
      }
    }
  }
}

// The largest row sum |adj|_1 of the adjugate of any three independent directions of the K-DOP:
// with |det| >= 1 it bounds |x| / |h|_inf for the solve below (4 for the directions in
// {-1, 0, 1}, 9 for the 32-DOP's, whose adjugates hold 3s and 4s).
template <int K>
constexpr int largest_adjugate_row_sum() {
  int most = 0;
  for_each_independent_triple<K>([&](int, int, int, int, const IntMatrix& adj) {
    for (const auto& row : adj.m) {
      const int sum = (row[0] < 0 ? -row[0] : row[0]) + (row[1] < 0 ? -row[1] : row[1]) +
                      (row[2] < 0 ? -row[2] : row[2]);
      most = sum > most ? sum : most;
    }
  });
  return most;
}
static_assert(largest_adjugate_row_sum<26>() == 4 && largest_adjugate_row_sum<32>() == 9);

}  // namespace

template <int K>
DopVertices dop_vertices(const double* lo, const double* hi) {
  constexpr int S = DopShape<K>::slabs;
  constexpr auto dirs = DopShape<K>::directions();
  double scale = 0;
  for (int j = 0; j < S; ++j) scale = std::max({scale, std::fabs(lo[j]), std::fabs(hi[j])});
  // Solving (solve_with_adjugate) costs at most 4 roundings of values <= R * scale, R =
  // largest_adjugate_row_sum (the products with h round too where adj holds a 3, within the same
  // count): at most 2^-51 R scale, which 2^-48 covers up to R = 8 and 2^-47 up to 16. A candidate
  // is kept if it violates a constraint by at most tol, and near-duplicates within tol are merged.
  constexpr int R = largest_adjugate_row_sum<K>();
  static_assert(R <= 16, "a direction set with larger adjugates needs a wider solve bound");
  const double solve_error = (R <= 8 ? 0x1p-48 : 0x1p-47) * scale;
  const double tol = 4 * solve_error;

  DopVertices out;
  for_each_independent_triple<K>([&](int i, int j, int k, int det, const IntMatrix& adj) {
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
      const bool duplicate = std::any_of(out.points.begin(), out.points.end(), [&](const Vec3& q) {
        return std::fabs(q.x - p.x) <= tol && std::fabs(q.y - p.y) <= tol &&
               std::fabs(q.z - p.z) <= tol;
      });
      if (!duplicate) out.points.push_back(p);
    }
  });
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
