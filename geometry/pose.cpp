#include "geometry/pose.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kdop {

Pose pose_from_quaternion(double tx, double ty, double tz, double qw, double qx, double qy,
                          double qz) {
  for (double v : {tx, ty, tz, qw, qx, qy, qz}) {
    if (!std::isfinite(v)) throw std::invalid_argument("pose has a non-finite number");
  }
  double w = qw, x = qx, y = qy, z = qz;
  const auto divide_by = [&](double d) {
    w /= d;
    x /= d;
    y /= d;
    z /= d;
  };
  const double n2 = qw * qw + qx * qx + qy * qy + qz * qz;
  if (std::isfinite(n2) && n2 >= 0x1p-1000) {
    divide_by(std::sqrt(n2));
  } else {
    // The squared norm overflowed (1e300) or lost its precision (1e-300): scaled by the largest
    // component first, so every finite non-zero quaternion normalizes.
    const double scale =
        std::fmax(std::fmax(std::fabs(qw), std::fabs(qx)), std::fmax(std::fabs(qy), std::fabs(qz)));
    if (!(scale > 0)) throw std::invalid_argument("quaternion is zero");
    divide_by(scale);
    divide_by(std::sqrt(w * w + x * x + y * y + z * z));  // a norm in [1, 2]
  }
  Pose p;
  p.r = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
         2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
         2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  p.t = {tx, ty, tz};
  return p;
}

Pose pose_from_matrix(const std::array<double, 16>& m) {
  for (double v : m) {
    if (!std::isfinite(v)) throw std::invalid_argument("matrix has a non-finite number");
  }
  if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1) {
    throw std::invalid_argument("matrix last row must be 0 0 0 1");
  }
  Pose p;
  p.r = {m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
  p.t = {m[3], m[7], m[11]};
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += p.r[3 * k + i] * p.r[3 * k + j];
      worst = std::fmax(worst, std::fabs(s - (i == j ? 1.0 : 0.0)));
    }
  }
  if (worst > 1e-6) {
    char text[96];  // %.3g: std::to_string printed 1.4e-6 as 0.000001
    std::snprintf(text, sizeof text,
                  "matrix rotation is not orthonormal (|R^T R - I| = %.3g > 1e-6)", worst);
    throw std::invalid_argument(text);
  }
  const double det = p.r[0] * (p.r[4] * p.r[8] - p.r[5] * p.r[7]) -
                     p.r[1] * (p.r[3] * p.r[8] - p.r[5] * p.r[6]) +
                     p.r[2] * (p.r[3] * p.r[7] - p.r[4] * p.r[6]);
  if (!(det > 0)) throw std::invalid_argument("matrix rotation has det <= 0 (a reflection)");
  return p;
}

Vec3 apply_pose(const Pose& pose, const Vec3& p) {
  const auto& r = pose.r;
  return {((r[0] * p.x + r[1] * p.y) + r[2] * p.z) + pose.t[0],
          ((r[3] * p.x + r[4] * p.y) + r[5] * p.z) + pose.t[1],
          ((r[6] * p.x + r[7] * p.y) + r[8] * p.z) + pose.t[2]};
}

void apply_pose(const Pose& pose, const double* x, const double* y, const double* z, std::size_t n,
                double* out_x, double* out_y, double* out_z) {
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 q = apply_pose(pose, Vec3{x[i], y[i], z[i]});
    out_x[i] = q.x;
    out_y[i] = q.y;
    out_z[i] = q.z;
  }
}

}  // namespace kdop
