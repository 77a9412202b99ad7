#include "geometry/cutter_body.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace kdop {

CutterBody cutter_body(const ToolParameters& tool) {
  make_cutter(tool);  // the same checks of the parameters
  const double radius = tool.diameter / 2, length = tool.cutting_length;
  switch (tool.shape) {
    case CutterShape::kFlat:
      return {0, length, radius, radius, 0, 0};
    case CutterShape::kBall:
      return {radius, length, 0, 0, 0, radius};
    case CutterShape::kBullNose: {
      const double r = tool.corner_radius;
      return {r, length, radius - r, radius - r, 0, r};
    }
    case CutterShape::kCone:
      return {0,
              length,
              radius,
              tool.tip_diameter / 2,
              std::tan(tool.included_angle * std::numbers::pi / 360),
              0};
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
  e.a -= t * std::sqrt(1 + e.b * e.b);
  // Empty when the height range closes, the cylinder vanishes, or the cone has no point in it.
  if (!(e.z_lo <= e.z_hi) || e.r_max < 0) return std::nullopt;
  if (e.a + e.b * e.z_hi < 0) return std::nullopt;
  return e;
}

RevolvedSolid to_solid(const CutterBody& body) {
  RevolvedSolid s;
  auto radius_at = [&](double z) { return std::min(body.r_max, body.a + body.b * z); };
  // Where the cone's radius reaches 0 (below it the body has no points) and where it reaches
  // the cylinder's.
  double lo = body.z_lo;
  if (body.a + body.b * lo < 0) lo = body.b > 0 ? -body.a / body.b : body.z_hi + 1;
  if (lo > body.z_hi) return s;
  const double join = body.b > 0 ? std::clamp((body.r_max - body.a) / body.b, lo, body.z_hi) : lo;
  if (join > lo) {
    s.parts.push_back({lo, std::max(0.0, radius_at(lo)), join, radius_at(join), body.rounding});
  }
  if (join < body.z_hi || s.parts.empty()) {
    const double r = std::max(0.0, radius_at(join));
    s.parts.push_back({join, r, body.z_hi, std::max(0.0, radius_at(body.z_hi)), body.rounding});
  }
  return s;
}

}  // namespace kdop
