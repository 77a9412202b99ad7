// Triangle-triangle distance (see triangle_distance.hpp): the least of the 9 edge-edge and the
// 6 corner-face squared distances, with one square root at the end, or 0 where the exact
// triangles_intersect says the triangles meet. That test runs only when no separating slab (see
// separation) has already proved them disjoint: for nearly all disjoint pairs it does not run.
//
// Only the corner-face pairs whose corner projects into the face need a face test: a corner whose
// closest point in the other triangle lies on that triangle's boundary is an end point of two of
// its own edges, so an edge-edge pair already covers it. A triangle too thin to have a
// trustworthy plane is (to within rounding) a segment, the union of its edges, and takes no face
// test at all.
//
// Accuracy. Every candidate is a pair of points of the two triangles (up to the rounding of
// forming them), so the least candidate is never much below the true distance. It is not much
// above either, because the candidate of the true closest pair's kind is found accurately: its
// parameters come from cross products, and where a plain double cross product would lose its
// digits (nearly parallel edges, sliver faces: the direction of fl(p x q) is only good to about
// 2^-52 / sin(p, q)), accurate_cross evaluates it with error-free products instead. Without
// that, nearly parallel edges a hair apart can be off by about the square root of the unit
// roundoff (2^-26 of the coordinates; FCL's triDistance is, by some 2^-28).
#include "geometry/triangle_distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kdop {
namespace {

// Below this squared sine of the angle between two directions, a cross product of them is
// evaluated accurately (a plain one's direction is then only good to about 2^-52 * 16).
constexpr double kWellConditioned = 0x1p-8;

// Unit roundoff of double: a face whose accurate normal is shorter than a few units of it times
// its edges' lengths is a segment to within rounding.
constexpr double kUnit = 0x1p-53;

// x clamped to [0, 1]; NaN (0 * inf from a degenerate input) goes to 0. On x86-64 this is
// maxsd, which returns its second operand when the first is NaN, then minsd: GCC compiles the
// portable form to two unpredictable branches (about a third of the edge pairs' time).
inline double clamp01(double x) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_min_sd(_mm_max_sd(_mm_set_sd(x), _mm_setzero_pd()), _mm_set_sd(1.0)));
#else
  const double y = x > 0 ? x : 0;
  return y < 1 ? y : 1;
#endif
}

// Dekker's error-free product without fused multiply-add (the baseline ISA has none, and the
// library builds with -ffp-contract=off): a * b == hi + lo exactly, Veltkamp's split cutting each
// factor into two 26-bit halves whose products are exact. Valid for |a|, |b| < 2^995.
inline void two_product(double a, double b, double& hi, double& lo) {
  constexpr double kSplit = 0x1p27 + 1;
  hi = a * b;
  const double ca = kSplit * a, a_hi = ca - (ca - a), a_lo = a - a_hi;
  const double cb = kSplit * b, b_hi = cb - (cb - b), b_lo = b - b_hi;
  lo = ((a_hi * b_hi - hi) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
}

// x * y - z * w within 2 ulp of its value plus 2^-105 (|x y| + |z w|): the cancelling leading
// parts subtract exactly (Sterbenz) and the tails carry what a plain evaluation rounds away.
inline double accurate_det2(double x, double y, double z, double w) {
  double p, p_lo, q, q_lo;
  two_product(x, y, p, p_lo);
  two_product(z, w, q, q_lo);
  return (p - q) + (p_lo - q_lo);
}

// p x q with every component accurate to a few ulp of itself, however close p and q are to
// parallel (exactly 0 when they are exactly parallel).
Vec3 accurate_cross(Vec3 p, Vec3 q) {
  return {accurate_det2(p.y, q.z, p.z, q.y), accurate_det2(p.z, q.x, p.x, q.z),
          accurate_det2(p.x, q.y, p.y, q.x)};
}

struct SegmentParameters {
  double s, t;
};

// The closest points p + s d1 and q + t d2 of the segments [p, p + d1] and [q, q + d2], given
// r = p - q, a = |d1|^2, e = |d2|^2 and their inverses (0 for a zero-length segment, which makes
// its parameter 0). Ericson, Real-Time Collision Detection, 5.1.9: |r + s d1 - t d2|^2 is a
// convex quadratic on the unit square. Take the unconstrained minimum's s clamped to [0, 1],
// then the best t for that s, clamped; then the best s for that t. Ericson recomputes s only when
// t was clamped; recomputing it always is no worse (it can only lower the distance, and for an
// unclamped t it returns the same s up to rounding) and needs no branch.
//
// The unconstrained s is (b f - c e) / (a e - b^2) = ((d1 x d2) . (d2 x r)) / |d1 x d2|^2
// (Lagrange's identity). The first form is cheaper and is used while the segments are far from
// parallel; the second, with an accurate d1 x d2, otherwise, where a e - b^2 has lost its digits
// to cancellation. Exactly parallel (d1 x d2 == 0): any s will do, as the best t for it and the
// best s for that t find the closest pair.
inline SegmentParameters closest_parameters(Vec3 d1, double a, double inv_a, Vec3 d2, double e,
                                            double inv_e, Vec3 r) {
  const double b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r);
  const double denom = a * e - b * b;
  double s;
  if (denom > kWellConditioned * a * e) {
    s = clamp01((b * f - c * e) / denom);
  } else {
    const Vec3 n = accurate_cross(d1, d2);
    const double nn = dot(n, n);
    s = nn > 0 ? clamp01(dot(n, cross(d2, r)) / nn) : 0;
  }
  const double t = clamp01((b * s + f) * inv_e);
  return {clamp01((b * t - c) * inv_a), t};
}

