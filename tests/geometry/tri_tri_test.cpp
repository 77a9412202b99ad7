// triangles_intersect and segment_triangle_intersect against the rational Minkowski-difference
// oracle (tests/geometry/rational_oracle.hpp): named hand cases, random pairs, exactly touching
// constructions, coplanar and degenerate pairs, and the same nudged by one ulp. Every pair is
// tried in all 72 vertex and argument orders. Mismatches are reported with hex-float inputs.
// The oracle itself is checked on the hand cases and against two further exact methods.
#include "geometry/tri_tri.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tests/geometry/rational_oracle.hpp"

namespace kdop {
namespace {

using test::orient2d_rational;
using test::triangles_intersect_rational;

std::string hex(const Vec3& p) {
  char buf[120];
  std::snprintf(buf, sizeof buf, "{%a, %a, %a}", p.x, p.y, p.z);
  return buf;
}

std::string hex(const Triangle& t) {
  std::string s = "{";
  s += hex(t.p0);
  s += ", ";
  s += hex(t.p1);
  s += ", ";
  s += hex(t.p2);
  s += "}";
  return s;
}

Triangle permuted(const Triangle& t, int perm) {
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                      {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  const Vec3 v[3] = {t.p0, t.p1, t.p2};
  return {v[kPerm[perm][0]], v[kPerm[perm][1]], v[kPerm[perm][2]]};
}

// Counts disagreements with the oracle, reporting only the first few.
class PairChecker {
 public:
  ~PairChecker() { EXPECT_EQ(mismatches_, 0) << "of " << checked_ << " pairs"; }

  // Returns the oracle's answer. The library must give it for all 6 x 6 vertex orders and both
  // argument orders.
  bool check(const Triangle& t1, const Triangle& t2) {
    const bool want = triangles_intersect_rational(t1, t2);
    ++checked_;
    ++(want ? hits_ : misses_);
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) {
        const Triangle a = permuted(t1, i), b = permuted(t2, j);
        const bool ab = triangles_intersect(a, b), ba = triangles_intersect(b, a);
        const bool by_edges = triangles_intersect_by_edges(a, b);
        if (ab != want || ba != want || by_edges != want) {
          if (++mismatches_ <= kMaxReports) {
            ADD_FAILURE() << "t1 = " << hex(a) << "\nt2 = " << hex(b) << "\noracle " << want
                          << ", triangles_intersect(t1, t2) " << ab
                          << ", triangles_intersect(t2, t1) " << ba
                          << ", triangles_intersect_by_edges(t1, t2) " << by_edges;
          }
          return want;
        }
      }
    }
    return want;
  }

  // Segment [p, q] against t, in both directions and all vertex orders of t.
  bool check_segment(const Vec3& p, const Vec3& q, const Triangle& t) {
    const bool want = triangles_intersect_rational(Triangle{p, q, q}, t);
    ++checked_;
    ++(want ? hits_ : misses_);
    for (int i = 0; i < 6; ++i) {
      const Triangle b = permuted(t, i);
      const bool pq = segment_triangle_intersect(p, q, b), qp = segment_triangle_intersect(q, p, b);
      if (pq != want || qp != want) {
        if (++mismatches_ <= kMaxReports) {
          ADD_FAILURE() << "p = " << hex(p) << ", q = " << hex(q) << "\nt = " << hex(b)
                        << "\noracle " << want << ", segment_triangle_intersect(p, q, t) " << pq
                        << ", (q, p, t) " << qp;
        }
        return want;
      }
    }
    return want;
  }

  int hits() const { return hits_; }
  int misses() const { return misses_; }

 private:
  static constexpr int kMaxReports = 10;
  int checked_ = 0, hits_ = 0, misses_ = 0, mismatches_ = 0;
};

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  // lo + step * {0, ..., n}: exact for dyadic lo and step.
  double grid(double lo, double step, int n) { return lo + step * integer(0, n); }
  Vec3 grid_point(double lo, double step, int n) {
    return {grid(lo, step, n), grid(lo, step, n), grid(lo, step, n)};
  }
  Triangle grid_triangle(double lo, double step, int n) {
    return {grid_point(lo, step, n), grid_point(lo, step, n), grid_point(lo, step, n)};
  }
  Vec3 uniform_point(double lo, double hi) {
    return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)};
  }
  Triangle uniform_triangle(double lo, double hi) {
    return {uniform_point(lo, hi), uniform_point(lo, hi), uniform_point(lo, hi)};
  }

 private:
  std::mt19937_64 gen_;
};

