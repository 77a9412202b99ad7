// exact_distance_side against an independent exact oracle: the least squared distance over all
// 49 pairs of faces (corner, edge or whole triangle of each), each minimized on the faces'
// affine hulls by solving its normal equations in GMP rationals and kept when the minimizer lies
// in both faces (a different method from the library's 15 clamped feature pairs), and 0 where
// the rational intersection oracle says the triangles meet. Pairs: random doubles, translates
// (parallel faces and edges), small grid coordinates (degenerate, collinear and coplanar cases,
// distances that are doubles), far offsets, and scales by powers of two.
#include "geometry/exact_distance.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "geometry/triangle_distance.hpp"
#include "tests/geometry/rational_oracle.hpp"

namespace kdop {
namespace {

struct QPoint {
  mpq_class c[3];
};

QPoint rational(const Vec3& p) {
  return {{p.x, p.y, p.z}};
}

// The least squared distance between the faces spanned by corners `sa` of a and `sb` of b (bit
// masks), when the minimizer on their affine hulls is unique and lies in both faces.
std::optional<mpq_class> face_pair_squared(const QPoint* a, unsigned sa, const QPoint* b,
                                           unsigned sb) {
  int ia[3], ib[3], na = 0, nb = 0;
  for (int i = 0; i < 3; ++i) {
    if (sa & (1u << i)) ia[na++] = i;
    if (sb & (1u << i)) ib[nb++] = i;
  }
  // x - y = w + sum z_k col_k, with col = (a_k - a_0) for a's, (b_0 - b_k) for b's.
  QPoint w, col[4];
  for (int d = 0; d < 3; ++d) w.c[d] = a[ia[0]].c[d] - b[ib[0]].c[d];
  int n = 0;
  for (int k = 1; k < na; ++k, ++n) {
    for (int d = 0; d < 3; ++d) col[n].c[d] = a[ia[k]].c[d] - a[ia[0]].c[d];
  }
  for (int k = 1; k < nb; ++k, ++n) {
    for (int d = 0; d < 3; ++d) col[n].c[d] = b[ib[0]].c[d] - b[ib[k]].c[d];
  }
  const auto inner = [](const QPoint& p, const QPoint& q) {
    return mpq_class(p.c[0] * q.c[0] + p.c[1] * q.c[1] + p.c[2] * q.c[2]);
  };
  // Normal equations G z = -C^T w, by Gauss-Jordan elimination.
  mpq_class m[4][5];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) m[i][j] = inner(col[i], col[j]);
    m[i][n] = -inner(col[i], w);
  }
  for (int p = 0; p < n; ++p) {
    int r = p;
    while (r < n && m[r][p] == 0) ++r;
    if (r == n) return std::nullopt;  // singular: a smaller face pair holds a minimizer
    for (int j = 0; j <= n; ++j) std::swap(m[p][j], m[r][j]);
    for (int i = 0; i < n; ++i) {
      if (i == p || m[i][p] == 0) continue;
      const mpq_class f = m[i][p] / m[p][p];
      for (int j = p; j <= n; ++j) m[i][j] -= f * m[p][j];
    }
  }
  mpq_class z[4], sum_a = 0, sum_b = 0;
  for (int i = 0; i < n; ++i) {
    z[i] = m[i][n] / m[i][i];
    if (z[i] < 0) return std::nullopt;
    (i < na - 1 ? sum_a : sum_b) += z[i];
  }
  if (sum_a > 1 || sum_b > 1) return std::nullopt;
  QPoint r = w;
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) r.c[d] += z[i] * col[i].c[d];
  }
  return inner(r, r);
}

mpq_class oracle_squared_distance(const Triangle& a, const Triangle& b) {
  if (test::triangles_intersect_rational(a, b)) return 0;
  const QPoint qa[3] = {rational(a.p0), rational(a.p1), rational(a.p2)};
  const QPoint qb[3] = {rational(b.p0), rational(b.p1), rational(b.p2)};
  std::optional<mpq_class> best;
  for (unsigned sa = 1; sa < 8; ++sa) {
    for (unsigned sb = 1; sb < 8; ++sb) {
      const std::optional<mpq_class> d = face_pair_squared(qa, sa, qb, sb);
      if (d && (!best || *d < *best)) best = d;
    }
  }
  return *best;  // corner pairs always give one
}

