// orient3d / orient2d (filtered and exact paths) against the GMP rational oracle on random,
// exactly degenerate, one-ulp-nudged, wide-range and Shewchuk-grid inputs. Every mismatch is
// reported with hex-float inputs so it can be replayed exactly.
#include "geometry/predicates.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "tests/geometry/rational_oracle.hpp"

namespace kdop {
namespace {

using test::orient2d_rational;
using test::orient3d_rational;

std::string hex(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string hex(const Vec3& p) {
  char buf[120];
  std::snprintf(buf, sizeof buf, "{%a, %a, %a}", p.x, p.y, p.z);
  return buf;
}

// Counts disagreements with the oracle and reports only the first few, so a broken predicate
// does not flood the log with 100k failures.
class Checker {
 public:
  ~Checker() { EXPECT_EQ(mismatches_, 0) << "of " << checked_ << " inputs"; }

  // Returns the oracle's sign.
  int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const int want = orient3d_rational(a, b, c, d);
    const int fast = kdop::orient3d(a, b, c, d), exact = orient3d_exact(a, b, c, d);
    ++checked_;
    if (fast != want || exact != want) {
      if (++mismatches_ <= kMaxReports) {
        ADD_FAILURE() << "orient3d(" << hex(a) << ", " << hex(b) << ", " << hex(c) << ", " << hex(d)
                      << "): oracle " << want << ", orient3d " << fast << ", orient3d_exact "
                      << exact;
      }
    }
    return want;
  }

  int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
    const int want = orient2d_rational(ax, ay, bx, by, cx, cy);
    const int fast = kdop::orient2d(ax, ay, bx, by, cx, cy);
    const int exact = orient2d_exact(ax, ay, bx, by, cx, cy);
    ++checked_;
    if (fast != want || exact != want) {
      if (++mismatches_ <= kMaxReports) {
        ADD_FAILURE() << "orient2d(" << hex(ax) << ", " << hex(ay) << ", " << hex(bx) << ", "
                      << hex(by) << ", " << hex(cx) << ", " << hex(cy) << "): oracle " << want
                      << ", orient2d " << fast << ", orient2d_exact " << exact;
      }
    }
    return want;
  }

  long checked() const { return checked_; }