// Exact signs of the components of (p1 - p0) x (p2 - p0).
std::array<int, 3> normal_sign(const Triangle& t) {
  return {orient2d_rational(t.p0.y, t.p0.z, t.p1.y, t.p1.z, t.p2.y, t.p2.z),
          orient2d_rational(t.p0.z, t.p0.x, t.p1.z, t.p1.x, t.p2.z, t.p2.x),
          orient2d_rational(t.p0.x, t.p0.y, t.p1.x, t.p1.y, t.p2.x, t.p2.y)};
}

double step(double v, int dir) {
  return std::nextafter(v, dir > 0 ? INFINITY : -INFINITY);
}

// Moves each coordinate one ulp in direction dir * sign(n_i). If p was in the closed halfspace
// n.(x - x0) >= 0 of a plane with normal n, then for dir = +1 it is strictly inside.
Vec3 nudge_along(const Vec3& p, const std::array<int, 3>& n, int dir) {
  return {n[0] ? step(p.x, dir * n[0]) : p.x, n[1] ? step(p.y, dir * n[1]) : p.y,
          n[2] ? step(p.z, dir * n[2]) : p.z};
}

Triangle nudge_along(const Triangle& t, const std::array<int, 3>& n, int dir) {
  return {nudge_along(t.p0, n, dir), nudge_along(t.p1, n, dir), nudge_along(t.p2, n, dir)};
}

// One ulp up or down on one nonzero coordinate of one vertex (zero would become subnormal,
// outside the exactness domain of the floating-point expansions). Returns t if all are zero.
Triangle nudge_one(const Triangle& t, Rng& rng) {
  Triangle r = t;
  Vec3* v[3] = {&r.p0, &r.p1, &r.p2};
  const int dir = rng.integer(0, 1) ? 1 : -1;
  const int first = rng.integer(0, 8);
  for (int k = 0; k < 9; ++k) {
    const int idx = (first + k) % 9;
    Vec3& p = *v[idx / 3];
    double& c = idx % 3 == 0 ? p.x : idx % 3 == 1 ? p.y : p.z;
    if (c != 0) {
      c = step(c, dir);
      break;
    }
  }
  return r;
}

// Translates t by one ulp along a random axis (per-vertex ulps).
Triangle nudge_all(const Triangle& t, Rng& rng) {
  std::array<int, 3> n = {0, 0, 0};
  n[rng.integer(0, 2)] = 1;
  return nudge_along(t, n, rng.integer(0, 1) ? 1 : -1);
}

struct NamedCase {
  const char* name;
  Triangle t1, t2;
  bool expected;
};

