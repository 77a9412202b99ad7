#include "verify/motion.hpp"

#include <algorithm>
#include <cmath>

namespace kdop {

namespace {

double dot4(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

// b, or -b when that is nearer a (the shorter arc).
std::array<double, 4> same_side(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  if (dot4(a, b) >= 0) return b;
  return {-b[0], -b[1], -b[2], -b[3]};
}

}  // namespace

bool same_rotation(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return same_side(a, b) == a;
}

double rotation_angle(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  const std::array<double, 4> c = same_side(a, b);
  double diff = 0, sum = 0;
  for (int i = 0; i < 4; ++i) {
    diff += (a[i] - c[i]) * (a[i] - c[i]);
    sum += (a[i] + c[i]) * (a[i] + c[i]);
  }
  return 4 * std::atan2(std::sqrt(diff), std::sqrt(sum));
}

MotionState interpolate(const Waypoint& a, const Waypoint& b, double t) {
  const double span = b.t - a.t;
  double s = span > 0 ? (t - a.t) / span : 1.0;
  s = std::clamp(s, 0.0, 1.0);
  MotionState out;
  for (int i = 0; i < 3; ++i) {
    out.translation[i] = a.translation[i] + s * (b.translation[i] - a.translation[i]);
  }
  if (s == 1.0) out.translation = b.translation;
  const std::array<double, 4> q1 = same_side(a.rotation, b.rotation);
  if (same_rotation(a.rotation, b.rotation)) {  // no rotation: exactly a's
    out.rotation = a.rotation;
    return out;
  }
  const double half = rotation_angle(a.rotation, b.rotation) / 2;  // the quaternions' arc
  double wa, wb;
  if (half < 1e-6) {
    // sin x / sin y = x / y to 1e-12 here: the linear weights, then normalized.
    wa = 1 - s;
    wb = s;
  } else {
    wa = std::sin((1 - s) * half) / std::sin(half);
    wb = std::sin(s * half) / std::sin(half);
  }
  double n2 = 0;
  for (int i = 0; i < 4; ++i) {
    out.rotation[i] = wa * a.rotation[i] + wb * q1[i];
    n2 += out.rotation[i] * out.rotation[i];
  }
  const double inv = 1 / std::sqrt(n2);
  for (double& q : out.rotation) q *= inv;
  return out;
}

std::size_t segment_at(const std::vector<Waypoint>& path, double t) {
  // The first waypoint after t, then one back.
  const auto it = std::upper_bound(path.begin(), path.end(), t,
                                   [](double v, const Waypoint& w) { return v < w.t; });
  std::size_t i = static_cast<std::size_t>(it - path.begin());
  if (i == 0) return 0;
  return std::min(i - 1, path.size() - 2);
}

MotionState state_at(const std::vector<Waypoint>& path, double t) {
  if (path.size() == 1 || t <= path.front().t) {
    return {path.front().translation, path.front().rotation};
  }
  if (t >= path.back().t) return {path.back().translation, path.back().rotation};
  const std::size_t i = segment_at(path, t);
  return interpolate(path[i], path[i + 1], t);
}

Pose to_pose(const MotionState& s) {
  return pose_from_quaternion(s.translation[0], s.translation[1], s.translation[2], s.rotation[0],
                              s.rotation[1], s.rotation[2], s.rotation[3]);
}

double speed_bound(const Waypoint& a, const Waypoint& b, double radius) {
  const double span = b.t - a.t;
  if (!(span > 0)) return 0;
  const double dx = b.translation[0] - a.translation[0], dy = b.translation[1] - a.translation[1],
               dz = b.translation[2] - a.translation[2];
  const double travel = std::sqrt(dx * dx + dy * dy + dz * dz);
  const double angle = rotation_angle(a.rotation, b.rotation);
  // Rounded up generously: 1e-12 of itself covers every rounding above (a few ulps each).
  return (travel + angle * radius) / span * (1 + 1e-12);
}

Pose relative_pose(const Pose& a, const Pose& b) {
  // a^-1 = (R^T, -R^T t); a^-1 b = (R_a^T R_b, R_a^T (t_b - t_a)).
  Pose out;
  const auto& ra = a.r;
  const auto& rb = b.r;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      out.r[3 * i + j] = ra[i] * rb[j] + ra[3 + i] * rb[3 + j] + ra[6 + i] * rb[6 + j];
    }
  }
  const double d[3] = {b.t[0] - a.t[0], b.t[1] - a.t[1], b.t[2] - a.t[2]};
  for (int i = 0; i < 3; ++i) out.t[i] = ra[i] * d[0] + ra[3 + i] * d[1] + ra[6 + i] * d[2];
  return out;
}

}  // namespace kdop