inline double inverse_or_zero(double x) {
  return x > 0 ? 1 / x : 0;
}

// A triangle's corners and edges: edge i runs from v[i] to v[i] + e[i] (= v[i + 1]).
// ee[i] = |e[i]|^2 and inv[i] its inverse (0 for a zero-length edge).
struct Corners {
  Vec3 v[3], e[3];
  double ee[3], inv[3];
  explicit Corners(const Triangle& t)
      : v{t.p0, t.p1, t.p2}, e{t.p1 - t.p0, t.p2 - t.p1, t.p0 - t.p2} {
    for (int i = 0; i < 3; ++i) {
      ee[i] = dot(e[i], e[i]);
      inv[i] = inverse_or_zero(ee[i]);
    }
  }
};

// A triangle's plane for the corner-face tests: the normal n and, for each edge, m[i] = n x e[i],
// pointing from edge i into the triangle. nn = |n|^2, or 0 if the triangle is a segment or a
// point to within rounding (then its edges are the whole of it).
struct Face {
  Vec3 n, m[3];
  double nn = 0;
};

Face make_face(const Corners& c) {
  Face f;
  const double scale = c.ee[2] * c.ee[0];
  f.n = cross(c.e[2], c.e[0]);
  f.nn = dot(f.n, f.n);
  if (!(f.nn > kWellConditioned * scale)) {
    // A sliver: the plain normal may point anywhere; the accurate one is good to a few ulp
    // unless |n| < 4 u |e2| |e0|, in which case the width |n| / (longest edge) is below
    // 4 u times an edge's length and the edges alone are accurate enough.
    f.n = accurate_cross(c.e[2], c.e[0]);
    f.nn = dot(f.n, f.n);
    if (!(f.nn > 16 * kUnit * kUnit * scale)) {
      f.nn = 0;
      return f;
    }
  }
  for (int i = 0; i < 3; ++i) f.m[i] = cross(f.n, c.e[i]);
  return f;
}

// Does p project into the face (closed)?
inline bool projects_inside(const Face& f, const Corners& c, Vec3 p) {
  return dot(f.m[0], p - c.v[0]) >= 0 && dot(f.m[1], p - c.v[1]) >= 0 &&
         dot(f.m[2], p - c.v[2]) >= 0;
}

// The best pair so far, and the direction to measure its slab along (see separation): the
// closest pair of an edge interior and an edge interior, or of a corner and a face interior, is
// perpendicular to both edges, or to the face, and that direction comes accurately from the
// edges themselves. y - x, by contrast, is a difference of two points each rounded by some u M,
// so for nearly touching triangles its direction is off by u M / |y - x|, and every slab along it
// by that much times the triangles' size.
struct Closest {
  double d2 = std::numeric_limits<double>::infinity();
  Vec3 x, y;  // x in the first triangle, y in the second
  Vec3 axis;  // 0: use y - x
  bool offer(Vec3 px, Vec3 py, Vec3 along = {}) {
    const Vec3 v = px - py;
    const double dd = dot(v, v);
    if (!(dd < d2)) return false;
    *this = {dd, px, py, along};
    return true;
  }
};

// The largest absolute coordinate of the two triangles: the M of triangle_distance_error.
double magnitude(const Corners& a, const Corners& b) {
  double m = 0;
  for (const Corners* c : {&a, &b}) {
    for (const Vec3& p : c->v) {
      m = std::max(m, std::max(std::fabs(p.x), std::max(std::fabs(p.y), std::fabs(p.z))));
    }
  }
  return m;
}

// Within this many times the magnitude M, a separating slab proves a pair closest.
constexpr double kProvenClosest = 0x1p-44;

enum class Proof { kNothing, kDisjoint, kClosest };

