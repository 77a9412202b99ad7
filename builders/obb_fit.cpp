#include "builders/obb_fit.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/convex_hull.hpp"

namespace kdop {
namespace {

// Covariance of the points themselves, for sets without a 3D hull.
std::array<double, 9> point_covariance(const std::vector<Vec3>& points) {
  Vec3 mean{0, 0, 0};
  for (const Vec3& p : points) mean = mean + p;
  mean = (1.0 / static_cast<double>(points.size())) * mean;
  std::array<double, 9> c{};
  for (const Vec3& p : points) {
    const Vec3 d = p - mean;
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) c[3 * j + k] += coord(d, j) * coord(d, k);
    }
  }
  for (double& v : c) v /= static_cast<double>(points.size());
  return c;
}

}  // namespace

SurfaceMoments surface_moments(const std::vector<std::array<Vec3, 3>>& triangles) {
  SurfaceMoments m;
  std::array<double, 9> second{};
  Vec3 first{0, 0, 0};
  for (const std::array<Vec3, 3>& t : triangles) {
    const double area = 0.5 * norm(cross(t[1] - t[0], t[2] - t[0]));
    const Vec3 centroid = (1.0 / 3) * (t[0] + t[1] + t[2]);
    m.area += area;
    first = first + area * centroid;
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) {
        double s = 9 * coord(centroid, j) * coord(centroid, k);
        for (const Vec3& p : t) s += coord(p, j) * coord(p, k);
        second[3 * j + k] += area / 12 * s;
      }
    }
  }
  if (!(m.area > 0)) return m;
  m.mean = (1.0 / m.area) * first;
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 3; ++k) {
      m.covariance[3 * j + k] = second[3 * j + k] / m.area - coord(m.mean, j) * coord(m.mean, k);
    }
  }
  return m;
}

Obb fit_obb(const std::vector<Vec3>& points) {
  if (points.empty()) throw std::invalid_argument("fit_obb: no points");
  return fit_obb(points, convex_hull_triangles(points));
}

Obb fit_obb(const std::vector<Vec3>& points, const std::vector<std::array<Vec3, 3>>& surface) {
  if (points.empty()) throw std::invalid_argument("fit_obb: no points");
  const SurfaceMoments moments = surface_moments(surface);
  const std::array<double, 9> c = moments.area > 0 ? moments.covariance : point_covariance(points);
  Eigen::Matrix3d matrix;
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 3; ++k) matrix(j, k) = c[3 * j + k];
  }
  // Eigenvalues come in increasing order: the largest variance becomes axis 0.
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(matrix);
  Obb box;
  for (int a = 0; a < 3; ++a) {
    const Eigen::Vector3d v = solver.eigenvectors().col(2 - a);
    box.axis[a] = Vec3{v(0), v(1), v(2)};
  }
  box.axis[2] = cross(box.axis[0], box.axis[1]);  // right-handed, and orthonormal to rounding
  Vec3 center{0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Vec3& p : points) {
      const double d = dot(box.axis[a], p);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
    box.half[a] = 0.5 * (hi - lo);
    center = center + 0.5 * (lo + hi) * box.axis[a];
  }
  box.center = center;
  return box;
}

Rss fit_rss(const std::vector<Vec3>& points) {
  return fit_rss(fit_obb(points));
}

Rss fit_rss(const Obb& box) {
  int thin = 0;
  for (int a = 1; a < 3; ++a) {
    if (box.half[a] < box.half[thin]) thin = a;
  }
  const int u = (thin + 1) % 3, v = (thin + 2) % 3;  // cyclic, so axis[0] x axis[1] = axis[2]
  Rss r;
  r.center = box.center;
  r.axis = {box.axis[u], box.axis[v], box.axis[thin]};
  r.half = {box.half[u], box.half[v]};
  r.radius = box.half[thin];
  return r;
}

}  // namespace kdop
