// GJK distance between a triangle and a swept revolved primitive, with certified bounds (see
// convex_distance.hpp).
//
// GJK works on the Minkowski difference D = C - T (C the swept primitive, T the triangle): the
// distance is the least |x| over D, and D's support point in direction d is
// s_C(d) - s_T(-d). Each iteration takes v, the point of the current simplex (at most 4 points of
// D) closest to the origin, adds w = s_D(-v), and replaces the simplex by the smallest face of
// the new one holding its closest point. Distance sub-algorithm: Johnson's (GJK 1988, section
// 4) enumerates the faces of the simplex; we do the same plainly, every face holding the new
// point in order of size (see closest_on_simplex), projecting the origin on its affine hull (the
// normal equations of the edge vectors, solved by Cramer's rule) and keeping the nearest projection
// with all barycentric weights positive. That is exactly the closest point of the simplex (the
// closest point lies in the relative interior of some face, where it is that face's projection),
// and whatever rounding does to the weights, the point we keep is a convex combination, so its
// witness pair stays a pair of points of T and C up to rounding.
//
// Rounding, and why the margin holds. Let u = 2^-53, M the largest absolute coordinate of the
// triangle's corners, from and to, L = max(|z0|, |z1|) + max(r0, r1) + rounding, |n|_1 <=
// sqrt(3) |n|.
// - Lower bound (separation_gap_as_rounded): n . t_i is within 3.01 u M |n|_1 of its value. In
//   h(n) = max(r0 s + z0 n_z, r1 s + z1 n_z) + rounding |n| + max(n . from, n . to), s = |n_xy|,
//   the square roots are within 2.01 u relative, each product adds u, each sum u of its
//   magnitude: at most 5 u L |n| for the first two terms together, 3.01 u M |n|_1 for the dot
//   products and 3 u (L |n| + sqrt(3) M |n|) for the two sums: under 10 u (L + 2 M) |n|. The
//   difference adds u of at most 2 sqrt(3) (L + M) |n| and the division by the rounded |n|
//   (within 2.01 u) another 3.1 u of the quotient's size, 2 sqrt(3) (L + M): in all under
//   40 u (L + M). The margin 2^-44 (L + M) = 512 u (L + M) covers it with room to spare.
// - Upper bound: a support point of C is from or to plus (r n_x / s, r n_y / s, z) plus
//   (rounding / |n|) n, within 6 u (L + M) per coordinate of a point of C (the unit vector
//   n_xy / s has a length within 3 u of 1); a convex combination with rounded weights (summing
//   to 1 within 4 u) moves that to at most 12 u (L + M), likewise for T, and |c - t| adds 3 u of
//   itself: under 60 u (L + M), inside the same margin.
// Both margins grow with M: at 1e4 mm machine positions they are about 5.7e-10 mm, far below the
// issue's delta of 1e-6 mm.
#include "geometry/convex_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kdop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A face is skipped as degenerate when its Gram determinant is below this fraction of the
// product of its edges' squared lengths (the squared sine of its angles, about 1e-10 squared):
// its lower-dimensional faces are enumerated anyway, and a skipped face only costs iterations.
constexpr double kFlat = 1e-20;

// No progress: |v|^2 - v . w within this fraction of |v|^2 (GJK's own stopping test), i.e. the
// bounds agree to about 1e-12 relative; rounding cannot do better.
constexpr double kNoProgress = 0x1p-40;

double magnitude(Vec3 p) {
  return std::max(std::fabs(p.x), std::max(std::fabs(p.y), std::fabs(p.z)));
}

// A point of D and the points of C and T it is the difference of.
struct Vertex {
  Vec3 w, c, t;
};

struct SimplexPoint {
  Vec3 v;
  std::array<double, 4> weight{};
  unsigned members = 0;  // bit i: vertex i has positive weight
};

