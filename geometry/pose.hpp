#pragma once
// A rigid pose p' = R p + t. The environment stays at identity; an object's pose maps its file
// coordinates to world coordinates (rotation about the file's origin).
//
// apply_pose is the one scalar routine that transforms double coordinates: it is compiled with
// -ffp-contract=off and evaluates in a fixed order, so every ISA and every caller sees the same
// transformed numbers, which the exact triangle test then decides on.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>

#include "geometry/vec3.hpp"

namespace kdop {

struct Pose {
  std::array<double, 9> r{1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major rotation
  std::array<double, 3> t{0, 0, 0};
};

// From a translation and a Hamilton quaternion (scalar first). Any finite non-zero quaternion
// is normalized; throws std::invalid_argument for zero or non-finite input.
Pose pose_from_quaternion(double tx, double ty, double tz, double qw, double qx, double qy,
                          double qz);

// From the 16 entries of a 4x4 matrix acting on column vectors, row by row (translation in
// m[3], m[7], m[11]; last row 0 0 0 1). Throws std::invalid_argument unless the entries are
// finite, the last row is exact, |R^T R - I| <= 1e-6 (max entry) and det R > 0.
Pose pose_from_matrix(const std::array<double, 16>& m);

// |t|_inf, the largest translation coordinate's magnitude, by comparisons: GCC leaves std::fmax as
// a libm call, and every query takes this for its frames. (Poses are finite: the constructors
// above check.)
inline double translation_max(const Pose& pose) {
  return std::max({std::fabs(pose.t[0]), std::fabs(pose.t[1]), std::fabs(pose.t[2])});
}

// p' = R p + t, in double, in a fixed evaluation order.
Vec3 apply_pose(const Pose& pose, const Vec3& p);

// The same for n points stored as structure-of-arrays.
void apply_pose(const Pose& pose, const double* x, const double* y, const double* z, std::size_t n,
                double* out_x, double* out_y, double* out_z);

}  // namespace kdop
