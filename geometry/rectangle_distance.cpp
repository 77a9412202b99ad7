#include "geometry/rectangle_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "geometry/vec3.hpp"

namespace kdop {
namespace {

struct Segment {
  Vec3 p, q;
};

// Closest points of two segments (Ericson, Real-Time Collision Detection, 5.1.9), parallel and
// degenerate segments included.
double segment_distance(const Segment& s1, const Segment& s2) {
  const Vec3 d1 = s1.q - s1.p, d2 = s2.q - s2.p, r = s1.p - s2.p;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  double s = 0, t = 0;
  if (a <= 0 && e <= 0) return norm(r);
  if (a <= 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = dot(d1, r);
    if (e <= 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = dot(d1, d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return norm((s1.p + s * d1) - (s2.p + t * d2));
}

// Rectangle {(x, y, 0) : |x| <= h[0], |y| <= h[1]}.
double point_distance(const double h[2], const Vec3& p) {
  const double dx = std::max(std::fabs(p.x) - h[0], 0.0), dy = std::max(std::fabs(p.y) - h[1], 0.0);
  return std::sqrt(dx * dx + dy * dy + p.z * p.z);
}

std::array<Segment, 4> edges(const double h[2]) {
  const Vec3 c[4] = {{-h[0], -h[1], 0}, {h[0], -h[1], 0}, {h[0], h[1], 0}, {-h[0], h[1], 0}};
  return {Segment{c[0], c[1]}, Segment{c[1], c[2]}, Segment{c[2], c[3]}, Segment{c[3], c[0]}};
}

double segment_rectangle_distance(const double h[2], const Segment& s) {
  // Where the segment meets the rectangle's plane inside it, the distance is 0.
  if ((s.p.z <= 0 && s.q.z >= 0) || (s.p.z >= 0 && s.q.z <= 0)) {
    const double dz = s.p.z - s.q.z;
    const double t = dz != 0 ? s.p.z / dz : 0;
    const Vec3 m = s.p + t * (s.q - s.p);
    if (std::fabs(m.x) <= h[0] && std::fabs(m.y) <= h[1]) return 0;
  }
  double d = std::min(point_distance(h, s.p), point_distance(h, s.q));
  for (const Segment& e : edges(h)) d = std::min(d, segment_distance(s, e));
  return d;
}

// The least edge distance, or the first one at most `limit` (then the caller knows enough).
double edge_distance(const double a[2], const double b[2], const double R[9], const double T[3],
                     double limit) {
  const Vec3 t{T[0], T[1], T[2]};
  const Vec3 col[3] = {{R[0], R[3], R[6]}, {R[1], R[4], R[7]}, {R[2], R[5], R[8]}};
  // B's edges in A's frame, and A's edges in B's frame (p_B = R^T (p_A - T)).
  const auto to_a = [&](const Vec3& p) { return t + p.x * col[0] + p.y * col[1] + p.z * col[2]; };
  const auto to_b = [&](const Vec3& p) {
    const Vec3 d = p - t;
    return Vec3{dot(col[0], d), dot(col[1], d), dot(col[2], d)};
  };
  double d = INFINITY;
  for (const Segment& e : edges(b)) {
    d = std::min(d, segment_rectangle_distance(a, {to_a(e.p), to_a(e.q)}));
    if (d <= limit) return d;
  }
  for (const Segment& e : edges(a)) {
    d = std::min(d, segment_rectangle_distance(b, {to_b(e.p), to_b(e.q)}));
    if (d <= limit) return d;
  }
  return d;
}

}  // namespace

double rectangle_distance(const double a[2], const double b[2], const double R[9],
                          const double T[3]) {
  return edge_distance(a, b, R, T, -INFINITY);
}

bool rectangles_within(const double a[2], const double b[2], const double R[9], const double T[3],
                       double limit) {
  return edge_distance(a, b, R, T, limit) <= limit;
}

}  // namespace kdop
