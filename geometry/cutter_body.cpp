#include "geometry/cutter_body.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace kdop {

double CutterBody::radius_at(double z) const {
  double r = r_max;
  for (const CutterCone& c : cones) r = std::min(r, c.a + c.b * z);
  return r;
}

CutterBody cutter_body(const ToolParameters& tool) {
  make_cutter(tool);  // the same checks of the parameters
  const double radius = tool.diameter / 2, length = tool.cutting_length;
  switch (tool.shape) {
    case CutterShape::kFlat:
      return {0, length, radius, {}, 0};
    case CutterShape::kBall:
      return {radius, length, 0, {}, radius};
    case CutterShape::kBullNose: {
      const double r = tool.corner_radius;
      return {r, length, radius - r, {}, r};
    }
    case CutterShape::kCone:
      return {0,
              length,
              radius,
              {{tool.tip_diameter / 2, std::tan(tool.included_angle * std::numbers::pi / 360)}},
              0};
    case CutterShape::kComposite: {
      CutterBody body{0, length, radius, {}, 0};
      for (std::size_t i = 1; i < tool.profile.size(); ++i) {
        const ProfilePoint p = tool.profile[i - 1], q = tool.profile[i];
        const double b = (q.r - p.r) / (q.z - p.z);
        body.cones.push_back({p.r - b * p.z, b});
      }
      return body;
    }
  }
  return {};
}

std::optional<CutterBody> eroded(const CutterBody& body, double s) {
  CutterBody e = body;
  if (s <= e.rounding) {
    e.rounding -= s;
    return e;
  }
  const double t = s - e.rounding;
  e.rounding = 0;
  e.z_lo += t;
  e.z_hi -= t;
  e.r_max -= t;
  for (CutterCone& c : e.cones) c.a -= t * std::sqrt(1 + c.b * c.b);
  // Empty when the height range closes, the cylinder vanishes, or the cones leave no point (the
  // radius grows upward, so the top is the last place to look).
  if (!(e.z_lo <= e.z_hi) || e.r_max < 0 || e.radius_at(e.z_hi) < 0) return std::nullopt;
  return e;
}

RevolvedSolid to_solid(const CutterBody& body) {
  RevolvedSolid s;
  // The radius is concave and piecewise linear in z, and grows upward: it starts where its last
  // line reaches 0, and breaks where two of its lines (the cones and the cylinder) cross.
  std::vector<CutterCone> lines = body.cones;
  lines.push_back({body.r_max, 0});
  double start = body.z_lo;
  for (const CutterCone& c : lines) {
    if (c.a + c.b * start >= 0) continue;
    if (!(c.b > 0)) return s;  // never reaches 0
    start = std::max(start, -c.a / c.b);
  }
  if (start > body.z_hi) return s;
  std::vector<double> at{start, body.z_hi};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      if (lines[i].b == lines[j].b) continue;
      const double z = (lines[j].a - lines[i].a) / (lines[i].b - lines[j].b);
      if (z > start && z < body.z_hi) at.push_back(z);
    }
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  if (at.size() == 1) {
    const double r = std::max(0.0, body.radius_at(at[0]));
    s.parts.push_back({at[0], r, at[0], r, body.rounding});
    return s;
  }
  for (std::size_t i = 0; i + 1 < at.size(); ++i) {
    const double z0 = at[i], z1 = at[i + 1];
    const double r0 = std::max(0.0, body.radius_at(z0)), r1 = std::max(0.0, body.radius_at(z1));
    // One frustum for collinear pieces.
    if (!s.parts.empty()) {
      RevolvedPrimitive& last = s.parts.back();
      const double slope = (last.r1 - last.r0) / (last.z1 - last.z0);
      if (last.z1 == z0 && last.r1 == r0 &&
          std::fabs(slope - (r1 - r0) / (z1 - z0)) <= 1e-12 * (1 + std::fabs(slope))) {
        last.z1 = z1;
        last.r1 = r1;
        continue;
      }
    }
    s.parts.push_back({z0, r0, z1, r1, body.rounding});
  }
  return s;
}

}  // namespace kdop
