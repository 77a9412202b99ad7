#pragma once
// Separating-axis test of two oriented boxes, as Gottschalk, Lin and Manocha 1996
// (gottschalk1996-obbtree.txt, section 5 and Table 1) write it: box B is given in A's frame, by
// the rotation R whose column j is B's axis j in A's coordinates and the translation T of B's
// centre; the 15 candidate axes are A's 3 axes, B's 3 axes and their 9 cross products, and each
// test reads entries of R and |R| only (no axis is formed). |R| is widened by `slack` so that
// parallel edges, whose cross product vanishes, cannot make a rounding error look like a
// separation, and every reach by `margin`, which covers the rounding of T and of the reaches.
#include <cmath>

namespace kdop {

// True if an axis separates box A (half extents a, at the origin, axis-aligned) from box B (half
// extents b, rotation R row-major, centre T): then the boxes are disjoint. False means they
// may overlap. `Tag` only names the instantiation: the per-ISA queries pass their ISA tag so
// that each has its own copy (engine/isa/).
template <class Tag = void>
bool obb_disjoint(const double a[3], const double b[3], const double R[9], const double T[3],
                  double slack = 1e-12, double margin = 0) {
  double abs_r[9];
  for (int i = 0; i < 9; ++i) abs_r[i] = std::fabs(R[i]) + slack;
  const auto r = [&](int i, int j) { return R[3 * i + j]; };
  const auto ar = [&](int i, int j) { return abs_r[3 * i + j]; };
  // L = A_i: |T_i| > a_i + sum_j b_j |R_ij|.
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(T[i]) > a[i] + b[0] * ar(i, 0) + b[1] * ar(i, 1) + b[2] * ar(i, 2) + margin)
      return true;
  }
  // L = B_j: |T . B_j| > sum_i a_i |R_ij| + b_j.
  for (int j = 0; j < 3; ++j) {
    const double t = T[0] * r(0, j) + T[1] * r(1, j) + T[2] * r(2, j);
    if (std::fabs(t) > a[0] * ar(0, j) + a[1] * ar(1, j) + a[2] * ar(2, j) + b[j] + margin)
      return true;
  }
  // L = A_i x B_j: |T_{i+2} R_{i+1,j} - T_{i+1} R_{i+2,j}|
  //   > a_{i+1} |R_{i+2,j}| + a_{i+2} |R_{i+1,j}| + b_{j+1} |R_{i,j+2}| + b_{j+2} |R_{i,j+1}|.
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double t = T[i2] * r(i1, j) - T[i1] * r(i2, j);
      const double reach =
          a[i1] * ar(i2, j) + a[i2] * ar(i1, j) + b[j1] * ar(i, j2) + b[j2] * ar(i, j1);
      if (std::fabs(t) > reach + margin) return true;
    }
  }
  return false;
}

}  // namespace kdop