 private:
  static constexpr int kMaxReports = 10;
  long checked_ = 0;
  long mismatches_ = 0;
};

double up(double v) {
  return std::nextafter(v, INFINITY);
}
double down(double v) {
  return std::nextafter(v, -INFINITY);
}

// The six one-ulp nudges of a point (each coordinate up or down).
std::array<Vec3, 6> nudges(const Vec3& p) {
  return {Vec3{up(p.x), p.y, p.z},   Vec3{down(p.x), p.y, p.z}, Vec3{p.x, up(p.y), p.z},
          Vec3{p.x, down(p.y), p.z}, Vec3{p.x, p.y, up(p.z)},   Vec3{p.x, p.y, down(p.z)}};
}

// Checks all four argument roles of an exactly coplanar quadruple (expected 0) and the 6 nudges
// of each point (compared with the oracle).
void check_coplanar(Checker& ck, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  EXPECT_EQ(ck.orient3d(a, b, c, d), 0) << "construction not coplanar: " << hex(d);
  EXPECT_EQ(ck.orient3d(d, a, b, c), 0);
  for (const Vec3& n : nudges(d)) {
    ck.orient3d(a, b, c, n);
    ck.orient3d(n, a, b, c);
  }
  for (const Vec3& n : nudges(a)) ck.orient3d(n, b, c, d);
}

void check_collinear(Checker& ck, double ax, double ay, double bx, double by, double cx,
                     double cy) {
  EXPECT_EQ(ck.orient2d(ax, ay, bx, by, cx, cy), 0) << "construction not collinear";
  EXPECT_EQ(ck.orient2d(cx, cy, ax, ay, bx, by), 0);
  for (int s = 0; s < 2; ++s) {
    const double dir = s ? INFINITY : -INFINITY;
    ck.orient2d(ax, ay, bx, by, std::nextafter(cx, dir), cy);
    ck.orient2d(ax, ay, bx, by, cx, std::nextafter(cy, dir));
    ck.orient2d(std::nextafter(ax, dir), ay, bx, by, cx, cy);
    ck.orient2d(ax, std::nextafter(ay, dir), bx, by, cx, cy);
  }
}

TEST(Predicates, HandComputedOrient2d) {
  Checker ck;
  EXPECT_EQ(ck.orient2d(0, 0, 1, 0, 0, 1), 1);   // counter-clockwise
  EXPECT_EQ(ck.orient2d(0, 0, 0, 1, 1, 0), -1);  // clockwise
  EXPECT_EQ(ck.orient2d(0, 0, 1, 1, 2, 2), 0);
  EXPECT_EQ(ck.orient2d(0, 0, 1, 1, 2, 2 + 0x1p-51), 1);  // det = 2^-51
  EXPECT_EQ(ck.orient2d(0, 0, 1, 1, 2, 2 - 0x1p-51), -1);
  // Kettner et al.'s classroom example: (0.5, 0.5) lies exactly on the line through (12, 12)
  // and (24, 24); one ulp to the right of it is clockwise (det = -12 * 2^-53).
  EXPECT_EQ(ck.orient2d(0.5, 0.5, 12, 12, 24, 24), 0);
  EXPECT_EQ(ck.orient2d(0.5 + 0x1p-53, 0.5, 12, 12, 24, 24), -1);
  EXPECT_EQ(ck.orient2d(0.5, 0.5 + 0x1p-53, 12, 12, 24, 24), 1);
  // Huge and tiny collinear-but-one-ulp points: det = +2^549 and -2^-652.
  EXPECT_EQ(ck.orient2d(0, 0, 0x1p300, 0x1p300, 0x1p301, 0x1.0000000000001p301), 1);
  EXPECT_EQ(ck.orient2d(0, 0, 0x1p-300, 0x1p-300, 0x1p-299, 0x1.fffffffffffffp-300), -1);
}

TEST(Predicates, HandComputedOrient3d) {
  Checker ck;
  const Vec3 o{0, 0, 0}, ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
  EXPECT_EQ(ck.orient3d(ex, ey, ez, o), 1);  // det(I) = 1
  EXPECT_EQ(ck.orient3d(ey, ex, ez, o), -1);
  EXPECT_EQ(ck.orient3d(o, ex, ey, ez), -1);  // rows -e3, e1-e3, e2-e3: det = -1
  EXPECT_EQ(ck.orient3d(o, ex, ey, Vec3{5, 7, 0}), 0);
  EXPECT_EQ(ck.orient3d(ex, ey, o, Vec3{0, 0, 0x1p-60}), -1);  // det = -2^-60
  EXPECT_EQ(ck.orient3d(ex, ey, o, Vec3{0, 0, -0x1p-600}), 1);
  // The point (0.5, 0.5, 0.5) on the plane x + y + z = 1.5, and one ulp above / below it.
  const Vec3 a{12, -10.5, 0}, b{-3, 0, 4.5}, c{0.25, 0.25, 1};
  EXPECT_EQ(ck.orient3d(a, b, c, Vec3{0.5, 0.5, 0.5}), 0);
  const int above = ck.orient3d(a, b, c, Vec3{3, 3, 3});
  EXPECT_NE(above, 0);
  EXPECT_EQ(ck.orient3d(a, b, c, Vec3{0.5, 0.5, 0.5 + 0x1p-53}), above);
  EXPECT_EQ(ck.orient3d(a, b, c, Vec3{0.5, 0.5, 0.5 - 0x1p-54}), -above);
  // Four points on a line are coplanar in any order.
  EXPECT_EQ(ck.orient3d(o, Vec3{1, 2, 3}, Vec3{2, 4, 6}, Vec3{-0.5, -1, -1.5}), 0);
  // Repeated points.
  EXPECT_EQ(ck.orient3d(ex, ex, ey, ez), 0);
}

TEST(Predicates, RandomPointsMatchOracle) {
  std::mt19937_64 rng(0x5eed0001);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Checker ck;
  int signs[3] = {0, 0, 0};
  for (int i = 0; i < 100000; ++i) {
    const Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    const Vec3 c{u(rng), u(rng), u(rng)}, d{u(rng), u(rng), u(rng)};
    const int s = ck.orient3d(a, b, c, d);
    ++signs[s + 1];
    // Swapping two rows negates the determinant.
    EXPECT_EQ(kdop::orient3d(b, a, c, d), -s);
    ck.orient2d(a.x, a.y, b.x, b.y, c.x, c.y);
  }
  EXPECT_GT(signs[0], 40000);
  EXPECT_GT(signs[2], 40000);
}

TEST(Predicates, ExactlyCoplanarSmallIntegers) {
  std::mt19937_64 rng(0x5eed0002);
  std::uniform_int_distribution<int> coord(-8, 8), weight(-4, 4);
  Checker ck;
  for (int i = 0; i < 3000; ++i) {
    auto pt = [&] { return Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))}; };
    const Vec3 a = pt(), b = pt(), c = pt();
    const double s = weight(rng), t = weight(rng);
    const Vec3 d = a + s * (b - a) + t * (c - a);  // small integers: exact
    check_coplanar(ck, a, b, c, d);
    check_collinear(ck, a.x, a.y, b.x, b.y, a.x + s * (b.x - a.x), a.y + s * (b.y - a.y));
  }
}

