// Exact orientation predicates: a double evaluation with Shewchuk's forward error bounds
// ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997,
// sections 2 and 4), and an exact fallback in expansion arithmetic: a value is held as a sum
// of non-overlapping doubles ordered by increasing magnitude, and its sign is the sign of the
// largest (last) component.
//
// Shewchuk's bounds assume that no product underflows or overflows. A product that underflows
// loses up to 2^-1075, and in 3D a loss in a 2x2 minor's product is then multiplied by the z
// difference beside it: at most 2^-1073 S in all, S = |adz| + |bdz| + |cdz| + 1. So the filter
// decides only where the permanent is at least 2^-900 S (2^-900 in 2D), which puts that loss
// below 2^-173 of the permanent, and its bound is widened by a factor 1 + 2^-50 to cover it:
// no subnormal arithmetic on the fast path (a subnormal operand costs a microcode assist).
// Overflow makes the bound infinite or the determinant NaN, and then no comparison decides.
// The expansions are exact when every coordinate is 0 or has a magnitude
// within [2^-300, 2^301): all are then multiples of 2^-352, so every piece of a product of up
// to three differences (Dekker's halves included) is a multiple of 2^-1056, representable even
// where it is subnormal, and below 2^910. Mesh coordinates stay far inside (the readers refuse
// magnitudes above 1e30), but world coordinates near the origin can be arbitrarily small:
// outside that range the exact stage evaluates the determinant in GMP rationals, exact for any
// finite double.
#include "geometry/predicates.hpp"

#include <gmp.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace kdop {
namespace {

constexpr double kEpsilon = 0x1p-53;       // half an ulp of 1.0
constexpr double kSplitter = 134217729.0;  // 2^27 + 1, splits a double into two halves
// Shewchuk's bounds, widened by 1 + 2^-50 for underflow (see the top).
constexpr double kOrient2dBound = (3.0 + 16.0 * kEpsilon) * kEpsilon * (1 + 0x1p-50);
constexpr double kOrient3dBound = (7.0 + 56.0 * kEpsilon) * kEpsilon * (1 + 0x1p-50);

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

// True when the expansions are exact on these coordinates (see the top of the file).
// By the exponent field, without branches: 0, or a magnitude in [2^-300, 2^301).
template <std::size_t N>
bool expansion_safe(const std::array<double, N>& coordinates) {
  std::uint64_t outside = 0;
  for (const double c : coordinates) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(c) << 1;  // the sign dropped
    const std::uint64_t exponent = bits >> 53;
    outside |= static_cast<std::uint64_t>(bits != 0) & ((exponent - (1023 - 300)) > 600);
  }
  return outside == 0;
}

// A GMP rational, freed on scope exit.
struct Rational {
  mpq_t q;
  Rational() { mpq_init(q); }
  explicit Rational(double v) {
    mpq_init(q);
    mpq_set_d(q, v);  // exact: a finite double is a dyadic rational
  }
  Rational(const Rational&) = delete;
  Rational& operator=(const Rational&) = delete;
  ~Rational() { mpq_clear(q); }
};

// out = (a - c)(b - d) - (e - g)(f - h), the 2x2 minor of four differences.
void minor2(Rational& out, const Rational& a, const Rational& c, const Rational& b,
            const Rational& d, const Rational& e, const Rational& g, const Rational& f,
            const Rational& h) {
  Rational x, y, z;
  mpq_sub(x.q, a.q, c.q);
  mpq_sub(y.q, b.q, d.q);
  mpq_mul(z.q, x.q, y.q);
  mpq_sub(x.q, e.q, g.q);
  mpq_sub(y.q, f.q, h.q);
  mpq_mul(x.q, x.q, y.q);
  mpq_sub(out.q, z.q, x.q);
}

// Coordinates that are no number have no orientation: 0, rather than GMP's trap on them (a
// damaged or crafted hierarchy file can carry them; the mesh readers reject them).
template <std::size_t n>
bool all_finite(const std::array<double, n>& coordinates) {
  bool finite = true;
  for (const double c : coordinates) finite &= std::isfinite(c);
  return finite;
}

int orient2d_rational(double ax, double ay, double bx, double by, double cx, double cy) {
  if (!all_finite(std::array<double, 6>{ax, ay, bx, by, cx, cy})) return 0;
  const Rational qax(ax), qay(ay), qbx(bx), qby(by), qcx(cx), qcy(cy);
  Rational det;
  minor2(det, qax, qcx, qby, qcy, qay, qcy, qbx, qcx);
  return mpq_sgn(det.q);
}

int orient3d_rational(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  if (!all_finite(
          std::array<double, 12>{a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z})) {
    return 0;
  }
  const Rational ax(a.x), ay(a.y), az(a.z), bx(b.x), by(b.y), bz(b.z);
  const Rational cx(c.x), cy(c.y), cz(c.z), dx(d.x), dy(d.y), dz(d.z);
  // det = adz (bdx cdy - cdx bdy) + bdz (cdx ady - adx cdy) + cdz (adx bdy - bdx ady)
  Rational minor, term, diff, det;
  minor2(minor, bx, dx, cy, dy, cx, dx, by, dy);
  mpq_sub(diff.q, az.q, dz.q);
  mpq_mul(det.q, diff.q, minor.q);
  minor2(minor, cx, dx, ay, dy, ax, dx, cy, dy);
  mpq_sub(diff.q, bz.q, dz.q);
  mpq_mul(term.q, diff.q, minor.q);
  mpq_add(det.q, det.q, term.q);
  minor2(minor, ax, dx, by, dy, bx, dx, ay, dy);
  mpq_sub(diff.q, cz.q, dz.q);
  mpq_mul(term.q, diff.q, minor.q);
  mpq_add(det.q, det.q, term.q);
  return mpq_sgn(det.q);
}

}  // namespace

int orient2d_exact(double ax, double ay, double bx, double by, double cx, double cy) {
  if (!expansion_safe(std::array<double, 6>{ax, ay, bx, by, cx, cy}))
    return orient2d_rational(ax, ay, bx, by, cx, cy);
  const Expansion<2> acx = difference(ax, cx), bcy = difference(by, cy);
  const Expansion<2> acy = difference(ay, cy), bcx = difference(bx, cx);
  const Expansion<16> det = sum<16>(product(acx, bcy), negate(product(acy, bcx)));
  return det.sign();
}

int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
  const double left = (ax - cx) * (by - cy);
  const double right = (ay - cy) * (bx - cx);
  const double det = left - right;
  const double permanent = std::fabs(left) + std::fabs(right);
  const double bound = kOrient2dBound * permanent;
  const bool normal = permanent >= 0x1p-900;  // see the top
  if (normal && det > bound) return 1;
  if (normal && -det > bound) return -1;
  return orient2d_exact(ax, ay, bx, by, cx, cy);
}

int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  if (!expansion_safe(
          std::array<double, 12>{a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z})) {
    return orient3d_rational(a, b, c, d);
  }
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
  const double s = (std::fabs(adz) + std::fabs(bdz)) + (std::fabs(cdz) + 1);
  const bool normal = permanent >= 0x1p-900 * s;  // see the top
  if (normal && det > bound) return 1;
  if (normal && -det > bound) return -1;
  return orient3d_exact(a, b, c, d);
}

}  // namespace kdop
