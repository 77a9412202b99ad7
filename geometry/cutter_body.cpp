#include "geometry/cutter_body.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace kdop {

double CutterBody::radius_at(double z) const {
  double r = r_max;
  for (const CutterCone& c : cones) r = std::min(r, c.a + c.b * z);
  return r;
}

namespace {

// A composite outline as lines that hold every profile point: its upper concave hull (the
// profile is convex only up to rounding, check_composite_profile), each line then raised to
// support all points, so the body never falls inside the outline. Its top is the cylinder.
CutterBody composite_body(const std::vector<ProfilePoint>& profile) {
  std::vector<ProfilePoint> hull;
  for (const ProfilePoint& p : profile) {
    // Drop the last hull point while it lies on or under the chord from the one before it to p.
    while (hull.size() >= 2) {
      const ProfilePoint a = hull[hull.size() - 2], b = hull.back();
      if ((b.r - a.r) * (p.z - a.z) > (p.r - a.r) * (b.z - a.z)) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  CutterBody body{0, profile.back().z, profile.back().r, {}, 0};
  for (std::size_t i = 1; i < hull.size(); ++i) {
    const ProfilePoint p = hull[i - 1], q = hull[i];
    const double b = (q.r - p.r) / (q.z - p.z);
    // Raised by a few units of rounding, so a + b z >= r holds as computed too.
    double a = -std::numeric_limits<double>::infinity(), slack = 0;
    for (const ProfilePoint& x : profile) {
      a = std::max(a, x.r - b * x.z);
      slack = std::max(slack, x.r + b * x.z);
    }
    a += 8 * std::numeric_limits<double>::epsilon() * slack;
    body.cones.push_back({a, b});
  }
  return body;
}

}  // namespace

CutterBody cutter_body(const ToolParameters& tool) {
  make_cutter(tool);  // the same checks of the parameters
  const double radius = tool.diameter / 2, length = tool.cutting_length;
  switch (tool.shape) {
    case CutterShape::kFlat:
      return {0, length, radius, {}, 0};
    case CutterShape::kBall:
      return {radius, length, 0, {}, radius, length};
    case CutterShape::kBullNose: {
      const double r = tool.corner_radius;
      return {r, length, radius - r, {}, r, length};
    }
    case CutterShape::kCone:
      return {0,
              length,
              radius,
              {{tool.tip_diameter / 2, std::tan(tool.included_angle * std::numbers::pi / 360)}},
              0};
    case CutterShape::kComposite:
      return composite_body(tool.profile);
  }
  return {};
}

std::optional<CutterBody> eroded(const CutterBody& body, double s) {
  CutterBody e = body;
  e.z_cap -= s;
  if (s <= e.rounding) {
    e.rounding -= s;
  } else {
    const double t = s - e.rounding;
    e.rounding = 0;
    e.z_lo += t;
    e.z_hi -= t;
    e.r_max -= t;
    for (CutterCone& c : e.cones) c.a -= t * std::sqrt(1 + c.b * c.b);
    // Empty when the height range closes, the cylinder vanishes, or the cones leave no point (the
    // radius grows upward, so the top is the last place to look).
    if (!(e.z_lo <= e.z_hi) || e.r_max < 0 || e.radius_at(e.z_hi) < 0) return std::nullopt;
  }
  // Empty when the cap is below the body's lowest point.
  if (!(e.z_cap >= e.z_lo - e.rounding)) return std::nullopt;
  if (e.rounding == 0) {  // without rounding the cap is a plain top plane
    e.z_hi = std::min(e.z_hi, e.z_cap);
    e.z_cap = std::numeric_limits<double>::infinity();
  }
  return e;
}

RevolvedSolid to_solid(const CutterBody& body) {
  RevolvedSolid s;
  // Capped (see cutter_body.hpp): the rounded disc at z_lo, and the cylinder grown by the
  // rounding up to the top plane. Only cylindrical cores are capped (ball and bull nose); a body
  // with cones keeps its dome.
  if (body.capped() && body.cones.empty()) {
    s.parts.push_back(make_rounded_disc(body.r_max, body.z_lo, body.rounding));
    if (body.top() > body.z_lo) {
      const double r = body.r_max + body.rounding;
      s.parts.push_back(make_frustum(body.z_lo, r, body.top(), r));
    }
    return s;
  }
  // The radius is the least of the body's lines (the cones and the cylinder): concave, piecewise
  // linear, growing upward. It starts where its last line reaches 0.
  std::vector<CutterCone> lines = body.cones;
  lines.push_back({body.r_max, 0});
  double start = body.z_lo;
  for (const CutterCone& c : lines) {
    if (c.a + c.b * start >= 0) continue;
    if (!(c.b > 0)) return s;  // never reaches 0
    start = std::max(start, -c.a / c.b);
  }
  if (start > body.z_hi) {
    if (body.radius_at(body.z_hi) < 0) return s;
    start = body.z_hi;  // a root rounded past the top of a body that still reaches it
  }
  if (start == body.z_hi) {
    const double r = std::max(0.0, body.radius_at(start));
    s.parts.push_back({start, r, start, r, body.rounding});
    return s;
  }
  // The lower envelope of the lines, by falling slope (each line is least on one interval, the
  // steeper ones below it): O(n log n), exact pieces (one per line that is ever least, so no
  // merging of nearly collinear pieces), for profiles of up to kMaxProfilePoints points.
  std::sort(lines.begin(), lines.end(), [](const CutterCone& p, const CutterCone& q) {
    return p.b != q.b ? p.b > q.b : p.a < q.a;
  });
  // Where q (less steep) drops below p.
  auto crossing = [](const CutterCone& p, const CutterCone& q) {
    return (q.a - p.a) / (p.b - q.b);
  };
  std::vector<CutterCone> least;
  for (const CutterCone& line : lines) {
    if (!least.empty() && least.back().b == line.b) continue;  // parallel and not below
    // The last line is never least if `line` drops below the one before it no later than it does.
    while (least.size() >= 2 && crossing(least[least.size() - 2], line) <=
                                    crossing(least[least.size() - 2], least.back())) {
      least.pop_back();
    }
    least.push_back(line);
  }
  for (std::size_t k = 0; k < least.size(); ++k) {
    const double from = k == 0 ? start : std::max(start, crossing(least[k - 1], least[k]));
    const double to =
        k + 1 == least.size() ? body.z_hi : std::min(body.z_hi, crossing(least[k], least[k + 1]));
    if (!(from < to)) continue;
    const CutterCone& c = least[k];
    s.parts.push_back(
        {from, std::max(0.0, c.a + c.b * from), to, std::max(0.0, c.a + c.b * to), body.rounding});
  }
  return s;
}

}  // namespace kdop