// What the slab between the best pair's points proves. Along an axis w (best.axis turned to
// point from x to y, or y - x itself), the corners of a project to at most pa and those of b to
// at least pb, so the triangles lie in halfspaces at least (pb - pa) / |w| apart: if that is
// positive they are disjoint (triangles_intersect need not run), and if it is also within
// kProvenClosest M of |y - x|, then |y - x| is the distance to within that. This is PQP's early
// exit (Larsen et al. 1999: the closest pair is found once no corner lies inside its slab), made
// a proof by widening pa and pb by their rounding error; any w will do for the bound, a good one
// only makes it tight. Each of p . w and x . w (|p_i|, |x_i| <= M, x lying in a up to rounding)
// is within 3.01 u M |w|_1 of its value, and their difference rounds by at most 2.01 u M |w|_1:
// 8.1 u M |w|_1 in all; 16 u M |w|_1 also covers the subtractions of the rounding term. The test
// of closeness is squared to avoid square roots, with |w| >= |w|_1 / 2 on its right side.
Proof separation(const Corners& a, const Corners& b, const Closest& best, double magnitude) {
  const Vec3 v = best.y - best.x;
  Vec3 w = best.axis;
  const double wv = dot(w, v);
  if (wv == 0) {
    w = v;
  } else if (wv < 0) {
    w = -1.0 * w;
  }
  const double xw = dot(best.x, w);
  const double pa = std::max(dot(a.v[0], w), std::max(dot(a.v[1], w), dot(a.v[2], w))) - xw;
  const double pb = std::min(dot(b.v[0], w), std::min(dot(b.v[1], w), dot(b.v[2], w))) - xw;
  const double w1 = std::fabs(w.x) + std::fabs(w.y) + std::fabs(w.z);
  const double rounding = 16 * kUnit * magnitude * w1;
  const double width = (pb - rounding) - (pa + rounding);  // at most the distance times |w|
  if (!(width > 0)) return Proof::kNothing;
  // |y - x| |w| - width <= kProvenClosest M |w|, made stronger and squared.
  const double reach = width + kProvenClosest * magnitude * 0.5 * w1;
  return best.d2 * dot(w, w) <= reach * reach ? Proof::kClosest : Proof::kDisjoint;
}

// The axis for the closest pair of edges d1 and d2 at parameters st: their common normal if the
// pair lies inside both (a plain cross product where it is accurate, see closest_parameters),
// else none (y - x).
Vec3 edge_pair_axis(Vec3 d1, double a, Vec3 d2, double e, SegmentParameters st) {
  if (!(st.s > 0 && st.s < 1 && st.t > 0 && st.t < 1)) return {};
  const Vec3 n = cross(d1, d2);
  return dot(n, n) > kWellConditioned * a * e ? n : accurate_cross(d1, d2);
}

// The corners of `c` that project into face `f` (of triangle `fc`): their feet on the plane.
// `corner_first` says which side of the pair the corner is.
void corner_face_pairs(const Corners& c, const Face& f, const Corners& fc, bool corner_first,
                       Closest& best) {
  if (f.nn == 0) return;
  for (const Vec3& p : c.v) {
    const double h = dot(f.n, p - fc.v[0]);
    if (h * h >= best.d2 * f.nn) continue;  // cannot beat the best: skip the inside test
    if (!projects_inside(f, fc, p)) continue;
    const Vec3 foot = p - (h / f.nn) * f.n;
    if (corner_first) {
      best.offer(p, foot, f.n);
    } else {
      best.offer(foot, p, f.n);
    }
  }
}

// Intersecting triangles only: edges of `c` that cross the plane of `f` strictly, each paired
// with the closest point of triangle `t` to the crossing; together with the edge-edge and
// corner-face pairs this finds a common point (a closed edge meets the other triangle where the
// two intersect, see tri_tri.hpp; a crossing of the face's interior is the one way those pairs
// miss).
void crossing_pairs(const Corners& c, const Face& f, const Corners& fc, const Triangle& t,
                    bool edge_first, Closest& best) {
  if (f.nn == 0) return;
  for (int i = 0; i < 3; ++i) {
    const double hp = dot(f.n, c.v[i] - fc.v[0]), hq = dot(f.n, c.v[(i + 1) % 3] - fc.v[0]);
    if (!((hp < 0 && hq > 0) || (hp > 0 && hq < 0))) continue;
    const Vec3 x = c.v[i] + clamp01(hp / (hp - hq)) * c.e[i];
    const Vec3 y = closest_point_on_triangle(x, t);
    if (edge_first) {
      best.offer(x, y);
    } else {
      best.offer(y, x);
    }
  }
}

}  // namespace