// Coordinates 0.5 + k * 2^-52 on planes whose equations keep every coordinate a multiple of
// 2^-52 near 0.5, hence exactly representable: coplanar to the last bit.
TEST(Predicates, CoplanarDyadicNearHalf) {
  std::mt19937_64 rng(0x5eed0003);
  std::uniform_int_distribution<int> k(0, 1 << 20);
  const double e = 0x1p-52;
  Checker ck;
  auto v = [&] { return 0.5 + k(rng) * e; };
  for (int i = 0; i < 2000; ++i) {
    Vec3 p[4];
    const int plane = i % 3;
    for (Vec3& q : p) {
      const double x = v(), y = v();
      const double z = plane == 0 ? 1.5 - x - y : plane == 1 ? x - y + 0.5 : 2 * x - y;
      q = {x, y, z};
    }
    check_coplanar(ck, p[0], p[1], p[2], p[3]);
    // Lines y = 1.5 - x and y = 2x - 0.5 in the plane.
    const double x0 = v(), x1 = v(), x2 = v();
    if (plane == 0) {
      check_collinear(ck, x0, 1.5 - x0, x1, 1.5 - x1, x2, 1.5 - x2);
    } else {
      check_collinear(ck, x0, 2 * x0 - 0.5, x1, 2 * x1 - 0.5, x2, 2 * x2 - 0.5);
    }
  }
}

// Random points with magnitudes spread over 1e-100..1e100 (products stay finite and normal).
TEST(Predicates, WideRangeRandomPoints) {
  std::mt19937_64 rng(0x5eed0004);
  std::uniform_real_distribution<double> mant(1.0, 10.0);
  std::uniform_int_distribution<int> expo(-100, 99), sign(0, 1);
  auto r = [&] { return (sign(rng) ? -1 : 1) * mant(rng) * std::pow(10.0, expo(rng)); };
  Checker ck;
  for (int i = 0; i < 20000; ++i) {
    const Vec3 a{r(), r(), r()}, b{r(), r(), r()}, c{r(), r(), r()}, d{r(), r(), r()};
    ck.orient3d(a, b, c, d);
    ck.orient2d(a.x, a.y, b.x, b.y, c.x, c.y);
  }
}