// Hand-computed expectations; the reasoning for each is in its name and the comments.
std::vector<NamedCase> hand_cases() {
  const Triangle unit{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const Triangle two{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  const Triangle four{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  const Triangle tilted{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // x + y + z = 1, x, y, z >= 0
  const double d = 0x1p-51;
  auto pt = [](const Vec3& p) { return Triangle{p, p, p}; };
  return {
      {"separated_parallel", unit, {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}}, false},
      // (1, 1, 0) is inside four.
      {"piercing", four, {{1, 1, -1}, {1, 1, 1}, {2, 1, 1}}, true},
      // Meets z = 0 on the segment (5, 5)-(5.5, 5), where x + y > 4.
      {"crosses_plane_outside", four, {{5, 5, -1}, {5, 5, 1}, {6, 5, 1}}, false},
      // Apart from the origin, the second triangle has z > 0.
      {"shared_vertex", unit, {{0, 0, 0}, {-1, 0, 1}, {0, -1, 1}}, true},
      {"shared_vertex_lifted", unit, {{0, 0, 0x1p-60}, {-1, 0, 1}, {0, -1, 1}}, false},
      {"vertex_on_edge", two, {{1, 0, 0}, {1, -1, 1}, {1, 1, 2}}, true},
      {"vertex_in_interior",
       {{0, 0, 0}, {3, 0, 0}, {0, 3, 0}},
       {{1, 1, 0}, {1, 1, 5}, {2, 3, 4}},
       true},
      {"vertex_above_interior",
       {{0, 0, 0}, {3, 0, 0}, {0, 3, 0}},
       {{1, 1, 0x1p-60}, {1, 1, 5}, {2, 3, 4}},
       false},
      {"vertex_below_interior",
       {{0, 0, 0}, {3, 0, 0}, {0, 3, 0}},
       {{1, 1, -0x1p-60}, {1, 1, 5}, {2, 3, 4}},
       true},
      // In the plane x = y; meets z = 0 on (1, 1)-(1.75, 1.75), touching two's edge x + y = 2
      // at (1, 1) only, where the two edges cross.
      {"edge_edge_crossing", two, {{1.5, 1.5, -1}, {0.5, 0.5, 1}, {2, 2, 1}}, true},
      {"edge_edge_shifted_off",
       two,
       {{1.5 + d, 1.5 + d, -1}, {0.5 + d, 0.5 + d, 1}, {2 + d, 2 + d, 1}},
       false},
      {"edge_on_face", four, {{1, 1, 0}, {2, 1, 0}, {1, 1, 3}}, true},
      {"edge_parallel_above_face", four, {{1, 1, 0x1p-40}, {2, 1, 0x1p-40}, {1, 1, 3}}, false},
      {"coplanar_overlap", two, {{0.5, 0.5, 0}, {3, 0.5, 0}, {0.5, 3, 0}}, true},
      {"coplanar_containing",
       {{0, 0, 0}, {8, 0, 0}, {0, 8, 0}},
       {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}},
       true},
      {"coplanar_disjoint", unit, {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}, false},
      {"coplanar_shared_edge", two, {{2, 0, 0}, {0, 2, 0}, {2, 2, 0}}, true},
      {"coplanar_vertex_on_edge", two, {{1, 1, 0}, {2, 2, 0}, {1, 3, 0}}, true},
      {"coplanar_one_ulp_gap", two, {{1, 1 + 0x1p-52, 0}, {2, 2, 0}, {1, 3, 0}}, false},
      // Star of David: edges cross, no vertex lies in the other triangle.
      {"coplanar_star",
       {{0, 0, 0}, {4, 0, 0}, {2, 4, 0}},
       {{0, 3, 0}, {4, 3, 0}, {2, -1, 0}},
       true},
      {"tilted_overlap", tilted, {{0.25, 0.25, 0.5}, {1, 1, -1}, {1.5, -0.25, -0.25}}, true},
      // Every vertex of the second has z < 0.
      {"tilted_disjoint", tilted, {{1, 1, -1}, {1.5, -0.25, -0.25}, {1, 0.5, -0.5}}, false},
      {"tilted_vertex_on_edge", tilted, {{0.5, 0.5, 0}, {1, 1, -1}, {1.5, 0, -0.5}}, true},
      {"segment_piercing", four, {{1, 1, -1}, {1, 1, 1}, {1, 1, 1}}, true},
      {"segment_missing", four, {{5, 5, -1}, {5, 5, 1}, {5, 5, 1}}, false},
      {"segment_in_plane_crossing", four, {{-1, 1, 0}, {5, 1, 0}, {2, 1, 0}}, true},
      {"segment_in_plane_outside", four, {{-1, 5, 0}, {5, 5, 0}, {2, 5, 0}}, false},
      {"point_on_face", four, pt({1, 1, 0}), true},
      {"point_above_face", four, pt({1, 1, 0x1p-40}), false},
      {"point_at_vertex", four, pt({4, 0, 0}), true},
      {"points_equal", pt({7, 7, 7}), pt({7, 7, 7}), true},
      {"points_one_ulp_apart", pt({7, 7, 7}), pt({7, 7, std::nextafter(7.0, 8.0)}), false},
      {"segments_crossing",
       {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}},
       {{0, 2, 0}, {2, 0, 0}, {2, 0, 0}},
       true},
      {"segments_skew",
       {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}},
       {{0, 2, 0x1p-50}, {2, 0, 0x1p-50}, {2, 0, 0x1p-50}},
       false},
      {"collinear_segments_overlapping",
       {{0, 0, 0}, {2, 0, 0}, {2, 0, 0}},
       {{1, 0, 0}, {3, 0, 0}, {3, 0, 0}},
       true},
      {"collinear_segments_touching",
       {{0, 0, 0}, {2, 0, 0}, {2, 0, 0}},
       {{2, 0, 0}, {3, 0, 0}, {3, 0, 0}},
       true},
      {"collinear_segments_gap",
       {{0, 0, 0}, {2, 0, 0}, {2, 0, 0}},
       {{2 + 0x1p-51, 0, 0}, {3, 0, 0}, {3, 0, 0}},
       false},
      {"duplicate", four, four, true},
      {"duplicate_reversed", four, {{0, 4, 0}, {4, 0, 0}, {0, 0, 0}}, true},
      {"duplicate_lifted", four, {{0, 0, 0x1p-70}, {4, 0, 0x1p-70}, {0, 4, 0x1p-70}}, false},
      // Non-dyadic coordinates: a shared vertex is still an exact contact.
      {"decimal_shared_vertex",
       {{0.1, 0.2, 0.3}, {0.4, 0.5, 0.6}, {0.7, 0.8, 1.0}},
       {{0.1, 0.2, 0.3}, {-0.3, 0.7, 0.1}, {0.9, -0.1, 0.2}},
       true},
  };
}

