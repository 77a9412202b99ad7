// Exact triangle distance against a threshold (see exact_distance.hpp). Each of the 15
// candidates is the squared distance of a closed feature pair, minimized in closed form:
//
// - point-segment [a, b]: with w = p - a, d = b - a, the parameter w.d / d.d clamped to [0, 1];
//   inside, |w|^2 - (w.d)^2 / d.d;
// - point-face: the squared height (n.(p - a))^2 / n.n when p projects into the face (three
//   orientation signs about n = (b - a) x (c - a), which the height does not change); a corner
//   projecting outside is closest to an edge, which its point-segment candidates cover;
// - segment-segment: the stationary point of |w + s u - t v|^2 when it lies inside the unit
//   square, else the minimum is on the square's boundary, an end point against the other
//   segment (the function is convex), so the four point-segment candidates cover it.
#include "geometry/exact_distance.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kdop {
namespace {

// Every finite double is an integer times a power of two, so after scaling all the inputs by the
// least such power they are integers, and every candidate is a fraction of integer polynomials:
// GMP integers, without the gcd of each rational operation (5x faster than mpq_class here: 35
// against 179 us a pair).
using Z = mpz_class;

struct ZVec {
  Z x, y, z;
};

ZVec operator-(const ZVec& a, const ZVec& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}

Z dot(const ZVec& a, const ZVec& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

ZVec cross(const ZVec& a, const ZVec& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// A squared distance num / den, den > 0.
struct Fraction {
  Z num, den;
};

void keep_least(Fraction& best, Z num, Z den) {
  if (num * best.den < best.num * den) best = {std::move(num), std::move(den)};
}

// The exponent of a nonzero double's least significant mantissa bit (v = m 2^e, m an integer).
int low_exponent(double v) {
  int e = 0;
  std::frexp(v, &e);
  return e - 53;
}

// v * 2^-scale, an integer when scale is at most low_exponent(v).
Z scaled(double v, int scale) {
  if (v == 0) return 0;
  int e = 0;
  const double m = std::frexp(v, &e);
  Z out = static_cast<std::int64_t>(std::ldexp(m, 53));  // exact: 53 bits
  mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), static_cast<mp_bitcnt_t>(e - 53 - scale));
  return out;
}

void point_segment(const ZVec& p, const ZVec& a, const ZVec& b, Fraction& best) {
  const ZVec w = p - a, d = b - a;
  const Z wd = dot(w, d), dd = dot(d, d);
  if (wd <= 0 || dd == 0) return keep_least(best, dot(w, w), 1);
  if (wd >= dd) {
    const ZVec v = p - b;
    return keep_least(best, dot(v, v), 1);
  }
  keep_least(best, dot(w, w) * dd - wd * wd, dd);
}

// The face candidate of corner p against triangle t, when p projects into t (else nothing).
void point_face(const ZVec& p, const ZVec* t, Fraction& best) {
  const ZVec n = cross(t[1] - t[0], t[2] - t[0]);
  Z nn = dot(n, n);
  if (nn == 0) return;  // a segment or a point: its edges are the whole of it
  for (int i = 0; i < 3; ++i) {
    const ZVec& from = t[i];
    if (dot(n, cross(t[(i + 1) % 3] - from, p - from)) < 0) return;
  }
  const Z h = dot(n, p - t[0]);
  keep_least(best, h * h, std::move(nn));
}

void segment_segment(const ZVec& p0, const ZVec& p1, const ZVec& q0, const ZVec& q1,
                     Fraction& best) {
  point_segment(p0, q0, q1, best);
  point_segment(p1, q0, q1, best);
  point_segment(q0, p0, p1, best);
  point_segment(q1, p0, p1, best);
  const ZVec u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const Z a = dot(u, u), b = dot(u, v), c = dot(v, v), d = dot(u, w), e = dot(v, w);
  const Z den = a * c - b * b;  // > 0 unless the segments are parallel or points
  if (den <= 0) return;
  const Z s = b * e - c * d, t = a * e - b * d;  // the parameters times den
  if (s <= 0 || s >= den || t <= 0 || t >= den) return;
  const ZVec r = {den * w.x + s * u.x - t * v.x, den * w.y + s * u.y - t * v.y,
                  den * w.z + s * u.z - t * v.z};
  keep_least(best, dot(r, r), den * den);
}

}  // namespace

ExactDistanceSide exact_distance_side(const Triangle& a, const Triangle& b, double limit) {
  const Vec3 corners[6] = {a.p0, a.p1, a.p2, b.p0, b.p1, b.p2};
  for (const Vec3& p : corners) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
        !std::isfinite(limit)) {
      return {1, std::numeric_limits<double>::infinity()};  // no distance (see the header)
    }
  }
  if (triangles_intersect(a, b)) return {limit > 0 ? -1 : 0, 0.0};
  int scale = limit != 0 ? low_exponent(limit) : std::numeric_limits<int>::max();
  for (const Vec3& p : corners) {
    for (const double v : {p.x, p.y, p.z}) {
      if (v != 0) scale = std::min(scale, low_exponent(v));
    }
  }
  ZVec z[6];
  for (int i = 0; i < 6; ++i) {
    z[i] = {scaled(corners[i].x, scale), scaled(corners[i].y, scale), scaled(corners[i].z, scale)};
  }
  const ZVec* ta = z;
  const ZVec* tb = z + 3;
  Fraction best{dot(ta[0] - tb[0], ta[0] - tb[0]), 1};
  for (int i = 0; i < 3; ++i) {
    point_face(ta[i], tb, best);
    point_face(tb[i], ta, best);
    for (int j = 0; j < 3; ++j) {
      segment_segment(ta[i], ta[(i + 1) % 3], tb[j], tb[(j + 1) % 3], best);
    }
  }
  const Z l = scaled(limit, scale);
  const int side = cmp(best.num, l * l * best.den);
  const int sign = side < 0 ? -1 : side > 0 ? 1 : 0;
  // The distance in the caller's units, sqrt(num / den) 2^scale, taken from num / den brought
  // near 1 by an even power of two so neither the conversion nor the root under- or overflows.
  // mpq's conversion truncates and the square root rounds, a few ulps; then made consistent with
  // the exact side, and kept positive for disjoint triangles whose distance underflows.
  const long half = (static_cast<long>(mpz_sizeinbase(best.num.get_mpz_t(), 2)) -
                     static_cast<long>(mpz_sizeinbase(best.den.get_mpz_t(), 2))) /
                    2;
  mpq_class squared(best.num, best.den);
  squared.canonicalize();
  if (half >= 0) {
    mpq_div_2exp(squared.get_mpq_t(), squared.get_mpq_t(), static_cast<mp_bitcnt_t>(2 * half));
  } else {
    mpq_mul_2exp(squared.get_mpq_t(), squared.get_mpq_t(), static_cast<mp_bitcnt_t>(-2 * half));
  }
  double distance = std::ldexp(std::sqrt(squared.get_d()), static_cast<int>(half) + scale);
  if (sign == 0) {
    distance = limit;
  } else if (sign < 0) {
    distance = std::min(distance, limit);
  } else if (!(distance > limit)) {
    distance = std::nextafter(limit, std::numeric_limits<double>::infinity());
  }
  if (distance == 0) distance = std::numeric_limits<double>::denorm_min();
  return {sign, distance};
}

}  // namespace kdop