std::uint64_t next(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

double uniform(std::uint64_t& s, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(next(s) >> 11) * 0x1p-53;
}

double grid(std::uint64_t& s) {
  return static_cast<double>(static_cast<int>(next(s) % 17) - 8) / 4;
}

Vec3 random_point(std::uint64_t& s, bool on_grid) {
  if (on_grid) return {grid(s), grid(s), grid(s)};
  return {uniform(s, -1, 1), uniform(s, -1, 1), uniform(s, -1, 1)};
}

// Pair `i` of the mix described at the top.
void make_pair(int i, std::uint64_t& s, Triangle& a, Triangle& b) {
  const int kind = i % 5;
  const bool on_grid = kind == 2 || kind == 4;
  a = {random_point(s, on_grid), random_point(s, on_grid), random_point(s, on_grid)};
  if (kind == 1) {
    const Vec3 d = 0.5 * random_point(s, false);
    b = {a.p0 + d, a.p1 + d, a.p2 + d};
  } else {
    b = {random_point(s, on_grid), random_point(s, on_grid), random_point(s, on_grid)};
    const Vec3 d = kind == 2 || kind == 4 ? Vec3{1, 0, 0} : random_point(s, false);
    b = {b.p0 + d, b.p1 + d, b.p2 + d};
  }
  if (kind == 4) b.p2 = b.p1 + (b.p1 - b.p0);  // collinear corners, exactly (grid values)
  if (kind == 3) {
    const Vec3 o{uniform(s, 1e3, 1e6), uniform(s, -1e6, -1e3), uniform(s, 1e3, 1e5)};
    a = {a.p0 + o, a.p1 + o, a.p2 + o};
    b = {b.p0 + o, b.p1 + o, b.p2 + o};
  }
  const double scale = std::ldexp(1.0, static_cast<int>(next(s) % 41) - 20);
  for (Triangle* t : {&a, &b}) *t = {scale * t->p0, scale * t->p1, scale * t->p2};
}

std::string describe(const Triangle& a, const Triangle& b) {
  char buf[600];
  std::snprintf(buf, sizeof buf,
                "a = {%a %a %a | %a %a %a | %a %a %a}, b = {%a %a %a | %a %a %a | %a %a %a}",
                a.p0.x, a.p0.y, a.p0.z, a.p1.x, a.p1.y, a.p1.z, a.p2.x, a.p2.y, a.p2.z, b.p0.x,
                b.p0.y, b.p0.z, b.p1.x, b.p1.y, b.p1.z, b.p2.x, b.p2.y, b.p2.z);
  return buf;
}

TEST(ExactDistance, SidesMatchAFacePairOracle) {
  std::uint64_t s = 0x9e3779b97f4a7c15u;
  int touching = 0, at_limit = 0, double_wrong = 0;
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 1000; ++i) {
    Triangle a, b;
    make_pair(i, s, a, b);
    SCOPED_TRACE(describe(a, b));
    const mpq_class exact2 = oracle_squared_distance(a, b);
    if (exact2 == 0) {
      ++touching;
      EXPECT_EQ(exact_distance_side(a, b, 0).side, 0);
      EXPECT_EQ(exact_distance_side(a, b, 0).distance, 0);
      EXPECT_EQ(exact_distance_side(a, b, 1e-300).side, -1);
      continue;
    }
    const double rounded = std::sqrt(exact2.get_d());
    const double d_double = triangle_distance(a, b).distance;
    for (const double limit :
         {std::nextafter(rounded, 0.0), rounded, std::nextafter(rounded, inf), 0.0, 2 * rounded}) {
      const mpq_class l = limit;
      const int expected = cmp(exact2, l * l) < 0 ? -1 : cmp(exact2, l * l) > 0 ? 1 : 0;
      const ExactDistanceSide got = exact_distance_side(a, b, limit);
      ASSERT_EQ(got.side, expected) << "limit " << limit;
      at_limit += expected == 0;
      double_wrong += (d_double <= limit) != (expected <= 0);
      if (expected < 0) {
        EXPECT_LE(got.distance, limit);
      } else if (expected == 0) {
        EXPECT_EQ(got.distance, limit);
      } else {
        EXPECT_GT(got.distance, limit);
      }
      EXPECT_GT(got.distance, 0);
      EXPECT_NEAR(got.distance, rounded, 4 * (std::nextafter(rounded, inf) - rounded));
    }
  }
  std::printf(
      "exact side: 1000 pairs, %d touching, %d limits exactly at the distance, %d decided "
      "wrongly by the double distance\n",
      touching, at_limit, double_wrong);
  // The mix must reach every branch, and cases the double distance alone gets wrong.
  EXPECT_GT(touching, 20);
  EXPECT_GT(at_limit, 2);
  EXPECT_GT(double_wrong, 0);
}