TEST(RationalOracle, HandCases) {
  for (const NamedCase& c : hand_cases()) {
    for (int i = 0; i < 6; i += 3) {  // one cyclic order and one reversed order
      for (int j = 0; j < 6; j += 2) {
        const Triangle a = permuted(c.t1, i), b = permuted(c.t2, j);
        EXPECT_EQ(triangles_intersect_rational(a, b), c.expected) << c.name;
        EXPECT_EQ(triangles_intersect_rational(b, a), c.expected) << c.name << " swapped";
      }
    }
    EXPECT_EQ(test::triangles_intersect_rational_reference(c.t1, c.t2), c.expected) << c.name;
  }
}

// Independent check of the oracle on transversal segment-triangle pairs: when the segment is
// not parallel to the (non-degenerate) triangle's plane, p + s (q - p) = a + u (b - a) + v (c - a)
// has a unique rational solution (Cramer's rule) and they meet iff 0 <= s <= 1, u, v >= 0 and
// u + v <= 1.
TEST(RationalOracle, MatchesCramerOnTransversalSegments) {
  Rng rng(0x7e57'0001);
  int compared = 0, hits = 0;
  for (int it = 0; it < 3000; ++it) {
    const Triangle t = rng.grid_triangle(0, 0.25, 4);
    const Vec3 p = rng.grid_point(0, 0.25, 4), q = rng.grid_point(0, 0.25, 4);
    auto q3 = [](const Vec3& v) { return std::array<mpq_class, 3>{v.x, v.y, v.z}; };
    const auto P = q3(p), Q = q3(q), A = q3(t.p0), B = q3(t.p1), C = q3(t.p2);
    std::array<std::array<mpq_class, 3>, 3> m;  // columns q - p, a - b, a - c
    std::array<mpq_class, 3> rhs;               // a - p
    for (int k = 0; k < 3; ++k) {
      m[k] = {Q[k] - P[k], A[k] - B[k], A[k] - C[k]};
      rhs[k] = A[k] - P[k];
    }
    auto det = [](const std::array<std::array<mpq_class, 3>, 3>& x) {
      return mpq_class(x[0][0] * (x[1][1] * x[2][2] - x[1][2] * x[2][1]) -
                       x[0][1] * (x[1][0] * x[2][2] - x[1][2] * x[2][0]) +
                       x[0][2] * (x[1][0] * x[2][1] - x[1][1] * x[2][0]));
    };
    const mpq_class dm = det(m);
    if (sgn(dm) == 0) continue;
    mpq_class sol[3];
    for (int col = 0; col < 3; ++col) {
      auto mc = m;
      for (int k = 0; k < 3; ++k) mc[k][col] = rhs[k];
      sol[col] = det(mc) / dm;
    }
    const bool want = sgn(sol[0]) >= 0 && sol[0] <= 1 && sgn(sol[1]) >= 0 && sgn(sol[2]) >= 0 &&
                      sol[1] + sol[2] <= 1;
    EXPECT_EQ(triangles_intersect_rational(Triangle{p, q, q}, t), want)
        << "p = " << hex(p) << ", q = " << hex(q) << ", t = " << hex(t);
    ++compared;
    hits += want;
  }
  EXPECT_GT(compared, 2000);
  EXPECT_GT(hits, 200);
}

// The fraction-free depth-first search against plain per-subset mpq elimination.
TEST(RationalOracle, FastSearchMatchesReference) {
  Rng rng(0x7e57'0002);
  int hits = 0;
  for (int it = 0; it < 200; ++it) {
    Triangle t1 = rng.grid_triangle(0, 0.5, 2), t2 = rng.grid_triangle(0, 0.5, 2);
    if (it % 4 == 1) t2 = nudge_one(t2, rng);
    if (it % 4 == 2) {
      t1 = rng.uniform_triangle(0, 1);
      t2 = rng.uniform_triangle(0, 1);
    }
    const bool want = test::triangles_intersect_rational_reference(t1, t2);
    EXPECT_EQ(triangles_intersect_rational(t1, t2), want) << hex(t1) << "\n" << hex(t2);
    hits += want;
  }
  EXPECT_GT(hits, 40);
  EXPECT_LT(hits, 160);
}

TEST(TriTri, HandCases) {
  for (const NamedCase& c : hand_cases()) {
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) {
        const Triangle a = permuted(c.t1, i), b = permuted(c.t2, j);
        EXPECT_EQ(triangles_intersect(a, b), c.expected)
            << c.name << "\nt1 = " << hex(a) << "\nt2 = " << hex(b);
        EXPECT_EQ(triangles_intersect(b, a), c.expected)
            << c.name << "\nt1 = " << hex(b) << "\nt2 = " << hex(a);
      }
    }
  }
}