// Exactly coplanar / collinear configurations scaled by powers of two, per axis (a diagonal
// linear map keeps coplanarity), and then nudged by one ulp: the determinant is tiny compared
// with the coordinates. Exponents are limited so that no exact product or its rounding error
// becomes subnormal (the expansion arithmetic assumes none does).
TEST(Predicates, WideRangeScaledDegenerate) {
  std::mt19937_64 rng(0x5eed0005);
  std::uniform_int_distribution<int> coord(-64, 64), weight(-4, 4), expo(-200, 200);
  Checker ck;
  auto has_zero = [](const Vec3& p) { return p.x == 0 || p.y == 0 || p.z == 0; };
  for (int i = 0; i < 2000; ++i) {
    const int ex = expo(rng), ey = expo(rng), ez = i % 2 ? ex : expo(rng);
    auto pt = [&](double x, double y, double z) {
      return Vec3{std::ldexp(x, ex), std::ldexp(y, ey), std::ldexp(z, ez)};
    };
    Vec3 a, b, c, d;
    double s, t;
    do {  // no zero coordinates: their one-ulp nudge would be subnormal
      a = {double(coord(rng)), double(coord(rng)), double(coord(rng))};
      b = {double(coord(rng)), double(coord(rng)), double(coord(rng))};
      c = {double(coord(rng)), double(coord(rng)), double(coord(rng))};
      s = weight(rng), t = weight(rng);
      d = a + s * (b - a) + t * (c - a);
    } while (has_zero(a) || has_zero(b) || has_zero(c) || has_zero(d) ||
             a.x + s * (b.x - a.x) == 0 || a.y + s * (b.y - a.y) == 0);
    check_coplanar(ck, pt(a.x, a.y, a.z), pt(b.x, b.y, b.z), pt(c.x, c.y, c.z), pt(d.x, d.y, d.z));
    const Vec3 sa = pt(a.x, a.y, a.z), sb = pt(b.x, b.y, b.z);
    const Vec3 sd = pt(a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), 0);
    check_collinear(ck, sa.x, sa.y, sb.x, sb.y, sd.x, sd.y);
  }
  // Points on a line through the origin with mixed magnitudes along it: (u, v) * 2^k.
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> small(-20, 20);
  for (int i = 0; i < 2000; ++i) {
    const double ux = mant(rng) * std::ldexp(1.0, expo(rng) / 2);
    const double uy = -mant(rng) * std::ldexp(1.0, expo(rng) / 2);
    const int k1 = small(rng), k2 = small(rng);
    // The origin goes where check_collinear / check_coplanar do not nudge it.
    check_collinear(ck, std::ldexp(ux, k1), std::ldexp(uy, k1), 0, 0, std::ldexp(ux, k2),
                    std::ldexp(uy, k2));
    const Vec3 w{ux, uy, mant(rng) * std::ldexp(1.0, expo(rng) / 2)};
    const Vec3 z{-uy, mant(rng), ux};
    check_coplanar(ck, w, Vec3{0, 0, 0}, std::ldexp(1.0, k1) * w, z);
  }
}

// Every finite double is a coordinate the predicates decide exactly, whatever underflows or
// overflows on the way: configurations scaled by 2^k across the whole exponent range
// (subnormal results included; the oracle takes the scaled doubles as they are), and points
// whose coordinates each take any exponent. Before the rational fallback, the expansions called
// tiny crossing triangles coplanar (a false negative of the exact triangle test near 1e-107) and
// huge ones (7e103) crossing.
TEST(Predicates, ExtremeMagnitudes) {
  std::mt19937_64 rng(0x5eed0009);
  std::uniform_int_distribution<int> coord(-64, 64), weight(-4, 4), scale(-1120, 1000);
  Checker ck;
  for (int i = 0; i < 3000; ++i) {
    const Vec3 a{double(coord(rng)), double(coord(rng)), double(coord(rng))};
    const Vec3 b{double(coord(rng)), double(coord(rng)), double(coord(rng))};
    const Vec3 c{double(coord(rng)), double(coord(rng)), double(coord(rng))};
    const double s = weight(rng), t = weight(rng);
    Vec3 d = a + s * (b - a) + t * (c - a);  // coplanar, or one unit off it
    if (i % 3 == 1) d.z += 1;
    if (i % 3 == 2) d.x -= 1;
    const int k = scale(rng);
    auto sc = [&](const Vec3& p) {
      return Vec3{std::ldexp(p.x, k), std::ldexp(p.y, k), std::ldexp(p.z, k)};
    };
    ck.orient3d(sc(a), sc(b), sc(c), sc(d));
    ck.orient3d(sc(d), sc(a), sc(b), sc(c));
    ck.orient2d(sc(a).x, sc(a).y, sc(b).x, sc(b).y, sc(d).x, sc(d).y);
    for (const Vec3& n : nudges(sc(d))) ck.orient3d(sc(a), sc(b), sc(c), n);
  }
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-1074, 1020), sign(0, 1), family(0, 2);
  std::uniform_int_distribution<int> near_one(-60, 60), tiny(-1074, -900);
  for (int i = 0; i < 20000; ++i) {
    const int f = family(rng);  // any exponent; mostly near 1 with a few tiny; tiny only
    auto r = [&] {
      const int e = f == 0   ? expo(rng)
                    : f == 1 ? (sign(rng) ? near_one(rng) : tiny(rng))
                             : tiny(rng);
      return (sign(rng) ? -1 : 1) * std::ldexp(mant(rng), e);
    };
    const Vec3 a{r(), r(), r()}, b{r(), r(), r()}, c{r(), r(), r()}, d{r(), r(), r()};
    ck.orient3d(a, b, c, d);
    ck.orient2d(a.x, a.y, b.x, b.y, c.x, c.y);
  }
}

