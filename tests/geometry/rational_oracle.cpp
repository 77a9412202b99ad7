#include "tests/geometry/rational_oracle.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <utility>

namespace kdop::test {
namespace {

using Q = mpq_class;  // mpq_class(double) is exact for every finite double

struct QVec {
  Q x, y, z;
};

QVec to_q(const Vec3& p) {
  return {Q(p.x), Q(p.y), Q(p.z)};
}

// The system below in integers: 9 columns (2^-L w_ij, 1), where 2^L is the smallest power of
// two among the input coordinates' ulps, so the scaling is exact; then the right-hand side
// (0, 0, 0, 1). Scaling the x, y, z equations does not change the solutions.
constexpr int kCols = 10;
constexpr int kRhs = 9;

// Elimination state after choosing the columns of a subset, in the fraction-free Gauss-Jordan
// form of Bareiss-Montante: with p the last pivot, every chosen column reads p times a unit
// vector (not stored), so pivot row l reads p * lambda_l = a[row_l][rhs] (Cramer's rule), and
// each non-pivot row reads 0 = a[row][rhs]. All entries are minors of the integer matrix, so
// every division is exact.
struct Level {
  mpz_class a[4][kCols];
  mpz_class pivot;  // determinant of the chosen columns on the pivot rows; 1 at the root
  bool is_pivot_row[4] = {false, false, false, false};
};

// Depth-first over subsets {s_0 < s_1 < ...} of at most 4 columns, extending the elimination
// by one column per level, so subsets sharing a prefix share its elimination. A column with no
// pivot left is affinely dependent on the chosen ones, and so is every superset: prune.
bool origin_in_some_simplex(Level* lv, int depth, int first_col) {
  const Level& cur = lv[depth];
  Level& nxt = lv[depth + 1];
  const bool leaf = depth + 1 == 4;
  for (int j = first_col; j < 9; ++j) {
    int r = 0;
    while (r < 4 && (cur.is_pivot_row[r] || sgn(cur.a[r][j]) == 0)) ++r;
    if (r == 4) continue;
    const mpz_class& p = cur.a[r][j];
    for (int i = 0; i < 4; ++i) {
      for (int c = leaf ? kRhs : j + 1; c < kCols; ++c) {
        mpz_class& x = nxt.a[i][c];
        if (i == r) {
          x = cur.a[i][c];
        } else {
          mpz_mul(x.get_mpz_t(), p.get_mpz_t(), cur.a[i][c].get_mpz_t());
          mpz_submul(x.get_mpz_t(), cur.a[i][j].get_mpz_t(), cur.a[r][c].get_mpz_t());
          mpz_divexact(x.get_mpz_t(), x.get_mpz_t(), cur.pivot.get_mpz_t());
        }
      }
      nxt.is_pivot_row[i] = cur.is_pivot_row[i] || i == r;
    }
    nxt.pivot = p;
    bool solves = true;  // consistent, with every lambda_l = a[row_l][rhs] / pivot >= 0
    for (int i = 0; i < 4 && solves; ++i) {
      const int s = sgn(nxt.a[i][kRhs]);
      solves = nxt.is_pivot_row[i] ? s * sgn(nxt.pivot) >= 0 : s == 0;
    }
    if (solves) return true;
    if (!leaf && origin_in_some_simplex(lv, depth + 1, j + 1)) return true;
  }
  return false;
}

// A double as m * 2^e with an integer-valued m (|m| < 2^53).
struct Dyadic {
  double m;
  int e;
};

Dyadic dyadic(double v) {
  int e = 0;
  const double f = std::frexp(v, &e);
  return {std::ldexp(f, 53), e - 53};
}

// The reference version of the same search: every subset separately, in rationals.
using QPoints = std::array<std::array<Q, 4>, 9>;  // the columns (w_ij, 1)

struct QWorkspace {  // reused across subsets so the mpq limbs are allocated once
  Q m[4][5];
  Q f;
};

// Solves sum_c lambda_c (w_c, 1) = (0, 0, 0, 1) over the k points w[idx[0..k)] by Gauss-Jordan
// elimination in rationals. True iff the 4 x k system has rank k (the points are affinely
// independent, so a solution is unique), it is consistent, and every lambda_c >= 0.
bool origin_in_simplex(const QPoints& w, const int* idx, int k, QWorkspace& ws) {
  auto& m = ws.m;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < k; ++c) m[r][c] = w[idx[c]][r];
    m[r][k] = (r == 3) ? 1 : 0;
  }
  for (int col = 0; col < k; ++col) {
    int piv = col;
    while (piv < 4 && sgn(m[piv][col]) == 0) ++piv;
    if (piv == 4) return false;  // rank < k
    if (piv != col) {
      for (int c = col; c <= k; ++c) std::swap(m[piv][c], m[col][c]);
    }
    for (int r = 0; r < 4; ++r) {
      if (r == col || sgn(m[r][col]) == 0) continue;
      ws.f = m[r][col] / m[col][col];
      for (int c = col; c <= k; ++c) m[r][c] -= ws.f * m[col][c];
    }
  }
  for (int r = k; r < 4; ++r) {  // rows k..3 read 0 = rhs
    if (sgn(m[r][k]) != 0) return false;
  }
  for (int c = 0; c < k; ++c) {  // row c reads m[c][c] * lambda_c = m[c][k]
    if (sgn(m[c][k]) * sgn(m[c][c]) < 0) return false;
  }
  return true;
}

}  // namespace