TEST(TriTri, SegmentTriangleHandCases) {
  const Triangle four{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  struct SegCase {
    const char* name;
    Vec3 p, q;
    Triangle t;
    bool expected;
  };
  const SegCase cases[] = {
      {"piercing", {1, 1, -1}, {1, 1, 1}, four, true},
      {"missing", {5, 5, -1}, {5, 5, 1}, four, false},
      {"stops_short", {1, 1, -1}, {1, 1, -0x1p-60}, four, false},
      {"endpoint_on_face", {1, 1, 0}, {1, 1, 1}, four, true},
      {"endpoint_on_edge", {2, 0, 0}, {2, 0, 5}, four, true},
      {"endpoint_at_vertex", {4, 0, 0}, {5, 5, 5}, four, true},
      {"endpoint_just_above", {1, 1, 0x1p-60}, {1, 1, 1}, four, false},
      {"through_edge", {2, -1, -1}, {2, 1, 1}, four, true},
      {"in_plane_crossing", {-1, 1, 0}, {5, 1, 0}, four, true},
      {"in_plane_outside", {5, 0, 0}, {0, 5, 0}, four, false},
      {"in_plane_touching_vertex", {4, 0, 0}, {6, 0, 0}, four, true},
      {"in_plane_collinear_gap", {4 + 0x1p-50, 0, 0}, {6, 0, 0}, four, false},
      {"in_plane_inside", {1, 1, 0}, {2, 1, 0}, four, true},
      {"point_inside", {1, 1, 0}, {1, 1, 0}, four, true},
      {"point_outside", {3, 3, 0}, {3, 3, 0}, four, false},
      {"parallel_above", {0, 0, 1}, {4, 0, 1}, four, false},
      {"degenerate_triangle_segment",
       {0, 2, 0},
       {2, 0, 0},
       {{0, 0, 0}, {2, 2, 0}, {2, 2, 0}},
       true},
      {"degenerate_triangle_point_on_segment",
       {0, 0, 0},
       {2, 2, 2},
       {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
       true},
      {"degenerate_triangle_point_off_segment",
       {0, 0, 0},
       {2, 2, 2 + 0x1p-51},
       {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
       false},
  };
  PairChecker ck;
  for (const SegCase& c : cases) {
    EXPECT_EQ(ck.check_segment(c.p, c.q, c.t), c.expected) << c.name;  // the oracle
    EXPECT_EQ(segment_triangle_intersect(c.p, c.q, c.t), c.expected) << c.name;
  }
}

TEST(TriTri, RandomSegmentsMatchOracle) {
  Rng rng(0x7e57'0003);
  PairChecker ck;
  for (int it = 0; it < 1500; ++it) {
    const Triangle t = it % 3 == 2 ? rng.grid_triangle(0, 0.5, 2) : rng.grid_triangle(0, 0.25, 4);
    Vec3 p = rng.grid_point(0, 0.25, 4), q = rng.grid_point(0, 0.25, 4);
    if (it % 5 == 0) q = p;
    if (it % 7 == 0) {  // in the triangle's plane (when the triangle is in an axis plane)
      p.z = q.z = t.p0.z;
    }
    ck.check_segment(p, q, t);
  }
  for (int it = 0; it < 500; ++it) {
    ck.check_segment(rng.uniform_point(0, 1), rng.uniform_point(0, 1), rng.uniform_triangle(0, 1));
  }
  EXPECT_GT(ck.hits(), 200);
  EXPECT_GT(ck.misses(), 200);
}

TEST(TriTri, RandomUnitBoxPairs) {
  Rng rng(0x7e57'0004);
  PairChecker ck;
  for (int it = 0; it < 1500; ++it) {
    ck.check(rng.uniform_triangle(0, 1), rng.uniform_triangle(0, 1));
  }
  for (int it = 0; it < 1500; ++it) {  // smaller triangles with nearby corners
    const Vec3 c1 = rng.uniform_point(0, 0.25), c2 = rng.uniform_point(0, 0.25);
    auto near = [&](const Vec3& c) { return c + rng.uniform_point(0, 0.5); };
    ck.check({near(c1), near(c1), near(c1)}, {near(c2), near(c2), near(c2)});
  }
  EXPECT_GT(ck.hits(), 500);
  EXPECT_GT(ck.misses(), 500);
}

// Coordinates snapped to coarse grids: many exact touchings, coplanar and degenerate pairs.
TEST(TriTri, GridSnappedPairs) {
  Rng rng(0x7e57'0005);
  PairChecker ck;
  for (int it = 0; it < 2000; ++it) {
    ck.check(rng.grid_triangle(0, 0.25, 4), rng.grid_triangle(0, 0.25, 4));
  }
  for (int it = 0; it < 1000; ++it) {
    ck.check(rng.grid_triangle(0, 0.5, 2), rng.grid_triangle(0, 0.5, 2));
  }
  EXPECT_GT(ck.hits(), 500);
  EXPECT_GT(ck.misses(), 500);
}

// Grid pairs that meet, then one ulp off: one coordinate of one vertex, or the whole of the
// second triangle along an axis. The grid starts at 1 so no coordinate is zero.
TEST(TriTri, GridPairsNudgedByOneUlp) {
  Rng rng(0x7e57'0006);
  PairChecker ck;
  int base = 0;
  while (base < 800) {
    const Triangle t1 = rng.grid_triangle(1, 0.25, 4), t2 = rng.grid_triangle(1, 0.25, 4);
    if (!ck.check(t1, t2)) continue;
    ++base;
    ck.check(t1, nudge_one(t2, rng));
    ck.check(nudge_one(t1, rng), t2);
    ck.check(t1, nudge_all(t2, rng));
  }
  EXPECT_GT(ck.misses(), 200);
}

// Pairs that cross each other's planes with every corner off the other plane (the
// Guigue-Devillers case), close to touching: an edge of each passes within a few ulps of an
// edge of the other, on either side, or through it exactly.
TEST(TriTri, CrossingPairsNearEdgeContact) {
  Rng rng(0x7e57'0009);
  PairChecker ck;
  for (int it = 0; it < 1500; ++it) {
    const Vec3 x = rng.uniform_point(1, 2);
    const Vec3 d1 = rng.uniform_point(-1, 1), d2 = rng.uniform_point(-1, 1);
    // Edges x -+ d1 and x -+ d2 cross at x (up to rounding of the corners); the third corners
    // lie on either side.
    Triangle t1{x - d1, x + d1, x + rng.uniform_point(-1, 1)};
    Triangle t2{x - d2, x + d2, x + rng.uniform_point(-1, 1)};
    ck.check(t1, t2);
    ck.check(t1, nudge_one(t2, rng));
    ck.check(nudge_all(t1, rng), t2);
  }
  EXPECT_GT(ck.hits(), 500);
  EXPECT_GT(ck.misses(), 500);
}

// The second triangle touches the first exactly (at a shared vertex, a point of an edge, an
// interior point, or along a segment in its face) and otherwise lies strictly on one side of
// its plane; then it is moved one ulp per coordinate away (never meets) and towards the plane.
// Last kind: an edge of the second crosses an edge of the first transversally at its midpoint.
// Coordinates are integers in [8, 40], so every construction is exact and nothing is zero.
TEST(TriTri, ConstructedTouchingAndNudged) {
  Rng rng(0x7e57'0007);
  PairChecker ck;
  auto int_point = [&] {
    return Vec3{8.0 * rng.integer(1, 4), 8.0 * rng.integer(1, 4), 8.0 * rng.integer(1, 4)};
  };
  // A point of t with barycentric weights (i, j, 8 - i - j) / 8: an integer point.
  auto bary = [](const Triangle& t, int i, int j) {
    return (i / 8.0) * t.p0 + (j / 8.0) * t.p1 + ((8 - i - j) / 8.0) * t.p2;
  };
  const char* kinds[] = {"shared_vertex", "vertex_on_edge", "vertex_in_interior", "edge_on_face",
                         "edge_crossing"};
  for (int it = 0; it < 1000; ++it) {
    const int kind = it % 5;
    Triangle t1;
    Vec3 n;
    do {
      t1 = {int_point(), int_point(), int_point()};
      n = cross(t1.p1 - t1.p0, t1.p2 - t1.p0);  // small integers: exact
    } while (n.x == 0 && n.y == 0 && n.z == 0);
    auto offset = [&](bool strictly_above) {  // an integer vector v with v.n > 0 (or != 0)
      while (true) {
        Vec3 v{double(rng.integer(-8, 8)), double(rng.integer(-8, 8)), double(rng.integer(-8, 8))};
        const double s = dot(v, n);
        if (s != 0) return s > 0 || !strictly_above ? v : -1.0 * v;
      }
    };
    Vec3 x;
    switch (kind) {
      case 0:
        x = rng.integer(0, 1) ? t1.p0 : t1.p2;
        break;
      case 1:
      case 4: {
        const int i = rng.integer(1, 7);
        x = rng.integer(0, 1) ? bary(t1, i, 8 - i) : bary(t1, 0, i);
        break;
      }
      default: {
        const int i = rng.integer(1, 6);
        x = bary(t1, i, rng.integer(1, 7 - i));
      }
    }
    Triangle t2;
    if (kind <= 2) {
      t2 = {x, x + offset(true), x + offset(true)};
    } else if (kind == 3) {
      const int i = rng.integer(0, 8);
      t2 = {x, bary(t1, i, rng.integer(0, 8 - i)), x + offset(true)};
    } else {
      const Vec3 v = offset(false);
      t2 = {x + v, x - v, x + offset(false)};
    }
    EXPECT_TRUE(ck.check(t1, t2)) << kinds[kind] << " (oracle)";
    const std::array<int, 3> sign = normal_sign(t1);
    const bool away = ck.check(t1, nudge_along(t2, sign, 1));
    if (kind <= 3) {
      EXPECT_FALSE(away) << kinds[kind] << " moved away (oracle)";
    }
    ck.check(t1, nudge_along(t2, sign, -1));
    ck.check(nudge_along(t1, sign, -1), t2);
  }
  EXPECT_GT(ck.misses(), 800);
}

// Random doubles (not dyadic grid points): shared vertex / shared edge always meet.
TEST(TriTri, SharedVertexOrEdgeWithRandomDoubles) {
  Rng rng(0x7e57'0008);
  PairChecker ck;
  for (int it = 0; it < 400; ++it) {
    const Triangle t1 = rng.uniform_triangle(1, 2);
    Triangle t2 = rng.uniform_triangle(1, 2);
    t2.p0 = t1.p1;
    if (it % 2) t2.p1 = t1.p2;
    EXPECT_TRUE(ck.check(t1, t2)) << "oracle";
  }
}

// Coplanar pairs in an axis plane and in two tilted planes whose equations keep dyadic
// coordinates exact (x + y + z = 1 and x = 3z - 2y), plus one-ulp nudges off the plane.
TEST(TriTri, CoplanarPairs) {
  Rng rng(0x7e57'0009);
  PairChecker ck;
  auto in_plane = [&](int plane) {
    const double a = rng.grid(-1, 0.125, 24), b = rng.grid(-1, 0.125, 24);
    switch (plane) {
      case 0:
        return Vec3{a, b, 0.75};
      case 1:
        return Vec3{a, b, 1 - a - b};
      default:
        return Vec3{3 * b - 2 * a, a, b};
    }
  };
  for (int it = 0; it < 1500; ++it) {
    const int plane = it % 3;
    const Triangle t1{in_plane(plane), in_plane(plane), in_plane(plane)};
    const Triangle t2{in_plane(plane), in_plane(plane), in_plane(plane)};
    ck.check(t1, t2);
    ck.check(t1, nudge_one(t2, rng));
  }
  EXPECT_GT(ck.hits(), 500);
  EXPECT_GT(ck.misses(), 500);
}

// Degenerate triangles (points, segments as repeated or collinear vertices) against normal and
// degenerate ones, on a grid so they often touch.
TEST(TriTri, DegeneratePairs) {
  Rng rng(0x7e57'000a);
  PairChecker ck;
  auto make = [&](int kind) {
    Triangle t = rng.grid_triangle(0, 0.25, 8);
    switch (kind) {
      case 0:
        t.p1 = t.p2 = t.p0;
        break;  // point
      case 1:
        t.p2 = t.p1;
        break;  // segment, repeated vertex
      case 2:
        t.p2 = t.p0 + 2.0 * (t.p1 - t.p0);
        break;  // collinear, outside vertex
      case 3:
        t.p2 = 0.5 * (t.p0 + t.p1);
        break;  // collinear, middle vertex
      case 4:
        t.p1 = t.p0;
        break;  // segment, other repetition
      default:
        break;  // normal (maybe degenerate)
    }
    return t;
  };
  for (int it = 0; it < 2000; ++it) {
    const int k1 = rng.integer(0, 4), k2 = rng.integer(0, 5);
    Triangle t1 = make(k1), t2 = make(k2);
    if (it % 3 == 0) {  // force near-contact: share a point of t1
      t2.p0 = t1.p1;
    }
    ck.check(t1, t2);
  }
  EXPECT_GT(ck.hits(), 500);
  EXPECT_GT(ck.misses(), 500);
}

// A triangle against itself in any vertex order meets; a copy moved one ulp per coordinate
// along the normal's signs lies strictly on one side of the original's plane, so it does not.
TEST(TriTri, DuplicatesAndLiftedDuplicates) {
  Rng rng(0x7e57'000b);
  PairChecker ck;
  for (int it = 0; it < 300; ++it) {
    const Triangle t = it % 2 ? rng.uniform_triangle(1, 2) : rng.grid_triangle(1, 0.25, 4);
    EXPECT_TRUE(ck.check(t, permuted(t, it % 6))) << "oracle";
    const std::array<int, 3> n = normal_sign(t);
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) continue;  // degenerate: no normal
    EXPECT_FALSE(ck.check(t, nudge_along(t, n, 1))) << "oracle";
    EXPECT_FALSE(ck.check(t, nudge_along(t, n, -1))) << "oracle";
  }
}

}  // namespace
}  // namespace kdop