// NaN and infinite coordinates (which only a crafted hierarchy file can bring in) give 0 on every
// path, where GMP's conversion used to trap (SIGFPE) on them.
TEST(Predicates, NonFiniteCoordinatesGiveZero) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Vec3 a{0, 0, 0}, b{1, 0, 0}, c{0, 1, 0}, d{0.25, 0.25, 1};
  for (const double bad : {inf, -inf, nan}) {
    for (int i = 0; i < 12; ++i) {
      std::array<Vec3, 4> p{a, b, c, d};
      Vec3& v = p[i / 3];
      (i % 3 == 0 ? v.x : i % 3 == 1 ? v.y : v.z) = bad;
      EXPECT_EQ(orient3d(p[0], p[1], p[2], p[3]), 0) << bad << " at " << i;
      EXPECT_EQ(orient3d_exact(p[0], p[1], p[2], p[3]), 0) << bad << " at " << i;
    }
    for (int i = 0; i < 6; ++i) {
      std::array<double, 6> q{0, 0, 1, 0, 0.25, 1};
      q[i] = bad;
      EXPECT_EQ(orient2d(q[0], q[1], q[2], q[3], q[4], q[5]), 0) << bad << " at " << i;
      EXPECT_EQ(orient2d_exact(q[0], q[1], q[2], q[3], q[4], q[5]), 0) << bad << " at " << i;
    }
  }
}

// Shewchuk / Kettner grids: points (0.5 + i*ulp, 0.5 + j*ulp) near the line y = x through
// (12, 12) and (24, 24), where naive evaluation gets the sign wrong in a fractal pattern.
TEST(Predicates, GridNearLine) {
  const double u = 0x1p-53;  // ulp of 0.5
  Checker ck;
  int zeros = 0;
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 256; ++j) {
      const double x = 0.5 + i * u, y = 0.5 + j * u;
      const int s = ck.orient2d(x, y, 12, 12, 24, 24);
      EXPECT_EQ(s, (j > i) - (j < i));  // above the line y = x is counter-clockwise
      zeros += s == 0;
      ck.orient2d(12, 12, 24, 24, x, y);
      ck.orient2d(x, y, 24.000000000000004, 24.000000000000004, 12, 12);
    }
  }
  EXPECT_EQ(zeros, 256);
}

// The same in 3D: points around (0.5, 0.5, 0.5) on a one-ulp grid against the plane
// x + y + z = 1.5 through it.
TEST(Predicates, GridNearPlane) {
  const double u = 0x1p-53, v = 0x1p-54;  // ulps just above and just below 0.5
  const Vec3 a{12, -10.5, 0}, b{-3, 0, 4.5}, c{0.25, 0.25, 1};
  Checker ck;
  const int above = orient3d_rational(a, b, c, Vec3{1, 1, 1});
  for (int i = -16; i < 16; ++i) {
    for (int j = -16; j < 16; ++j) {
      for (int k = -16; k < 16; ++k) {
        const Vec3 d{0.5 + i * (i >= 0 ? u : v), 0.5 + j * (j >= 0 ? u : v),
                     0.5 + k * (k >= 0 ? u : v)};
        const int s = ck.orient3d(a, b, c, d);
        const double off = (i >= 0 ? 2 : 1) * i + (j >= 0 ? 2 : 1) * j + (k >= 0 ? 2 : 1) * k;
        EXPECT_EQ(s, off > 0 ? above : off < 0 ? -above : 0);  // sign of x + y + z - 1.5
        ck.orient3d(d, a, b, c);
      }
    }
  }
}

}  // namespace
}  // namespace kdop
