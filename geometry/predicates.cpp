// Exact orientation predicates: a double evaluation with Shewchuk's forward error bounds
// ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997,
// sections 2 and 4), and an exact fallback in expansion arithmetic: a value is held as a sum
// of non-overlapping doubles ordered by increasing magnitude, and its sign is the sign of the
// largest (last) component. Assumes no overflow or underflow: coordinate magnitudes between
// about 1e-50 and 1e50, far beyond any mesh.
#include "geometry/predicates.hpp"

#include <array>
#include <cmath>

namespace kdop {
namespace {

constexpr double kEpsilon = 0x1p-53;       // half an ulp of 1.0
constexpr double kSplitter = 134217729.0;  // 2^27 + 1, splits a double into two halves
constexpr double kOrient2dBound = (3.0 + 16.0 * kEpsilon) * kEpsilon;
constexpr double kOrient3dBound = (7.0 + 56.0 * kEpsilon) * kEpsilon;

// x + y == a + b exactly, x = fl(a + b).
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double b_virtual = x - a;
  const double a_virtual = x - b_virtual;
  y = (a - a_virtual) + (b - b_virtual);
}

// Requires |a| >= |b|.
inline void fast_two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  y = b - (x - a);
}

// x + y == a - b exactly.
inline void two_diff(double a, double b, double& x, double& y) {
  x = a - b;
  const double b_virtual = a - x;
  const double a_virtual = x + b_virtual;
  y = (a - a_virtual) + (b_virtual - b);
}

// Veltkamp split: a == hi + lo, each with at most 26 significant bits.
inline void split(double a, double& hi, double& lo) {
  const double c = kSplitter * a;
  const double big = c - a;
  hi = c - big;
  lo = a - hi;
}

// x + y == a * b exactly (Dekker), without relying on a fused multiply-add.
inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  double a_hi, a_lo, b_hi, b_lo;
  split(a, a_hi, a_lo);
  split(b, b_hi, b_lo);
  const double err1 = x - a_hi * b_hi;
  const double err2 = err1 - a_lo * b_hi;
  const double err3 = err2 - a_hi * b_lo;
  y = a_lo * b_lo - err3;
}

// A fixed-capacity expansion. Always holds at least one component (possibly 0.0).
template <int N>
struct Expansion {
  std::array<double, N> v;
  int n = 0;
  int sign() const { return v[n - 1] > 0 ? 1 : (v[n - 1] < 0 ? -1 : 0); }
};

template <int N>
Expansion<N> from_two(double hi, double lo) {
  Expansion<N> e;
  if (lo != 0) e.v[e.n++] = lo;
  e.v[e.n++] = hi;
  return e;
}

// h = e + f; both inputs non-overlapping and increasing in magnitude; zero components dropped.
template <int N, int A, int B>
Expansion<N> sum(const Expansion<A>& e, const Expansion<B>& f) {
  static_assert(N >= A + B);
  Expansion<N> h;
  int i = 0, j = 0;
  // Merge by magnitude, carrying a running approximation q.
  auto take_next = [&]() {
    if (j >= f.n || (i < e.n && std::fabs(e.v[i]) < std::fabs(f.v[j]))) return e.v[i++];
    return f.v[j++];
  };
  double q = take_next();
  while (i < e.n || j < f.n) {
    double q_new, err;
    two_sum(q, take_next(), q_new, err);
    if (err != 0) h.v[h.n++] = err;
    q = q_new;
  }
  if (q != 0 || h.n == 0) h.v[h.n++] = q;
  return h;
}

// h = e * b.
template <int N, int A>
Expansion<N> scale(const Expansion<A>& e, double b) {
  static_assert(N >= 2 * A);
  Expansion<N> h;
  double q, err;
  two_product(e.v[0], b, q, err);
  if (err != 0) h.v[h.n++] = err;
  for (int i = 1; i < e.n; ++i) {
    double p1, p0, s;
    two_product(e.v[i], b, p1, p0);
    two_sum(q, p0, s, err);
    if (err != 0) h.v[h.n++] = err;
    fast_two_sum(p1, s, q, err);
    if (err != 0) h.v[h.n++] = err;
  }
  if (q != 0 || h.n == 0) h.v[h.n++] = q;
  return h;
}

