// triangle_distance, segment_distance and closest_point_on_triangle against independent oracles:
// hand-computed cases; FCL's triDistance (PQP's algorithm) on random pairs at several scales;
// a brute-force barycentric sampling of both triangles; and exact GMP rational distances of
// adversarial pairs (nearly parallel edges a hair apart, slivers, nearly touching corners) and of
// degenerate and coplanar pairs, which also check triangle_distance_error.
#include "geometry/triangle_distance.hpp"

#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "geometry/pose.hpp"
#include "geometry/shapes.hpp"
#include "tests/geometry/rational_oracle.hpp"

namespace kdop {
namespace {

std::string hex(const Triangle& t) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "{{%a, %a, %a}, {%a, %a, %a}, {%a, %a, %a}}", t.p0.x, t.p0.y,
                t.p0.z, t.p1.x, t.p1.y, t.p1.z, t.p2.x, t.p2.y, t.p2.z);
  return buf;
}

std::string describe(const Triangle& a, const Triangle& b) {
  return "a = " + hex(a) + "\nb = " + hex(b);
}

double magnitude(const Triangle& a, const Triangle& b) {
  double m = 0;
  for (const Vec3& p : {a.p0, a.p1, a.p2, b.p0, b.p1, b.p2}) {
    m = std::max({m, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  }
  return m;
}

Triangle translated(const Triangle& t, Vec3 d) {
  return {t.p0 + d, t.p1 + d, t.p2 + d};
}

Triangle posed(const Pose& pose, const Triangle& t) {
  return {apply_pose(pose, t.p0), apply_pose(pose, t.p1), apply_pose(pose, t.p2)};
}

Vec3 uniform_point(std::uint64_t& rng, double scale) {
  return {scale * (2 * next_uniform(rng) - 1), scale * (2 * next_uniform(rng) - 1),
          scale * (2 * next_uniform(rng) - 1)};
}

Triangle random_triangle(std::uint64_t& rng, double scale) {
  return {uniform_point(rng, scale), uniform_point(rng, scale), uniform_point(rng, scale)};
}

Vec3 unit(Vec3 v) {
  return (1 / norm(v)) * v;
}

// Distance of x from the closed triangle t's plane and how far outside its edges it is (0 when
// inside), by plain formulas independent of the library's: the residual of "x lies in t".
double outside_by(const Triangle& t, Vec3 x) {
  const Vec3 v[3] = {t.p0, t.p1, t.p2};
  const Vec3 n = unit(cross(v[1] - v[0], v[2] - v[0]));
  double out = std::fabs(dot(n, x - v[0]));
  for (int i = 0; i < 3; ++i) {
    const Vec3 inward = unit(cross(n, v[(i + 1) % 3] - v[i]));
    out = std::max(out, -dot(inward, x - v[i]));
  }
  return out;
}

// --- Hand-computed cases ----------------------------------------------------------------------

const Triangle kUnitRight{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};  // in z = 0

TEST(TriangleDistance, ParallelAtKnownOffset) {
  const Triangle b = translated(kUnitRight, {0.1, 0.2, 0.5});
  const TrianglePairDistance r = triangle_distance(kUnitRight, b);
  EXPECT_NEAR(r.distance, 0.5, 1e-15);
  EXPECT_NEAR(r.on_a.z, 0, 1e-15);
  EXPECT_NEAR(r.on_b.z, 0.5, 1e-15);
  EXPECT_NEAR(norm(r.on_a - r.on_b), 0.5, 1e-15);
}

TEST(TriangleDistance, CornerAboveFace) {
  const Triangle b{{0.2, 0.3, 0.25}, {0.5, 1.5, 2}, {-1, 0.4, 3}};
  const TrianglePairDistance r = triangle_distance(kUnitRight, b);
  EXPECT_NEAR(r.distance, 0.25, 1e-15);
  EXPECT_NEAR(norm(r.on_a - Vec3{0.2, 0.3, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(r.on_b - b.p0), 0, 1e-15);
  // The same pair the other way round.
  const TrianglePairDistance s = triangle_distance(b, kUnitRight);
  EXPECT_NEAR(s.distance, 0.25, 1e-15);
  EXPECT_NEAR(norm(s.on_a - b.p0), 0, 1e-15);
}

TEST(TriangleDistance, SkewEdges) {
  // A stands in the xz plane with its top edge on the x axis; B in the yz plane with its bottom
  // edge on the line x = 0, z = 1: the closest pair is (0, 0, 0), (0, 0, 1), inside both edges.
  const Triangle a{{-1, 0, 0}, {1, 0, 0}, {0, 0, -1}};
  const Triangle b{{0, -1, 1}, {0, 1, 1}, {0, 0, 2}};
  const TrianglePairDistance r = triangle_distance(a, b);
  EXPECT_NEAR(r.distance, 1, 1e-15);
  EXPECT_NEAR(norm(r.on_a - Vec3{0, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(r.on_b - Vec3{0, 0, 1}), 0, 1e-15);
  // b's edge from (0.3, -1, 1) to (0.3, 1, 3) against a's top edge: |(0.3 - s, -1 + 2t, 1 + 2t)|
  // is least at s = 0.3, t = 0, b's corner: sqrt(2).
  const Triangle c{{0.3, -1, 1}, {0.3, 1, 3}, {0.3, 0, 5}};
  const TrianglePairDistance q = triangle_distance(a, c);
  EXPECT_NEAR(q.distance, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(norm(q.on_a - Vec3{0.3, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(q.on_b - c.p0), 0, 1e-15);
}

TEST(TriangleDistance, TouchingAtACornerIsZero) {
  const Triangle b{{1, 0, 0}, {2, 0, 1}, {2, 1, 0}};
  const TrianglePairDistance r = triangle_distance(kUnitRight, b);
  EXPECT_EQ(r.distance, 0);
  EXPECT_NEAR(norm(r.on_a - Vec3{1, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(r.on_b - Vec3{1, 0, 0}), 0, 1e-15);
  // A corner of b on the interior of a's face.
  const Triangle c{{0.25, 0.25, 0}, {0.3, 0.2, 1}, {0.1, 0.2, 2}};
  EXPECT_EQ(triangle_distance(kUnitRight, c).distance, 0);
  EXPECT_EQ(triangle_distance(c, kUnitRight).distance, 0);
}

TEST(TriangleDistance, CrossingIsZeroWithACommonPoint) {
  const Triangle b{{0.2, 0.2, -1}, {0.3, 0.2, 1}, {0.2, 0.3, 1}};
  for (const auto& [x, y] : {std::pair{kUnitRight, b}, std::pair{b, kUnitRight}}) {
    const TrianglePairDistance r = triangle_distance(x, y);
    EXPECT_EQ(r.distance, 0);
    EXPECT_LT(norm(r.on_a - r.on_b), 1e-15);
    EXPECT_LT(outside_by(x, r.on_a), 1e-15);
    EXPECT_LT(outside_by(y, r.on_b), 1e-15);
  }
  // Coplanar overlap, and one triangle inside the other.
  EXPECT_EQ(triangle_distance(kUnitRight, translated(kUnitRight, {0.3, 0.3, 0})).distance, 0);
  const Triangle inner{{0.1, 0.1, 0}, {0.2, 0.1, 0}, {0.1, 0.2, 0}};
  const TrianglePairDistance r = triangle_distance(kUnitRight, inner);
  EXPECT_EQ(r.distance, 0);
  EXPECT_LT(norm(r.on_a - r.on_b), 1e-15);
}

TEST(TriangleDistance, CoplanarDisjoint) {
  // b's corner (1, 1) against a's hypotenuse x + y = 1: 1 / sqrt(2) at (0.5, 0.5).
  const Triangle b{{1, 1, 0}, {2, 1, 0}, {1, 2, 0}};
  const TrianglePairDistance r = triangle_distance(kUnitRight, b);
  EXPECT_NEAR(r.distance, std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(norm(r.on_a - Vec3{0.5, 0.5, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(r.on_b - Vec3{1, 1, 0}), 0, 1e-15);
  // Side by side along x, parallel edges 0.5 apart.
  const Triangle c{{1.5, 0, 0}, {2.5, 0, 0}, {1.5, 1, 0}};
  EXPECT_NEAR(triangle_distance(kUnitRight, c).distance, 0.5, 1e-15);
}

TEST(TriangleDistance, DegenerateTriangles) {
  // A repeated corner (a segment) above a's interior, standing up: 1.
  const Triangle seg{{0.2, 0.2, 1}, {0.3, 0.3, 2}, {0.2, 0.2, 1}};
  EXPECT_NEAR(triangle_distance(kUnitRight, seg).distance, 1, 1e-15);
  EXPECT_NEAR(triangle_distance(seg, kUnitRight).distance, 1, 1e-15);
  // All three corners equal (a point) below a's interior: 2.
  const Triangle point{{0.25, 0.25, -2}, {0.25, 0.25, -2}, {0.25, 0.25, -2}};
  const TrianglePairDistance r = triangle_distance(kUnitRight, point);
  EXPECT_NEAR(r.distance, 2, 1e-15);
  EXPECT_NEAR(norm(r.on_a - Vec3{0.25, 0.25, 0}), 0, 1e-15);
  // Collinear corners on the x axis from 2 to 4: 1 from a's corner (1, 0, 0).
  const Triangle line{{3, 0, 0}, {2, 0, 0}, {4, 0, 0}};
  EXPECT_NEAR(triangle_distance(kUnitRight, line).distance, 1, 1e-15);
  // Point against segment, point against point, segment against segment (parallel, overlapping).
  const Triangle origin{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  const Triangle bar{{1, 1, 1}, {1, -1, 1}, {1, -1, 1}};
  const TrianglePairDistance pb = triangle_distance(origin, bar);
  EXPECT_NEAR(pb.distance, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(norm(pb.on_b - Vec3{1, 0, 1}), 0, 1e-15);
  EXPECT_NEAR(triangle_distance(origin, point).distance, std::sqrt(4.125), 1e-15);
  const Triangle bar2{{1, 0, 3}, {1, 2, 3}, {1, 1, 3}};
  EXPECT_NEAR(triangle_distance(bar, bar2).distance, 2, 1e-15);
  // A segment lying in a's plane across its interior: they meet.
  const Triangle across{{-1, 0.3, 0}, {2, 0.3, 0}, {2, 0.3, 0}};
  EXPECT_EQ(triangle_distance(kUnitRight, across).distance, 0);
  // Degenerate and intersecting: no NaN anywhere.
  const TrianglePairDistance z = triangle_distance(origin, origin);
  EXPECT_EQ(z.distance, 0);
  EXPECT_EQ(norm(z.on_a - z.on_b), 0);
}

TEST(TriangleDistance, SegmentAndPointHelpers) {
  Vec3 x, y;
  // Skew: x axis against the line x = 0.5, z = 1 along y: 1 at (0.5, 0, 0), (0.5, 0, 1).
  EXPECT_NEAR(segment_distance({0, 0, 0}, {1, 0, 0}, {0.5, -1, 1}, {0.5, 1, 1}, x, y), 1, 1e-15);
  EXPECT_NEAR(norm(x - Vec3{0.5, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(y - Vec3{0.5, 0, 1}), 0, 1e-15);
  // Parallel, disjoint in projection: end point (1, 0, 0) to end point (2, 0, 4).
  EXPECT_NEAR(segment_distance({0, 0, 0}, {1, 0, 0}, {4, 0, 4}, {2, 0, 4}, x, y), std::sqrt(17.0),
              1e-15);
  // Collinear and overlapping: 0.
  EXPECT_EQ(segment_distance({0, 0, 0}, {2, 0, 0}, {1, 0, 0}, {3, 0, 0}, x, y), 0);
  // Points.
  EXPECT_NEAR(segment_distance({1, 1, 1}, {1, 1, 1}, {1, 1, 4}, {1, 1, 4}, x, y), 3, 1e-15);
  EXPECT_NEAR(segment_distance({1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {2, 0, 0}, x, y), std::sqrt(2.0),
              1e-15);
  EXPECT_NEAR(norm(y - Vec3{1, 0, 0}), 0, 1e-15);
  // closest_point_on_triangle: face, edge and corner regions, and a degenerate triangle.
  EXPECT_NEAR(norm(closest_point_on_triangle({0.2, 0.2, 5}, kUnitRight) - Vec3{0.2, 0.2, 0}), 0,
              1e-15);
  EXPECT_NEAR(norm(closest_point_on_triangle({1, 1, 1}, kUnitRight) - Vec3{0.5, 0.5, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(closest_point_on_triangle({-1, -2, 0}, kUnitRight) - Vec3{0, 0, 0}), 0, 1e-15);
  const Triangle line{{3, 0, 0}, {2, 0, 0}, {4, 0, 0}};
  EXPECT_NEAR(norm(closest_point_on_triangle({3.5, 1, 1}, line) - Vec3{3.5, 0, 0}), 0, 1e-15);
}

// --- FCL as an oracle ------------------------------------------------------------------------

double fcl_distance(const Triangle& a, const Triangle& b, Vec3* p = nullptr, Vec3* q = nullptr) {
  const auto v = [](Vec3 x) { return fcl::Vector3d(x.x, x.y, x.z); };
  const fcl::Vector3d t1[3] = {v(a.p0), v(a.p1), v(a.p2)}, t2[3] = {v(b.p0), v(b.p1), v(b.p2)};
  fcl::Vector3d fp, fq;
  const double d = fcl::detail::TriangleDistance<double>::triDistance(t1, t2, fp, fq);
  if (p) *p = {fp.x(), fp.y(), fp.z()};
  if (q) *q = {fq.x(), fq.y(), fq.z()};
  return d;
}

// b moved along the closest direction so that it ends up `gap` from a (translating b along
// on_a - on_b keeps the two supporting planes of the closest pair, so the distance becomes gap).
Triangle moved_to_gap(const Triangle& a, const Triangle& b, double gap) {
  Vec3 p, q;
  const double d = fcl_distance(a, b, &p, &q);
  if (!(d > 0)) return b;
  return translated(b, ((d - gap) / d) * (p - q));
}

// A random rotation about the origin by a small angle.
Pose small_rotation(std::uint64_t& rng, double angle) {
  const Vec3 axis = unit(uniform_point(rng, 1));
  const double h = angle / 2;
  return pose_from_quaternion(0, 0, 0, std::cos(h), std::sin(h) * axis.x, std::sin(h) * axis.y,
                              std::sin(h) * axis.z);
}

TEST(TriangleDistance, AgreesWithFcl) {
  std::uint64_t rng = 2024;
  int apart = 0, meeting = 0;
  for (const double scale : {1e-3, 1.0, 1e3, 1e6}) {
    for (int i = 0; i < 1000; ++i) {
      const Triangle a = random_triangle(rng, scale);
      Triangle b;
      switch (i % 4) {
        case 0:  // anywhere: many intersect
          b = random_triangle(rng, scale);
          break;
        case 1: {  // nearly parallel: a turned by a small angle, moved off and aside
          const double angle = std::pow(10.0, -1 - 8 * next_uniform(rng));
          b = posed(small_rotation(rng, angle), a);
          b = translated(b, uniform_point(rng, 0.5 * scale));
          break;
        }
        case 2:  // nearly touching: moved to a gap of 1e-12 to 1e-3 of the scale
          b = moved_to_gap(a, random_triangle(rng, scale),
                           scale * std::pow(10.0, -3 - 9 * next_uniform(rng)));
          break;
        default: {  // intersecting: an edge of b pierces a's interior
          const Vec3 inside = (1.0 / 3) * (a.p0 + a.p1 + a.p2);
          const Vec3 n = unit(cross(a.p1 - a.p0, a.p2 - a.p0));
          const double h = 0.1 * scale;
          b = {inside + h * n, inside - h * n, inside + uniform_point(rng, scale)};
          break;
        }
      }
      const TrianglePairDistance ours = triangle_distance(a, b);
      const double theirs = fcl_distance(a, b);
      ASSERT_FALSE(std::isnan(ours.distance));
      // 1e-9 of the coordinates' scale: FCL itself is off by up to about 2^-28 of it on nearly
      // parallel edges a hair apart (see the exact test below), and these pairs come near that.
      EXPECT_NEAR(ours.distance, theirs, 1e-9 * scale)
          << "case " << i % 4 << " at scale " << scale << "\n"
          << describe(a, b);
      (ours.distance > 0 ? apart : meeting)++;
    }
  }
  EXPECT_GT(apart, 2000);
  EXPECT_GT(meeting, 1000);
}

// --- Brute-force sampling --------------------------------------------------------------------

TEST(TriangleDistance, NoSampledPairIsCloser) {
  std::uint64_t rng = 77;
  constexpr int kGrid = 24;
  for (int i = 0; i < 150; ++i) {
    const Triangle a = random_triangle(rng, 1);
    const Triangle b = i % 2 == 0 ? translated(random_triangle(rng, 1), uniform_point(rng, 1.5))
                                  : moved_to_gap(a, random_triangle(rng, 1), 1e-6);
    const TrianglePairDistance r = triangle_distance(a, b);
    // The reported pair: in the triangles, and as far apart as reported.
    EXPECT_LT(outside_by(a, r.on_a), 1e-14) << describe(a, b);
    EXPECT_LT(outside_by(b, r.on_b), 1e-14) << describe(a, b);
    if (r.distance > 0) {
      EXPECT_NEAR(norm(r.on_a - r.on_b), r.distance, 1e-15) << describe(a, b);
    }
    double sampled = INFINITY;
    for (int u = 0; u <= kGrid; ++u) {
      for (int v = 0; u + v <= kGrid; ++v) {
        const Vec3 x =
            a.p0 + (double(u) / kGrid) * (a.p1 - a.p0) + (double(v) / kGrid) * (a.p2 - a.p0);
        for (int s = 0; s <= kGrid; ++s) {
          for (int t = 0; s + t <= kGrid; ++t) {
            const Vec3 y =
                b.p0 + (double(s) / kGrid) * (b.p1 - b.p0) + (double(t) / kGrid) * (b.p2 - b.p0);
            sampled = std::min(sampled, norm(x - y));
          }
        }
      }
    }
    EXPECT_LE(r.distance, sampled + 1e-14) << describe(a, b);
  }
}

// --- Exact rational distances of adversarial pairs -------------------------------------------

struct Q3 {
  mpq_class x, y, z;
  explicit Q3(const Vec3& p) : x(p.x), y(p.y), z(p.z) {}
  Q3(mpq_class a, mpq_class b, mpq_class c) : x(std::move(a)), y(std::move(b)), z(std::move(c)) {}
};
Q3 operator-(const Q3& p, const Q3& q) {
  return {p.x - q.x, p.y - q.y, p.z - q.z};
}
Q3 operator+(const Q3& p, const Q3& q) {
  return {p.x + q.x, p.y + q.y, p.z + q.z};
}
Q3 operator*(const mpq_class& s, const Q3& p) {
  return {s * p.x, s * p.y, s * p.z};
}
mpq_class dot(const Q3& p, const Q3& q) {
  return p.x * q.x + p.y * q.y + p.z * q.z;
}
Q3 cross(const Q3& p, const Q3& q) {
  return {p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x};
}
mpq_class clamp01(const mpq_class& x) {
  return x < 0 ? mpq_class(0) : (x > 1 ? mpq_class(1) : x);
}

mpq_class point_segment2(const Q3& x, const Q3& p, const Q3& q) {
  const Q3 d = q - p;
  const mpq_class dd = dot(d, d);
  const mpq_class t = dd > 0 ? clamp01(dot(x - p, d) / dd) : mpq_class(0);
  const Q3 v = x - (p + t * d);
  return dot(v, v);
}

// The least of the four end point distances and, where the lines' closest points lie inside
// both segments, theirs: a convex quadratic on the unit square is least at its stationary point
// or on an edge of the square, where one end is fixed.
mpq_class segment_segment2(const Q3& p, const Q3& q, const Q3& r, const Q3& s) {
  mpq_class best = point_segment2(p, r, s);
  for (const mpq_class& c :
       {point_segment2(q, r, s), point_segment2(r, p, q), point_segment2(s, p, q)}) {
    if (c < best) best = c;
  }
  const Q3 d1 = q - p, d2 = s - r, w = p - r;
  const mpq_class a = dot(d1, d1), b = dot(d1, d2), e = dot(d2, d2), c = dot(d1, w), f = dot(d2, w),
                  den = a * e - b * b;
  if (den > 0) {
    const mpq_class u = (b * f - c * e) / den, t = (a * f - b * c) / den;
    if (u >= 0 && u <= 1 && t >= 0 && t <= 1) {
      const Q3 v = (p + u * d1) - (r + t * d2);
      if (dot(v, v) < best) best = dot(v, v);
    }
  }
  return best;
}

// Corner x against the face of t where x projects inside it (t non-degenerate), else none.
bool corner_face2(const Q3& x, const Q3 t[3], mpq_class& out) {
  const Q3 n = cross(t[1] - t[0], t[2] - t[0]);
  const mpq_class nn = dot(n, n);
  if (nn == 0) return false;
  for (int i = 0; i < 3; ++i) {
    if (dot(cross(t[(i + 1) % 3] - t[i], x - t[i]), n) < 0) return false;
  }
  const mpq_class h = dot(x - t[0], n);
  out = h * h / nn;
  return true;
}

mpq_class exact_distance2(const Triangle& a, const Triangle& b) {
  if (test::triangles_intersect_rational(a, b)) return 0;
  const Q3 ta[3] = {Q3(a.p0), Q3(a.p1), Q3(a.p2)}, tb[3] = {Q3(b.p0), Q3(b.p1), Q3(b.p2)};
  mpq_class best = segment_segment2(ta[0], ta[1], tb[0], tb[1]);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const mpq_class c = segment_segment2(ta[i], ta[(i + 1) % 3], tb[j], tb[(j + 1) % 3]);
      if (c < best) best = c;
    }
  }
  mpq_class c;
  for (int i = 0; i < 3; ++i) {
    if (corner_face2(ta[i], tb, c) && c < best) best = c;
    if (corner_face2(tb[i], ta, c) && c < best) best = c;
  }
  return best;
}

// |d - sqrt(D)| = |d^2 - D| / (d + sqrt(D)), the numerator exact.
double error_against(double d, const mpq_class& exact2) {
  const mpq_class dq(d);
  const double num = std::fabs(mpq_class(dq * dq - exact2).get_d());
  const double den = d + std::sqrt(exact2.get_d());
  return den > 0 ? num / den : 0;
}

// A pair whose closest points are (for the real numbers before rounding) the interiors of an
// edge of each, nearly parallel (angle `angle`) and `gap` apart, turned to a random orientation.
std::pair<Triangle, Triangle> nearly_parallel_edges(std::uint64_t& rng, double angle, double gap) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double u = 0.2 + 0.6 * next_uniform(rng), v = 0.2 + 0.6 * next_uniform(rng);
  // Edge of a along x through the origin, a below (z <= 0); edge of b at height gap along
  // (c, s, 0) through the origin too, b above.
  const Triangle a{{-2 * u, 0, 0}, {2 * (1 - u), 0, 0}, {0.3, 0.7, -1}};
  const Triangle b{
      {-2 * v * c, -2 * v * s, gap}, {2 * (1 - v) * c, 2 * (1 - v) * s, gap}, {-0.4, 0.5, 1 + gap}};
  const Pose pose = random_pose(rng, {-1, -1, -1}, {1, 1, 1});
  return {posed(pose, a), posed(pose, b)};
}

// A sliver "cap" face (its third corner `width` off the long edge) with b's corner `gap` above
// its middle.
std::pair<Triangle, Triangle> corner_over_sliver(std::uint64_t& rng, double width, double gap) {
  const double m = 0.3 + 0.4 * next_uniform(rng);
  const Triangle a{{0, 0, 0}, {2, 0, 0}, {2 * m, width, 0}};
  const Triangle b{{2 * m, 0.5 * width, gap}, {1.5, 1, 1}, {0.5, -1, 1.5}};
  const Pose pose = random_pose(rng, {-1, -1, -1}, {1, 1, 1});
  return {posed(pose, a), posed(pose, b)};
}

TEST(TriangleDistance, ExactOnAdversarialPairsWithinErrorBound) {
  std::uint64_t rng = 9;
  double worst = 0;  // in units of triangle_distance_error
  int checked = 0;
  const auto check = [&](const Triangle& a, const Triangle& b) {
    const double d = triangle_distance(a, b).distance;
    const double err = error_against(d, exact_distance2(a, b));
    const double bound = triangle_distance_error(magnitude(a, b));
    EXPECT_LE(err, bound) << describe(a, b);
    worst = std::max(worst, err / bound);
    ++checked;
  };
  for (int k = 2; k <= 62; k += 2) {
    for (int j = 10; j <= 60; j += 5) {
      const auto [a, b] = nearly_parallel_edges(rng, std::ldexp(1.0, -k), std::ldexp(1.0, -j));
      check(a, b);
      const auto [c, e] = corner_over_sliver(rng, std::ldexp(1.0, -k), std::ldexp(1.0, -j));
      check(c, e);
    }
  }
  // Nearly touching random pairs and nearly parallel faces at several scales.
  for (const double scale : {1e-3, 1.0, 1e4}) {
    for (int i = 0; i < 100; ++i) {
      const Triangle a = random_triangle(rng, scale);
      check(a, moved_to_gap(a, random_triangle(rng, scale),
                            scale * std::pow(10.0, -4 - 12 * next_uniform(rng))));
      const Triangle b = posed(small_rotation(rng, std::pow(10.0, -2 - 12 * next_uniform(rng))), a);
      check(a, translated(b, uniform_point(rng, 0.3 * scale)));
    }
  }
  std::printf("exact oracle: %d pairs, worst error %.3g of triangle_distance_error\n", checked,
              worst);
}

// Degenerate and coplanar pairs on a coarse grid (every coordinate a multiple of 1/4, so
// collinear and coplanar really are): segments, repeated corners, points, and flat pairs that
// touch, overlap or miss. Distance 0 exactly when the exact oracle says they meet.
TEST(TriangleDistance, ExactOnDegenerateAndCoplanarPairs) {
  std::uint64_t rng = 5;
  const auto grid = [&] { return std::floor(next_uniform(rng) * 17) / 4 - 2; };
  const auto grid_point = [&](bool flat) { return Vec3{grid(), grid(), flat ? 0.5 : grid()}; };
  const auto make = [&](int kind, bool flat) {
    const Vec3 p = grid_point(flat), q = grid_point(flat);
    switch (kind) {
      case 0:
        return Triangle{p, q, grid_point(flat)};
      case 1:  // collinear: p, q and p + 2 (q - p) or p - (q - p)
        return Triangle{p, q, p + (next_uniform(rng) < 0.5 ? 2.0 : -1.0) * (q - p)};
      case 2:  // a repeated corner
        return Triangle{p, q, p};
      default:  // a point
        return Triangle{p, p, p};
    }
  };
  int zero = 0, positive = 0;
  for (int i = 0; i < 2000; ++i) {
    const bool flat = i % 2 == 1;
    const Triangle a = make(i % 4, flat), b = make((i / 4) % 4, flat);
    const TrianglePairDistance r = triangle_distance(a, b);
    const mpq_class exact2 = exact_distance2(a, b);
    ASSERT_FALSE(std::isnan(r.distance)) << describe(a, b);
    EXPECT_EQ(r.distance == 0, exact2 == 0) << describe(a, b);
    EXPECT_LE(error_against(r.distance, exact2), triangle_distance_error(magnitude(a, b)))
        << describe(a, b);
    EXPECT_NEAR(norm(r.on_a - r.on_b), r.distance, 1e-15) << describe(a, b);
    EXPECT_NEAR(triangle_distance(b, a).distance, r.distance,
                2 * triangle_distance_error(magnitude(a, b)))
        << describe(a, b);
    (r.distance == 0 ? zero : positive)++;
  }
  EXPECT_GT(zero, 100);
  EXPECT_GT(positive, 1000);
}

}  // namespace
}  // namespace kdop