// Projects the origin on the affine hull of the vertices in `mask`; false if that face is
// degenerate or the projection is not inside it (a weight <= 0).
bool project_on_face(const std::array<Vertex, 4>& s, unsigned mask, SimplexPoint& out) {
  std::array<int, 4> idx{};
  int m = 0;
  for (int i = 0; i < 4; ++i) {
    if (mask & (1u << i)) idx[m++] = i;
  }
  const Vec3 w0 = s[idx[0]].w;
  std::array<double, 4> lambda{};
  if (m == 1) {
    lambda[0] = 1;
  } else if (m == 2) {
    const Vec3 e = s[idx[1]].w - w0;
    const double ee = dot(e, e);
    if (!(ee > 0)) return false;
    const double mu = -dot(e, w0) / ee;
    lambda = {1 - mu, mu};
  } else if (m == 3) {
    const Vec3 e1 = s[idx[1]].w - w0, e2 = s[idx[2]].w - w0;
    const double a = dot(e1, e1), b = dot(e1, e2), c = dot(e2, e2);
    const Vec3 n = cross(e1, e2);
    const double det = dot(n, n);  // = ac - b^2 (Lagrange's identity), without cancellation
    if (!(det > kFlat * a * c)) return false;
    const double r1 = -dot(e1, w0), r2 = -dot(e2, w0);
    const double mu1 = (c * r1 - b * r2) / det, mu2 = (a * r2 - b * r1) / det;
    lambda = {1 - mu1 - mu2, mu1, mu2};
  } else {
    // Four points: the origin itself, in barycentric coordinates (Cramer's rule on the edge
    // vectors, E mu = -w0).
    const Vec3 e1 = s[idx[1]].w - w0, e2 = s[idx[2]].w - w0, e3 = s[idx[3]].w - w0;
    const double det = dot(e1, cross(e2, e3));
    if (!(det * det > kFlat * dot(e1, e1) * dot(e2, e2) * dot(e3, e3))) return false;
    const Vec3 r = -1.0 * w0;
    const double mu1 = dot(r, cross(e2, e3)) / det, mu2 = dot(e1, cross(r, e3)) / det,
                 mu3 = dot(e1, cross(e2, r)) / det;
    lambda = {1 - mu1 - mu2 - mu3, mu1, mu2, mu3};
  }
  for (int j = 0; j < m; ++j) {
    if (!(lambda[j] > 0)) return false;
  }
  out = {};
  for (int j = 0; j < m; ++j) {
    out.weight[idx[j]] = lambda[j];
    out.v = out.v + lambda[j] * s[idx[j]].w;
  }
  out.members = mask;
  return true;
}

// The closest point of the simplex (n vertices, the last one new) to the origin, over the faces
// holding the new vertex, in order of size so ties go to the smaller face. GJK's own argument
// (the new vertex passed the old closest point along -v, so the new closest point's face holds
// it) lets the others go: 8 faces of a tetrahedron instead of 15. The vertex alone always
// qualifies, so there is an answer.
SimplexPoint closest_on_simplex(const std::array<Vertex, 4>& s, int n) {
  static constexpr std::array<unsigned, 15> kBySize = {1,  2,  4, 8,  3,  5,  6, 9,
                                                       10, 12, 7, 11, 13, 14, 15};
  const unsigned newest = 1u << (n - 1);
  SimplexPoint best, candidate;
  double best_vv = kInf;
  for (unsigned mask : kBySize) {
    if ((mask >> n) || !(mask & newest)) continue;
    if (project_on_face(s, mask, candidate)) {
      const double vv = dot(candidate.v, candidate.v);
      if (vv < best_vv) best = candidate, best_vv = vv;
    }
  }
  return best;
}

// The triangle's support: its best corner along n.
Vec3 triangle_support(const Triangle& t, Vec3 n) {
  const double d0 = dot(n, t.p0), d1 = dot(n, t.p1), d2 = dot(n, t.p2);
  if (d0 >= d1 && d0 >= d2) return t.p0;
  return d1 >= d2 ? t.p1 : t.p2;
}

double triangle_min(const Triangle& t, Vec3 n) {
  return std::min(dot(n, t.p0), std::min(dot(n, t.p1), dot(n, t.p2)));
}