// Hand-computed: a corner 5k above a face tilted along (3, 4, 0) / 5, and two skew edges whose
// common perpendicular is known, each exactly at a double distance.
TEST(ExactDistance, HandComputedDistancesAreExactlyAtTheirLimit) {
  // The plane through q0 = (0.1, 0, 0) with normal (3, 4, 0); every coordinate below is exact
  // (0.1 +- small dyadics stay in 0.1's binade), the corner is q0 + k (3, 4, 0) lifted by 0.25
  // along the plane, so it projects into the face at 5k from it.
  const double k = 0x1p-10, m = 0x1p-8;
  const Triangle face{{0.1 + 4 * m, -3 * m, 0}, {0.1 - 4 * m, 3 * m, 0}, {0.1, 0, 1}};
  const Triangle corner{{0.1 + 3 * k, 4 * k, 0.25}, {9, 9, 9}, {9, 10, 9}};
  EXPECT_EQ(exact_distance_side(corner, face, 5 * k).side, 0);
  EXPECT_EQ(exact_distance_side(corner, face, std::nextafter(5 * k, 0.0)).side, 1);
  EXPECT_EQ(exact_distance_side(corner, face, std::nextafter(5 * k, 1.0)).side, -1);
  // Scaled by powers of two (exact); at 2^-600 the squares are far below double's range.
  for (const int e : {-600, -300, 300}) {
    const double f = std::ldexp(1.0, e);
    const Triangle big_face{f * face.p0, f * face.p1, f * face.p2};
    const Triangle big_corner{f * corner.p0, f * corner.p1, f * corner.p2};
    const ExactDistanceSide at = exact_distance_side(big_corner, big_face, f * 5 * k);
    EXPECT_EQ(at.side, 0);
    EXPECT_EQ(at.distance, f * 5 * k);
    EXPECT_EQ(exact_distance_side(big_corner, big_face, f * std::nextafter(5 * k, 0.0)).side, 1);
    const ExactDistanceSide above = exact_distance_side(big_corner, big_face, f * 6 * k);
    EXPECT_EQ(above.side, -1);
    EXPECT_DOUBLE_EQ(above.distance, f * 5 * k);
  }
  // Non-finite input has no distance (and must not reach GMP).
  Triangle broken = corner;
  broken.p1.y = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(exact_distance_side(broken, face, 1).side, 1);
  broken.p1.y = std::numeric_limits<double>::infinity();
  EXPECT_EQ(exact_distance_side(broken, face, 1).side, 1);
  EXPECT_EQ(exact_distance_side(corner, face, std::numeric_limits<double>::infinity()).side, 1);
  // Edge along x at z = 0, edge along y at z = 0.375, crossing above (0.25, 0.5).
  const Triangle low{{-1, 0.5, 0}, {1, 0.5, 0}, {0, 0.5, -1}};
  const Triangle high{{0.25, -1, 0.375}, {0.25, 1, 0.375}, {0.25, 0, 2}};
  EXPECT_EQ(exact_distance_side(low, high, 0.375).side, 0);
  EXPECT_EQ(exact_distance_side(low, high, 0.375).distance, 0.375);
  EXPECT_EQ(exact_distance_side(low, high, 0.374).side, 1);
}

}  // namespace
}  // namespace kdop
