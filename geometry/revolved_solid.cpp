// Revolved tool solids (see revolved_solid.hpp): builders, support functions and bounds.
#include "geometry/revolved_solid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace kdop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One rounding step outward: a value computed by one correctly rounded operation is within
// half an ulp of the exact one, so the next double outward bounds it.
double down(double x) {
  return std::nextafter(x, -kInf);
}
double up(double x) {
  return std::nextafter(x, kInf);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("tool: " + what);
}

void require_size(double v, const char* name) {
  require(std::isfinite(v) && v >= 0, std::string(name) + " must be finite and >= 0");
}

// |n_xy|, without overflow concerns (tool directions are moderate).
double horizontal_norm(Vec3 n) {
  return std::sqrt(n.x * n.x + n.y * n.y);
}

}  // namespace

RevolvedPrimitive make_frustum(double z0, double r0, double z1, double r1) {
  return {z0, r0, z1, r1, 0};
}

RevolvedPrimitive make_rounded_disc(double a, double zc, double rho) {
  return {zc, a, zc, a, rho};
}

void check_composite_profile(std::span<const ProfilePoint> profile) {
  require(profile.size() >= 2, "a composite profile needs at least 2 points");
  require(profile.size() <= kMaxProfilePoints, "a composite profile has at most 1000 points");
  for (const ProfilePoint& p : profile) {
    require_size(p.z, "profile height");
    require_size(p.r, "profile radius");
  }
  require(profile.front().z == 0, "a composite profile starts at the tip, z = 0");
  require(profile.back().r > 0, "a composite profile's top radius must be > 0");
  double slope = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < profile.size(); ++i) {
    const ProfilePoint a = profile[i - 1], b = profile[i];
    require(b.z > a.z, "profile heights must increase");
    require(b.r >= a.r, "a composite profile must not narrow upward");
    // Convex: the radius grows ever slower upward (up to rounding of the points).
    const double next = (b.r - a.r) / (b.z - a.z);
    require(std::isfinite(next), "a composite profile's segments must not be steeper than 1e300");
    require(next <= slope * (1 + 1e-12) + 1e-12, "a composite profile must be convex");
    slope = next;
  }
}

RevolvedSolid make_cutter(const ToolParameters& tool) {
  require_size(tool.diameter, "diameter");
  require(tool.diameter > 0, "diameter must be > 0");
  require_size(tool.cutting_length, "cutting_length");
  require(tool.cutting_length > 0, "cutting_length must be > 0");
  const double radius = tool.diameter / 2, length = tool.cutting_length;
  RevolvedSolid s;
  switch (tool.shape) {
    case CutterShape::kFlat:
      s.parts.push_back(make_frustum(0, radius, length, radius));
      break;
    case CutterShape::kBall:
      require(length >= radius, "cutting_length must be >= the ball radius");
      s.parts.push_back(make_rounded_disc(0, radius, radius));
      if (length > radius) s.parts.push_back(make_frustum(radius, radius, length, radius));
      break;
    case CutterShape::kBullNose: {
      const double r = tool.corner_radius;
      require_size(r, "corner_radius");
      require(r > 0 && r <= radius, "corner_radius must be in (0, diameter / 2]");
      require(length >= r, "cutting_length must be >= corner_radius");
      s.parts.push_back(make_rounded_disc(radius - r, r, r));
      if (length > r) s.parts.push_back(make_frustum(r, radius, length, radius));
      break;
    }
    case CutterShape::kComposite: {
      check_composite_profile(tool.profile);
      const ProfilePoint& top = tool.profile.back();
      require(
          std::fabs(top.r - radius) <= 1e-9 * radius && std::fabs(top.z - length) <= 1e-9 * length,
          "a composite cutter's diameter and cutting_length are its profile's top");
      s = make_profile_solid(tool.profile);
      break;
    }
    case CutterShape::kCone: {
      const double angle = tool.included_angle;
      require(std::isfinite(angle) && angle > 0 && angle < 180,
              "included_angle must be in (0, 180) degrees");
      require_size(tool.tip_diameter, "tip_diameter");
      require(tool.tip_diameter < tool.diameter, "tip_diameter must be below diameter");
      const double tip = tool.tip_diameter / 2;
      const double slope = std::tan(angle * std::numbers::pi / 360);  // radius per height
      const double height = (radius - tip) / slope;
      if (height >= length) {
        s.parts.push_back(make_frustum(0, tip, length, tip + length * slope));
      } else {
        s.parts.push_back(make_frustum(0, tip, height, radius));
        s.parts.push_back(make_frustum(height, radius, length, radius));
      }
      break;
    }
  }
  return s;
}

