// Cutter bodies and their erosion against an independent 2-D model: a body of revolution is its
// meridian cross-section (symmetric about the axis) swept round, so the distance of a point from
// it, and the depth of a point inside it, are 2-D distances to a convex polygon (plus rounding).
#include "geometry/cutter_body.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "geometry/shapes.hpp"
#include "tests/support/meridian.hpp"

namespace kdop {
namespace {

using P2 = test::MeridianPoint;

// The cross-section of the body's core (before rounding), counter-clockwise in (r, z): a large
// square clipped by each of the body's half-planes (z >= z_lo, z <= z_hi, and |r| <= r_max and
// |r| <= a + b z as two half-planes each), independently of to_solid's breaks.
std::vector<P2> section(const CutterBody& b) {
  std::vector<P2> poly{{-100, -100}, {100, -100}, {100, 100}, {-100, 100}};
  // Keeps the points with u r + v z <= w.
  auto clip = [&](double u, double v, double w) {
    std::vector<P2> out;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const P2 p = poly[i], q = poly[(i + 1) % poly.size()];
      const double fp = u * p.r + v * p.z - w, fq = u * q.r + v * q.z - w;
      if (fp <= 0) out.push_back(p);
      if ((fp < 0) != (fq < 0) && fp != fq) {
        const double t = fp / (fp - fq);
        out.push_back({p.r + t * (q.r - p.r), p.z + t * (q.z - p.z)});
      }
    }
    poly = out;
  };
  clip(0, -1, -b.z_lo);
  clip(0, 1, b.z_hi);
  clip(1, 0, b.r_max);
  clip(-1, 0, b.r_max);
  for (const CutterCone& c : b.cones) {
    clip(1, -c.b, c.a);   // r <= a + b z
    clip(-1, -c.b, c.a);  // -r <= a + b z
  }
  return poly;
}

// How deep (r, z) lies inside the body (negative: outside): the rounded core's depth, and at
// most the distance below the cap (the depth in an intersection is the least of the depths).
double depth(const CutterBody& b, P2 p) {
  return std::min(b.rounding - test::signed_distance(section(b), p), b.z_cap - p.z);
}

// Whether (r, z) lies in one of the solid's primitives: within `rounding` of its meridian
// trapezoid (|r| <= the radius between z0 and z1), by 2-D distances to its edges.
bool inside(const RevolvedSolid& solid, P2 p) {
  auto segment_distance = [](P2 a, P2 b, P2 q) {
    const double dr = b.r - a.r, dz = b.z - a.z, len2 = dr * dr + dz * dz;
    double t = len2 > 0 ? ((q.r - a.r) * dr + (q.z - a.z) * dz) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(q.r - (a.r + t * dr), q.z - (a.z + t * dz));
  };
  const P2 q{std::fabs(p.r), p.z};
  for (const RevolvedPrimitive& x : solid.parts) {
    const bool within = x.z0 < x.z1 && q.z >= x.z0 && q.z <= x.z1 &&
                        q.r <= x.r0 + (x.r1 - x.r0) * (q.z - x.z0) / (x.z1 - x.z0);
    const P2 c[4] = {{0, x.z0}, {x.r0, x.z0}, {x.r1, x.z1}, {0, x.z1}};
    double d = within ? 0 : 1e300;
    for (int k = 0; k < 3; ++k) d = std::min(d, segment_distance(c[k], c[k + 1], q));
    if (d <= x.rounding + 1e-12) return true;
  }
  return false;
}

std::vector<ToolParameters> tools() {
  std::vector<ToolParameters> t(8);
  for (ToolParameters& p : t) {
    p.diameter = 10;
    p.cutting_length = 20;
    p.length = 20;
  }
  t[0].shape = CutterShape::kFlat;
  t[1].shape = CutterShape::kBall;
  t[2].shape = CutterShape::kBullNose;
  t[2].corner_radius = 2;
  t[3].shape = CutterShape::kCone;
  t[3].included_angle = 90;
  t[4].shape = CutterShape::kCone;
  t[4].included_angle = 30;
  t[4].tip_diameter = 1;
  t[5].shape = CutterShape::kCone;  // a cone reaching past the cutting length
  t[5].included_angle = 10;
  // Composite outlines: a chamfered flat end with a taper, and a pointed spot drill on a taper.
  t[6].shape = CutterShape::kComposite;
  t[6].profile = {{0, 3}, {1, 4}, {8, 4.6}, {20, 5}};
  t[7].shape = CutterShape::kComposite;
  t[7].profile = {{0, 0}, {2, 2}, {6, 4.5}, {12, 5}, {20, 5}};
  return t;
}

TEST(CutterBody, ContainsTheCutterAndEqualsItBelow) {
  std::uint64_t seed = 3;
  for (const ToolParameters& tool : tools()) {
    const RevolvedSolid body = to_solid(cutter_body(tool));
    const RevolvedSolid cutter = make_cutter(tool);
    for (int i = 0; i < 500; ++i) {
      const Vec3 n{2 * next_uniform(seed) - 1, 2 * next_uniform(seed) - 1,
                   2 * next_uniform(seed) - 1};
      const double hb = support_value(body, n), hc = support_value(cutter, n);
      EXPECT_GE(hb, hc - 1e-12);
      // Capped at the cutting length (ball and bull nose), the body is the cutter; the others
      // are the cutter below their top plane.
      if (n.z <= 0 || cutter_body(tool).capped()) {
        EXPECT_NEAR(hb, hc, 1e-12) << "shape " << int(tool.shape);
      }
    }
  }
}

// The support function of the 2-D model (its vertices swept round, plus rounding).
double model_support(const std::vector<P2>& section, double rounding, Vec3 n) {
  double best = -1e300;
  for (const P2& p : section) {  // symmetric about the axis: |r| for either side's corners
    best = std::max(best, std::fabs(p.r) * std::hypot(n.x, n.y) + p.z * n.z);
  }
  return best + rounding * norm(n);
}

double model_support(const CutterBody& b, Vec3 n) {
  return model_support(section(b), b.rounding, n);
}

// to_solid's pieces against the body's lines: contiguous from where the radius starts (0 there
// unless it starts at z_lo) up to z_hi, and at sampled heights the radius of the pieces is
// max(0, radius_at(z)). (Support values cannot see a missing middle piece: a union's support
// function is its hull's.)
void expect_pieces_follow_radius(const CutterBody& b, const char* what) {
  const RevolvedSolid solid = to_solid(b);
  ASSERT_FALSE(solid.parts.empty()) << what;
  const double z0 = solid.parts.front().z0;
  EXPECT_GE(z0, b.z_lo) << what;
  if (z0 > b.z_lo) {
    EXPECT_NEAR(b.radius_at(z0), 0, 1e-12) << what;
  }
  for (std::size_t i = 0; i + 1 < solid.parts.size(); ++i) {
    EXPECT_EQ(solid.parts[i].z1, solid.parts[i + 1].z0) << what << " piece " << i;
  }
  EXPECT_EQ(solid.parts.back().z1, b.z_hi) << what;
  for (int i = 0; i <= 1000; ++i) {
    const double z = z0 + (b.z_hi - z0) * i / 1000.0;
    double r = -1;
    for (const RevolvedPrimitive& p : solid.parts) {
      if (p.z0 <= z && z <= p.z1) {
        r = std::max(r, p.z1 > p.z0 ? p.r0 + (p.r1 - p.r0) * (z - p.z0) / (p.z1 - p.z0) : p.r0);
      }
    }
    const double expected = std::max(0.0, b.radius_at(z));
    EXPECT_NEAR(r, expected, 1e-12 * (1 + expected)) << what << " z " << z;
  }
}

TEST(CutterBody, ErosionKeepsExactlyThePointsDeepEnough) {
  std::uint64_t seed = 11;
  for (const ToolParameters& tool : tools()) {
    const CutterBody body = cutter_body(tool);
    for (const double s : {0.0, 0.3, 1.0, 2.5, 4.9, 6.0}) {
      const std::optional<CutterBody> e = eroded(body, s);
      int kept = 0;
      for (int i = 0; i < 4000; ++i) {
        const P2 p{-6 + 12 * next_uniform(seed), -1 + 23 * next_uniform(seed)};
        const double d = depth(body, p);
        const bool in_eroded = e && depth(*e, p) >= 0;
        if (d >= s + 1e-9) {
          EXPECT_TRUE(in_eroded) << "shape " << int(tool.shape) << " s " << s;
        } else if (d <= s - 1e-9) {
          EXPECT_FALSE(in_eroded) << "shape " << int(tool.shape) << " s " << s;
        }
        kept += in_eroded;
      }
      if (s <= 0.3) {
        EXPECT_GT(kept, 0) << "shape " << int(tool.shape) << " s " << s;
      }
      if (!e) continue;
      const RevolvedSolid solid = to_solid(*e);
      if (e->capped()) {
        // The primitives hold every point of the capped body, and no point outside it while
        // the cap is above the rounded disc (see cutter_body.hpp).
        const bool exact = e->top() >= e->z_lo + e->rounding;
        for (int i = 0; i < 4000; ++i) {
          const P2 p{-6 + 12 * next_uniform(seed), -1 + 23 * next_uniform(seed)};
          const double d = depth(*e, p);
          if (d >= 1e-9) {
            EXPECT_TRUE(inside(solid, p)) << "shape " << int(tool.shape) << " s " << s;
          } else if (d <= -1e-9 && exact) {
            EXPECT_FALSE(inside(solid, p))
                << "shape " << int(tool.shape) << " s " << s << " at " << p.r << ", " << p.z;
          }
        }
        continue;
      }
      // The primitives handed to the distance queries are that body.
      expect_pieces_follow_radius(*e, "eroded");
      for (int i = 0; i < 200; ++i) {
        const Vec3 n{2 * next_uniform(seed) - 1, 2 * next_uniform(seed) - 1,
                     2 * next_uniform(seed) - 1};
        EXPECT_NEAR(support_value(solid, n), model_support(*e, n), 1e-12)
            << "shape " << int(tool.shape) << " s " << s;
      }
    }
  }
  // A flat 10 mm end mill is 5 deep at most: nothing survives 5.01.
  EXPECT_FALSE(eroded(cutter_body(tools()[0]), 5.01));
}

// A profile of the most points allowed, on a quarter circle (r = sqrt(z (2R - z))): the body and
// each eroded body are their lines' pieces and equal the 2-D model, and the body holds every
// profile point.
TEST(CutterBody, ProfileOfTheMostPointsAllowed) {
  ToolParameters tool;
  tool.shape = CutterShape::kComposite;
  const double R = 5;
  for (std::size_t i = 0; i < kMaxProfilePoints; ++i) {
    const double z = R * static_cast<double>(i) / (kMaxProfilePoints - 1);
    tool.profile.push_back({z, std::sqrt(z * (2 * R - z))});
  }
  tool.diameter = 2 * tool.profile.back().r;
  tool.cutting_length = R;
  tool.length = 20;
  const CutterBody body = cutter_body(tool);
  for (const ProfilePoint& p : tool.profile) EXPECT_GE(body.radius_at(p.z), p.r);
  expect_pieces_follow_radius(body, "body");
  std::uint64_t seed = 5;
  for (const double s : {0.0, 0.01, 1.0, 2.4}) {  // a half disc of radius 5: 2.5 deep at most
    const std::optional<CutterBody> e = eroded(body, s);
    ASSERT_TRUE(e);
    const RevolvedSolid solid = to_solid(*e);
    expect_pieces_follow_radius(*e, "eroded");
    const std::vector<P2> model = section(*e);
    for (int i = 0; i < 200; ++i) {
      const Vec3 n{2 * next_uniform(seed) - 1, 2 * next_uniform(seed) - 1,
                   2 * next_uniform(seed) - 1};
      EXPECT_NEAR(support_value(solid, n), model_support(model, e->rounding, n), 1e-12)
          << "s " << s;
    }
  }
}

// A profile convex only up to rounding (a middle point a hair above its neighbours' chord) is
// accepted, and its body still holds every point of the outline: lines of its upper hull,
// raised to support all points; the cylinder at the profile's top radius.
TEST(CutterBody, BodyHoldsAProfileConvexOnlyUpToRounding) {
  ToolParameters tool;
  tool.shape = CutterShape::kComposite;
  tool.profile = {{0, 1}, {5, 3}, {10, 5 * (1 + 1e-13)}, {15, 7}, {20, 7}};
  tool.diameter = 14;
  tool.cutting_length = 20;
  tool.length = 30;
  const CutterBody body = cutter_body(tool);
  for (const ProfilePoint& p : tool.profile) EXPECT_GE(body.radius_at(p.z), p.r) << p.z;
  EXPECT_EQ(body.r_max, 7);
  // The top radius is the profile's, even when the stated diameter is a rounding smaller.
  tool.diameter = 14 * (1 - 1e-10);
  EXPECT_EQ(cutter_body(tool).r_max, 7);
}

}  // namespace
}  // namespace kdop
