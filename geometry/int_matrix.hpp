#pragma once
// 3x3 matrices of small integers: the normals of three k-DOP planes (entries in {-2, ..., 2}).
// Determinant and adjugate are exact in int, so solving n_i . x = h_i costs at most four
// roundings per component: the two sums, the division and, for the 32-DOP, whose adjugates hold
// 3s, the products with h (together within one rounding of the row's sum |adj|_1 |h|; exact
// products for entries 0, 1, 2 and 4). Used by dop_vertices.cpp and builders/dop_volume.cpp.
namespace kdop {

struct IntMatrix {
  int m[3][3];
};

constexpr int determinant(const IntMatrix& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

// Adjugate (transposed cofactors): a^-1 = adj / det.
constexpr IntMatrix adjugate(const IntMatrix& a) {
  IntMatrix r{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      r.m[i][j] = a.m[r0][c0] * a.m[r1][c1] - a.m[r0][c1] * a.m[r1][c0];
    }
  }
  return r;
}

// x = adj h / det, the solution of a x = h given a's adjugate and (non-zero) determinant.
inline void solve_with_adjugate(const IntMatrix& adj, int det, const double h[3], double x[3]) {
  for (int r = 0; r < 3; ++r) {
    x[r] = (adj.m[r][0] * h[0] + adj.m[r][1] * h[1] + adj.m[r][2] * h[2]) / det;
  }
}

}  // namespace kdop
