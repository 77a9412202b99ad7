#pragma once
// Oriented bounding boxes fitted as in Gottschalk, Lin and Manocha 1996
// (gottschalk1996-obbtree.txt, section 4): the box's axes are the eigenvectors of the covariance of
// the convex hull's surface, taken with uniform density and integrated in closed form over its
// triangles, so the fit depends neither on how densely the mesh is sampled nor on points inside the
// hull. The extents are the points' projections onto the axes.
//
// Per hull triangle (p, q, r) with area A and centroid m, the second moment is
//   integral of x_j x_k dA = A / 12 (9 m_j m_k + p_j p_k + q_j q_k + r_j r_k),
// and the covariance is the area-weighted sum over the hull, divided by the total area, less the
// product of the surface's mean. A set with no 3D hull (flat, collinear, one point) falls back to
// the covariance of its points.
#include <array>
#include <vector>

#include "geometry/vec3.hpp"

namespace kdop {

struct Obb {
  Vec3 center;
  std::array<Vec3, 3> axis;    // orthonormal, right-handed; axis[0] the largest variance
  std::array<double, 3> half;  // half extents along the axes (0 where the points are flat)
};

// Area, mean and covariance (row-major 3 x 3) of a surface given as triangles, uniform density.
struct SurfaceMoments {
  double area = 0;
  Vec3 mean;
  std::array<double, 9> covariance{};
};
SurfaceMoments surface_moments(const std::vector<std::array<Vec3, 3>>& triangles);

// The box of `points` (at least one) in the frame of their hull's surface covariance.
Obb fit_obb(const std::vector<Vec3>& points);

// The box of `points` in the frame of the covariance of `surface` (Gottschalk et al., section 4,
// before the hull: the triangles themselves), for small nodes, where a qhull run costs far more
// than the fit and the hull's surface differs little from the triangles'.
Obb fit_obb(const std::vector<Vec3>& points, const std::vector<std::array<Vec3, 3>>& surface);

// Nodes with at most kHullFitMinCorners distinct corners are fitted by their triangles' surface,
// and so are nodes with more than kHullFitMaxCorners: there qhull's run per node made an OBB build
// over 4 times slower (a 1,000,000-triangle sphere, 2 threads: 28 s with hulls at every size,
// 15 s above 4,096 corners, 6.6 s with none; 10,001,406 triangles 460 s), while the boxes of large
// nodes of fine meshes change little: on the benchmark's nested spheres and tori the cap changed
// only spheres-20000-a0.3 (N_v 362 -> 355), and no hull at all raised N_v by 0.1-2%.
inline constexpr std::size_t kHullFitMinCorners = 64;
inline constexpr std::size_t kHullFitMaxCorners = 4096;

// A rounded oriented box (rectangle swept sphere, oriented-rounded-bv.txt): the points' OBB with
// its thinnest extent turned into the radius, the other two spanning the rectangle. Every point
// is within `radius` of the rectangle (its offset along the thin axis is at most that extent).
// Looser than a fit that also shrinks the rectangle where the rounded corners reach; it is the
// paper's first step, from the same PCA frame.
struct Rss {
  Vec3 center;
  std::array<Vec3, 3> axis;    // the rectangle spans axis[0], axis[1]; axis[2] is its normal
  std::array<double, 2> half;  // the rectangle's half lengths
  double radius = 0;
};
Rss fit_rss(const std::vector<Vec3>& points);
Rss fit_rss(const Obb& box);  // the same from the points' box

}  // namespace kdop