// The limits at which the loop stops early, besides the tolerance.
struct StopAt {
  double tolerance;
  double above;    // lower > above decides
  double at_most;  // upper <= at_most decides
  int max_iterations;
};

bool decided(const DistanceBounds& b, const StopAt& stop) {
  return b.upper - b.lower <= stop.tolerance || b.lower > stop.above || b.upper <= stop.at_most;
}

// The stopping limits of a threshold question; no threshold (-infinity) stops on neither.
StopAt stop_at(const DistanceOptions& options) {
  const bool asked = options.threshold > -kInf;
  return {options.tolerance, asked ? options.threshold : kInf, options.threshold,
          options.max_iterations};
}

DistanceBounds gjk(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                   const StopAt& stop) {
  DistanceBounds out;
  const double margin = separation_margin(t, p, from, to);
  // A first direction: from the triangle's centroid to the primitive's middle on its axis.
  Vec3 v = from + Vec3{0, 0, (p.z0 + p.z1) / 2} - (1.0 / 3) * (t.p0 + t.p1 + t.p2);
  if (!(dot(v, v) > 0)) v = {1, 0, 0};
  std::array<Vertex, 4> simplex;
  int n = 0;
  for (out.iterations = 0; out.iterations < stop.max_iterations; ++out.iterations) {
    // The point of D furthest along -v, and the dual bound of -v (v points from T to C, so -v
    // is a candidate separating direction from C toward T).
    const Vec3 nv = -1.0 * v;
    const Vec3 on_c = support_point(p, from, to, nv), on_t = triangle_support(t, v);
    const Vertex w{on_c - on_t, on_c, on_t};
    out.lower = std::max(out.lower, separation_gap_as_rounded(t, p, from, to, nv) - margin);
    if (decided(out, stop)) {
      out.converged = true;
      break;
    }
    const double vv = dot(v, v);
    bool repeated = false;
    for (int i = 0; i < n; ++i) {
      const Vec3 d = simplex[i].w - w.w;
      repeated = repeated || dot(d, d) == 0;
    }
    if (n > 0 && (repeated || vv - dot(v, w.w) <= kNoProgress * vv)) break;
    simplex[n++] = w;
    const SimplexPoint closest = closest_on_simplex(simplex, n);
    // Keep the face holding the closest point, weights renormalized (they sum to 1 up to
    // rounding), and its witness pair.
    std::array<Vertex, 4> kept;
    std::array<double, 4> weight{};
    int m = 0;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      if (closest.members & (1u << i)) {
        kept[m] = simplex[i], weight[m] = closest.weight[i], sum += weight[m], ++m;
      }
    }
    simplex = kept;
    n = m;
    Vec3 c, q;
    for (int i = 0; i < n; ++i) {
      c = c + (weight[i] / sum) * simplex[i].c;
      q = q + (weight[i] / sum) * simplex[i].t;
    }
    const double witness = norm(c - q) + margin;
    if (witness < out.upper) out.upper = witness, out.on_solid = c, out.on_triangle = q;
    v = closest.v;
    if (n == 4 || !(dot(v, v) > 0)) {
      // The origin lies in the simplex (up to rounding): they meet.
      out.lower = 0;
      out.converged = true;
      break;
    }
    if (decided(out, stop)) {
      out.converged = true;
      break;
    }
  }
  return out;
}

// GJK on a long sweep can stall on rounding with its bounds far apart: on a move of metres past a
// gap of microns its directions come from points metres apart, and the sweep's extent along a
// direction's error swamps the gap. The sweep is the union of its halves' sweeps, so a run that
// ended with its bounds apart, by more than kSplitGap rounding margins (which no run can beat)
// and by less than 1 / kSplitLength of the sweep's length, is retried on the halves, each of
// which resolves closer; at most kSplitRuns runs in all (a stall needs a gap under about 1e-9 of
// the sweep's length, so few halves still stall). The midpoint is rounded: the halves' polyline
// is within `shift` of the segment, so their bounds widen by it.
constexpr int kSplitRuns = 64;
constexpr double kSplitGap = 64, kSplitLength = 1e4;