ToolSolids make_tool(const ToolParameters& tool) {
  ToolSolids t;
  t.cutter = make_cutter(tool);
  require_size(tool.shank_diameter, "shank_diameter");
  require_size(tool.length, "length");
  if (tool.shank_diameter > 0 && tool.length > tool.cutting_length) {
    const double r = tool.shank_diameter / 2;
    t.shank.parts.push_back(make_frustum(tool.cutting_length, r, tool.length, r));
  }
  double z = tool.length;
  for (const HolderSegment& h : tool.holder) {
    require_size(h.height, "holder height");
    require_size(h.lower_diameter, "holder lower_diameter");
    require_size(h.upper_diameter, "holder upper_diameter");
    t.holder.parts.push_back(
        make_frustum(z, h.lower_diameter / 2, z + h.height, h.upper_diameter / 2));
    z += h.height;
  }
  return t;
}

RevolvedSolid make_profile_solid(std::span<const ProfilePoint> profile) {
  RevolvedSolid s;
  for (const ProfilePoint& p : profile) {
    require(std::isfinite(p.z), "profile heights must be finite");
    require_size(p.r, "profile radius");
  }
  for (std::size_t i = 1; i < profile.size(); ++i) {
    require(profile[i].z >= profile[i - 1].z, "profile heights must not decrease");
    s.parts.push_back(make_frustum(profile[i - 1].z, profile[i - 1].r, profile[i].z, profile[i].r));
  }
  return s;
}

double support_value(const RevolvedPrimitive& p, Vec3 n) {
  const double h = horizontal_norm(n);
  return std::max(p.r0 * h + p.z0 * n.z, p.r1 * h + p.z1 * n.z) + p.rounding * norm(n);
}

double support_value(const RevolvedPrimitive& p, Vec3 from, Vec3 to, Vec3 n) {
  return support_value(p, n) + std::max(dot(n, from), dot(n, to));
}

double support_value(const RevolvedSolid& s, Vec3 n) {
  double best = -kInf;
  for (const RevolvedPrimitive& p : s.parts) best = std::max(best, support_value(p, n));
  return best;
}

double support_value(const RevolvedSolid& s, Vec3 from, Vec3 to, Vec3 n) {
  return support_value(s, n) + std::max(dot(n, from), dot(n, to));
}

Vec3 support_point(const RevolvedPrimitive& p, Vec3 n) {
  const double h = horizontal_norm(n);
  const bool upper = p.r1 * h + p.z1 * n.z > p.r0 * h + p.z0 * n.z;
  const double r = upper ? p.r1 : p.r0, z = upper ? p.z1 : p.z0;
  // The rim point facing n_xy (any rim point, here angle 0, when n is vertical).
  Vec3 x = h > 0 ? Vec3{r * (n.x / h), r * (n.y / h), z} : Vec3{r, 0, z};
  const double nn = norm(n);
  if (p.rounding > 0 && nn > 0) x = x + (p.rounding / nn) * n;
  return x;
}

Vec3 support_point(const RevolvedPrimitive& p, Vec3 from, Vec3 to, Vec3 n) {
  return support_point(p, n) + (dot(n, to) > dot(n, from) ? to : from);
}

double lowest_z_at(const RevolvedPrimitive& p, double d) {
  const double rho = p.rounding;
  // The lowest point of the frustum within rho of radius d (in the meridian plane), less the
  // disc's drop sqrt(rho^2 - u^2) at horizontal offset u.
  auto drop = [&](double u) { return std::sqrt(std::max(0.0, rho * rho - u * u)); };
  double best = kInf;
  // The flat bottom: the disc of radius r0 at z0 (the larger radius when the frustum is flat).
  const double bottom = p.z1 > p.z0 ? p.r0 : std::max(p.r0, p.r1);
  const double on_bottom = std::min(d, bottom);
  if (d - on_bottom <= rho) best = p.z0 - drop(d - on_bottom);
  // The cone side from (r0, z0) up to (r1, z1), when it widens: z = z0 + m (r - r0). Along it the
  // height less the drop is convex in r, least where (d - r) = rho m / sqrt(1 + m^2).
  if (p.r1 > p.r0 && p.z1 > p.z0) {
    const double m = (p.z1 - p.z0) / (p.r1 - p.r0);
    const double r = std::clamp(d - rho * m / std::sqrt(1 + m * m), p.r0, p.r1);
    if (std::fabs(d - r) <= rho) best = std::min(best, p.z0 + m * (r - p.r0) - drop(d - r));
  }
  return best;
}

double lowest_z_at(const RevolvedSolid& s, double d) {
  double best = kInf;
  for (const RevolvedPrimitive& p : s.parts) best = std::min(best, lowest_z_at(p, d));
  return best;
}

double reach(const RevolvedSolid& s) {
  double r = 0;
  for (const RevolvedPrimitive& p : s.parts) r = std::max(r, std::max(p.r0, p.r1) + p.rounding);
  return r;
}