template <int A>
Expansion<A> negate(Expansion<A> e) {
  for (int i = 0; i < e.n; ++i) e.v[i] = -e.v[i];
  return e;
}

template <int N, int A>
Expansion<N> widen(const Expansion<A>& e) {
  static_assert(N >= A);
  Expansion<N> h;
  for (int i = 0; i < e.n; ++i) h.v[i] = e.v[i];
  h.n = e.n;
  return h;
}

// Product of two expansions of at most two components each.
Expansion<8> product(const Expansion<2>& e, const Expansion<2>& f) {
  const Expansion<4> p0 = scale<4>(e, f.v[0]);
  if (f.n == 1) return widen<8>(p0);
  return sum<8>(p0, scale<4>(e, f.v[1]));
}

Expansion<2> difference(double a, double b) {
  double x, y;
  two_diff(a, b, x, y);
  return from_two<2>(x, y);
}

// Product of a 2-component expansion and a 16-component one.
Expansion<64> product(const Expansion<2>& e, const Expansion<16>& f) {
  const Expansion<32> p0 = scale<32>(f, e.v[0]);
  if (e.n == 1) return widen<64>(p0);
  return sum<64>(p0, scale<32>(f, e.v[1]));
}

}  // namespace

int orient2d_exact(double ax, double ay, double bx, double by, double cx, double cy) {
  const Expansion<2> acx = difference(ax, cx), bcy = difference(by, cy);
  const Expansion<2> acy = difference(ay, cy), bcx = difference(bx, cx);
  const Expansion<16> det = sum<16>(product(acx, bcy), negate(product(acy, bcx)));
  return det.sign();
}

int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
  const double left = (ax - cx) * (by - cy);
  const double right = (ay - cy) * (bx - cx);
  const double det = left - right;
  const double bound = kOrient2dBound * (std::fabs(left) + std::fabs(right));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orient2d_exact(ax, ay, bx, by, cx, cy);
}

int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Expansion<2> adx = difference(a.x, d.x), ady = difference(a.y, d.y),
                     adz = difference(a.z, d.z);
  const Expansion<2> bdx = difference(b.x, d.x), bdy = difference(b.y, d.y),
                     bdz = difference(b.z, d.z);
  const Expansion<2> cdx = difference(c.x, d.x), cdy = difference(c.y, d.y),
                     cdz = difference(c.z, d.z);
  // det = adx (bdy cdz - bdz cdy) + bdx (cdy adz - cdz ady) + cdx (ady bdz - adz bdy)
  const Expansion<16> minor_a = sum<16>(product(bdy, cdz), negate(product(bdz, cdy)));
  const Expansion<16> minor_b = sum<16>(product(cdy, adz), negate(product(cdz, ady)));
  const Expansion<16> minor_c = sum<16>(product(ady, bdz), negate(product(adz, bdy)));
  const Expansion<128> ab = sum<128>(product(adx, minor_a), product(bdx, minor_b));
  const Expansion<192> det = sum<192>(ab, product(cdx, minor_c));
  return det.sign();
}

int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double adx = a.x - d.x, ady = a.y - d.y, adz = a.z - d.z;
  const double bdx = b.x - d.x, bdy = b.y - d.y, bdz = b.z - d.z;
  const double cdx = c.x - d.x, cdy = c.y - d.y, cdz = c.z - d.z;
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::fabs(bdxcdy) + std::fabs(cdxbdy)) * std::fabs(adz) +
                           (std::fabs(cdxady) + std::fabs(adxcdy)) * std::fabs(bdz) +
                           (std::fabs(adxbdy) + std::fabs(bdxady)) * std::fabs(cdz);
  const double bound = kOrient3dBound * permanent;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orient3d_exact(a, b, c, d);
}

}  // namespace kdop