TrianglePairDistance triangle_distance(const Triangle& a, const Triangle& b) {
  const Corners ca(a), cb(b);
  const double m = magnitude(ca, cb);
  // The 9 edge pairs, an edge of a against the 3 of b at a time: the three in one branch-free
  // pass (their latencies overlap), then the best so far's slab, which for most disjoint pairs
  // proves it closest after the first or second edge of a (PQP stops after each pair; a slab
  // test costs about as much as a pair, so testing every third pair is cheaper).
  Closest best;
  for (int i = 0; i < 3; ++i) {
    SegmentParameters st[3];
    double dd[3];
    for (int j = 0; j < 3; ++j) {
      const Vec3 r = ca.v[i] - cb.v[j];
      st[j] = closest_parameters(ca.e[i], ca.ee[i], ca.inv[i], cb.e[j], cb.ee[j], cb.inv[j], r);
      const Vec3 v = r + st[j].s * ca.e[i] - st[j].t * cb.e[j];
      dd[j] = dot(v, v);
    }
    const int j = dd[1] < dd[0] ? (dd[2] < dd[1] ? 2 : 1) : (dd[2] < dd[0] ? 2 : 0);
    if (best.offer(ca.v[i] + st[j].s * ca.e[i], cb.v[j] + st[j].t * cb.e[j],
                   edge_pair_axis(ca.e[i], ca.ee[i], cb.e[j], cb.ee[j], st[j])) &&
        separation(ca, cb, best, m) == Proof::kClosest) {
      return {std::sqrt(best.d2), best.x, best.y};
    }
  }
  const Face fa = make_face(ca), fb = make_face(cb);
  corner_face_pairs(ca, fb, cb, true, best);
  corner_face_pairs(cb, fa, ca, false, best);
  // All 15 candidates are in: the best is the distance unless the triangles intersect.
  if (separation(ca, cb, best, m) != Proof::kNothing || !triangles_intersect(a, b)) {
    return {std::sqrt(best.d2), best.x, best.y};
  }
  crossing_pairs(ca, fb, cb, b, true, best);
  crossing_pairs(cb, fa, ca, a, false, best);
  return {0, best.x, best.y};
}

// The returned distance is |x - y| for computed points x, y of the winning pair, either proved
// closest by a slab to within kProvenClosest M = 2^-44 M (plus the rounding below), or the least
// of all 15 candidates. The error of the latter has three parts, each a small multiple of u M
// (u = 2^-53, M = magnitude; edge vectors and differences are at most 2M per coordinate):
//  - feasibility: x and y are within about 10 u M of points of the triangles (the rounding of
//    forming v + s e, or a foot on a plane whose normal is good to a few ulp), so the result is
//    at least the true distance minus about 20 u M;
//  - optimality: the true closest pair is of one of the 15 kinds, and that kind's parameters are
//    found with an error that moves its points by some tens of u M across the other feature (the
//    cross products it depends on are accurate to a few ulp in direction, see above; a corner
//    found just inside or outside a face, or a t clamped on the wrong side, moves the result by
//    no more than that), so the result exceeds the true distance by at most that;
//  - the final sum of squares and square root: a relative 2u of a distance below 4M.
// So the error is below 2^-44 M plus a few hundred u M; 2^-40 M leaves a margin of more than
// 10, and tests/geometry/triangle_distance_test.cpp checks it against exact rational distances
// of adversarial pairs (nearly parallel edges a hair apart, slivers, nearly touching corners and
// faces; the worst seen is about 2^-46 M). Assumes 2^-200 < M < 2^200, so that no product of
// four coordinates overflows or underflows.
double triangle_distance_error(double magnitude) {
  return 0x1p-40 * magnitude;
}

double segment_distance(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s, Vec3& on_pq,
                        Vec3& on_rs) {
  const Vec3 d1 = q - p, d2 = s - r;
  const double a = dot(d1, d1), e = dot(d2, d2);
  const SegmentParameters st =
      closest_parameters(d1, a, inverse_or_zero(a), d2, e, inverse_or_zero(e), p - r);
  on_pq = p + st.s * d1;
  on_rs = r + st.t * d2;
  return norm(on_pq - on_rs);
}

Vec3 closest_point_on_triangle(const Vec3& p, const Triangle& t) {
  // The foot on the plane if it lies in the triangle (Ericson 5.1.5's face region), else the
  // closest point of the boundary: the nearest of the three edges' closest points.
  const Corners c(t);
  const Face f = make_face(c);
  if (f.nn > 0 && projects_inside(f, c, p)) return p - (dot(f.n, p - c.v[0]) / f.nn) * f.n;
  Vec3 best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    const double ee = dot(c.e[i], c.e[i]);
    const double s = ee > 0 ? clamp01(dot(p - c.v[i], c.e[i]) / ee) : 0;
    const Vec3 x = c.v[i] + s * c.e[i], v = p - x;
    const double dd = dot(v, v);
    if (dd < best_d2) {
      best_d2 = dd;
      best = x;
    }
  }
  return best;
}

}  // namespace kdop
