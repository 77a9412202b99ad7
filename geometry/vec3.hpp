#pragma once
// A plain double 3-vector for scalar geometry code (not used in SIMD kernels).
#include <cmath>

namespace kdop {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

inline Vec3 operator+(Vec3 p, Vec3 q) {
  return {p.x + q.x, p.y + q.y, p.z + q.z};
}
inline Vec3 operator-(Vec3 p, Vec3 q) {
  return {p.x - q.x, p.y - q.y, p.z - q.z};
}
inline Vec3 operator*(double s, Vec3 p) {
  return {s * p.x, s * p.y, s * p.z};
}
inline double dot(Vec3 p, Vec3 q) {
  return p.x * q.x + p.y * q.y + p.z * q.z;
}
inline Vec3 cross(Vec3 p, Vec3 q) {
  return {p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x};
}
inline double norm(Vec3 p) {
  return std::sqrt(dot(p, p));
}
// Coordinate `axis` (0 x, 1 y, 2 z).
inline double coord(Vec3 p, int axis) {
  return axis == 0 ? p.x : (axis == 1 ? p.y : p.z);
}

}  // namespace kdop