int orient3d_rational(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const QVec qd = to_q(d);
  const QVec qa = to_q(a), qb = to_q(b), qc = to_q(c);
  const Q ax = qa.x - qd.x, ay = qa.y - qd.y, az = qa.z - qd.z;
  const Q bx = qb.x - qd.x, by = qb.y - qd.y, bz = qb.z - qd.z;
  const Q cx = qc.x - qd.x, cy = qc.y - qd.y, cz = qc.z - qd.z;
  const Q det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  return sgn(det);
}

int orient2d_rational(double ax, double ay, double bx, double by, double cx, double cy) {
  const Q det = (Q(ax) - Q(cx)) * (Q(by) - Q(cy)) - (Q(ay) - Q(cy)) * (Q(bx) - Q(cx));
  return sgn(det);
}

// Closed triangles T1 = conv P and T2 = conv Q meet iff 0 is in T1 - T2 = conv{p_i - q_j}
// (the Minkowski difference of two convex hulls is the hull of the pairwise differences).
// By Caratheodory's theorem in R^3, 0 lies in the hull of those 9 points iff it lies in the
// hull of some affinely independent subset of at most 4 of them, so trying every subset of
// size 1..4 (255 of them) and solving for nonnegative barycentric weights is exact and complete.
// Degenerate triangles need no special case: their hulls are segments or points. The subsets
// are searched depth-first with shared fraction-free elimination over the integers, about 10x
// faster than solving each one in mpq (triangles_intersect_rational_reference, kept to check it).
bool triangles_intersect_rational(const Triangle& t1, const Triangle& t2) {
  const Vec3 v[6] = {t1.p0, t1.p1, t1.p2, t2.p0, t2.p1, t2.p2};
  Dyadic d[6][3];
  int low = INT_MAX;
  for (int i = 0; i < 6; ++i) {
    const double c[3] = {v[i].x, v[i].y, v[i].z};
    for (int k = 0; k < 3; ++k) {
      d[i][k] = dyadic(c[k]);
      if (d[i][k].m != 0) low = std::min(low, d[i][k].e);
    }
  }
  mpz_class n[6][3];  // the coordinates times 2^-low: integers
  for (int i = 0; i < 6; ++i) {
    for (int k = 0; k < 3; ++k) {
      n[i][k] = d[i][k].m;  // exact: an integer below 2^53
      if (d[i][k].m != 0) n[i][k] <<= d[i][k].e - low;
    }
  }
  Level lv[5];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) lv[0].a[k][3 * i + j] = n[i][k] - n[3 + j][k];
      lv[0].a[3][3 * i + j] = 1;
    }
  }
  for (int k = 0; k < 4; ++k) lv[0].a[k][kRhs] = k == 3 ? 1 : 0;
  lv[0].pivot = 1;
  // Sound shortcut: if a coordinate has the same strict sign on all 9 points, a coordinate
  // plane separates the origin from their hull.
  for (int k = 0; k < 3; ++k) {
    int pos = 0, neg = 0;
    for (int c = 0; c < 9; ++c) {
      const int s = sgn(lv[0].a[k][c]);
      pos += s > 0;
      neg += s < 0;
    }
    if (pos == 9 || neg == 9) return false;
  }
  return origin_in_some_simplex(lv, 0, 0);
}

bool triangles_intersect_rational_reference(const Triangle& t1, const Triangle& t2) {
  const std::array<Vec3, 3> p = {t1.p0, t1.p1, t1.p2};
  const std::array<Vec3, 3> q = {t2.p0, t2.p1, t2.p2};
  QPoints w;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      auto& wij = w[3 * i + j];
      wij[0] = Q(p[i].x) - Q(q[j].x);
      wij[1] = Q(p[i].y) - Q(q[j].y);
      wij[2] = Q(p[i].z) - Q(q[j].z);
      wij[3] = 1;
    }
  }
  QWorkspace ws;
  int idx[4];
  // Every subset of size k = 1..4 as the increasing index tuple idx[0..k).
  for (int k = 1; k <= 4; ++k) {
    for (int i = 0; i < k; ++i) idx[i] = i;
    while (true) {
      if (origin_in_simplex(w, idx, k, ws)) return true;
      int i = k - 1;
      while (i >= 0 && idx[i] == 9 - k + i) --i;
      if (i < 0) break;
      ++idx[i];
      for (int l = i + 1; l < k; ++l) idx[l] = idx[l - 1] + 1;
    }
  }
  return false;
}

}  // namespace kdop::test