std::optional<RevolvedPrimitive> eroded(const RevolvedPrimitive& p, double s) {
  if (s <= p.rounding) return RevolvedPrimitive{p.z0, p.r0, p.z1, p.r1, p.rounding - s};
  const double t = s - p.rounding;
  if (!(p.z1 - p.z0 > 2 * t)) return std::nullopt;
  const double k = (p.r1 - p.r0) / (p.z1 - p.z0);
  const double in = t * std::sqrt(1 + k * k);
  RevolvedPrimitive e{p.z0 + t, p.r0 + k * t - in, p.z1 - t, p.r1 - k * t - in, 0};
  if (e.r0 < 0 && e.r1 < 0) return std::nullopt;
  // One end past the cone's apex: the eroded cone ends at the apex.
  if (e.r0 < 0) e = {e.z0 - e.r0 / k, 0, e.z1, e.r1, 0};
  if (e.r1 < 0) e = {e.z0, e.r0, e.z1 - e.r1 / k, 0, 0};
  return e;
}

RevolvedSolid eroded_parts(const RevolvedSolid& solid, double s) {
  RevolvedSolid out;
  for (const RevolvedPrimitive& p : solid.parts) {
    if (const auto e = eroded(p, s)) out.parts.push_back(*e);
  }
  return out;
}

double highest_z(const RevolvedSolid& s) {
  double z = -std::numeric_limits<double>::infinity();
  for (const RevolvedPrimitive& p : s.parts) z = std::max(z, std::max(p.z0, p.z1) + p.rounding);
  return z;
}

AxisBox bounding_box(const RevolvedPrimitive& p) {
  const double r = up(std::max(p.r0, p.r1) + p.rounding);
  return {{-r, -r, down(p.z0 - p.rounding)}, {r, r, up(p.z1 + p.rounding)}};
}

AxisBox bounding_box(const RevolvedSolid& s) {
  AxisBox box{{kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
  for (const RevolvedPrimitive& p : s.parts) {
    const AxisBox b = bounding_box(p);
    box.lo = {std::min(box.lo.x, b.lo.x), std::min(box.lo.y, b.lo.y), std::min(box.lo.z, b.lo.z)};
    box.hi = {std::max(box.hi.x, b.hi.x), std::max(box.hi.y, b.hi.y), std::max(box.hi.z, b.hi.z)};
  }
  return box;
}

AxisBox bounding_box(const RevolvedSolid& s, Vec3 from, Vec3 to) {
  const AxisBox b = bounding_box(s);
  if (s.parts.empty()) return b;
  // Each sum is one rounding, so one step outward keeps the exact sum inside.
  const auto lo = [](double v, double a, double c) { return down(v + std::min(a, c)); };
  const auto hi = [](double v, double a, double c) { return up(v + std::max(a, c)); };
  return {{lo(b.lo.x, from.x, to.x), lo(b.lo.y, from.y, to.y), lo(b.lo.z, from.z, to.z)},
          {hi(b.hi.x, from.x, to.x), hi(b.hi.y, from.y, to.y), hi(b.hi.z, from.z, to.z)}};
}

double bounding_radius(const RevolvedSolid& s) {
  // The farthest point of a rounded frustum from the origin is a rim point pushed out by the
  // rounding (|x| is convex, so it peaks at a generating point of the hull). sqrt(r^2 + z^2) +
  // rounding is within 4 units of roundoff of its value: the factor 1 + 2^-50 (8 units) and a
  // step up cover it.
  double best = 0;
  for (const RevolvedPrimitive& p : s.parts) {
    const double rim = std::max(std::hypot(p.r0, p.z0), std::hypot(p.r1, p.z1));
    best = std::max(best, up((rim + p.rounding) * (1 + 0x1p-50)));
  }
  return best;
}

BoundingBall swept_bounding_ball(const RevolvedSolid& s, Vec3 from, Vec3 to) {
  // Every point is x + from + t (to - from), |x| <= R, t in [0, 1]: within R + |to - from| / 2
  // of the exact midpoint. The rounded midpoint is off by at most half an ulp per coordinate,
  // under 2^-53 (|from|_inf + |to|_inf) each, so 2^-50 of that covers its distance; the rest is
  // a few roundings of a sum of positive terms, covered by the factor and a step up.
  const Vec3 mid = 0.5 * (from + to);
  const auto mag = [](Vec3 p) {
    return std::max(std::fabs(p.x), std::max(std::fabs(p.y), std::fabs(p.z)));
  };
  const double slack = 0x1p-50 * (mag(from) + mag(to));
  return {mid, up((bounding_radius(s) + norm(to - from) / 2 + slack) * (1 + 0x1p-50))};
}

}  // namespace kdop