DistanceBounds gjk_split(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                         const StopAt& stop, int& runs) {
  const DistanceBounds whole = gjk(t, p, from, to, stop);
  --runs;
  const double gap = whole.upper - whole.lower;
  if (whole.converged || runs < 2 || !(gap > kSplitGap * separation_margin(t, p, from, to)) ||
      !(kSplitLength * gap < norm(to - from))) {
    return whole;
  }
  const Vec3 mid = 0.5 * (from + to);
  const double shift = 0x1p-50 * (magnitude(from) + magnitude(to));
  StopAt half = stop;
  half.above += shift;
  half.at_most -= shift;
  half.tolerance = std::max(0.0, stop.tolerance - 2 * shift);
  const DistanceBounds a = gjk_split(t, p, from, mid, half, runs);
  half.above = std::min(half.above, a.upper);  // the second half matters only if nearer
  DistanceBounds b;
  b.lower = kInf;
  if (!(a.upper <= half.at_most)) b = gjk_split(t, p, mid, to, half, runs);
  DistanceBounds out = whole;
  out.iterations = whole.iterations + a.iterations + b.iterations;
  out.lower = std::max(whole.lower, std::min(a.lower, b.lower) - shift);
  for (const DistanceBounds* h : std::array<const DistanceBounds*, 2>{&a, &b}) {
    if (h->upper + shift < out.upper) {
      out.upper = h->upper + shift, out.on_triangle = h->on_triangle, out.on_solid = h->on_solid;
    }
  }
  out.converged = decided(out, stop);
  return out;
}

}  // namespace

double separation_margin(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to) {
  const double m = std::max(std::max(magnitude(t.p0), magnitude(t.p1)),
                            std::max(magnitude(t.p2), std::max(magnitude(from), magnitude(to))));
  const double l = std::max(std::fabs(p.z0), std::fabs(p.z1)) + std::max(p.r0, p.r1) + p.rounding;
  return 0x1p-44 * (m + l);
}

double separation_gap_as_rounded(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                                 Vec3 n) {
  return (triangle_min(t, n) - support_value(p, from, to, n)) / norm(n);
}

double separation_lower_bound(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                              Vec3 n) {
  return separation_gap_as_rounded(t, p, from, to, n) - separation_margin(t, p, from, to);
}

DistanceBounds triangle_sweep_distance(const Triangle& t, const RevolvedPrimitive& p, Vec3 from,
                                       Vec3 to, const DistanceOptions& options) {
  int runs = kSplitRuns;
  return gjk_split(t, p, from, to, stop_at(options), runs);
}

DistanceBounds triangle_sweep_distance(const Triangle& t, const RevolvedSolid& s, Vec3 from,
                                       Vec3 to, const DistanceOptions& options) {
  DistanceBounds best;
  best.lower = kInf;
  best.converged = true;
  double least_upper = kInf;
  for (const RevolvedPrimitive& p : s.parts) {
    // A part whose lower bound passes the best upper bound so far cannot be the nearest: it may
    // stop there (its lower bound is still a valid lower bound for the minimum's purposes).
    StopAt stop = stop_at(options);
    stop.above = std::min(stop.above, least_upper);
    int runs = kSplitRuns;
    const DistanceBounds b = gjk_split(t, p, from, to, stop, runs);
    best.iterations += b.iterations;
    best.converged = best.converged && b.converged;
    best.lower = std::min(best.lower, b.lower);
    if (b.upper < least_upper) {
      least_upper = b.upper;
      best.upper = b.upper, best.on_triangle = b.on_triangle, best.on_solid = b.on_solid;
    }
    if (best.upper <= options.threshold) break;
  }
  return best;
}

bool may_touch(const Triangle& t, const RevolvedSolid& s, Vec3 from, Vec3 to, double delta,
               double tolerance) {
  DistanceOptions options;
  options.tolerance = tolerance;
  options.threshold = delta;
  return triangle_sweep_distance(t, s, from, to, options).lower <= delta;
}

}  // namespace kdop
