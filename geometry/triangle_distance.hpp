#pragma once
// The distance between two closed triangles in space, and a closest pair of points.
//
// Intersecting triangles (decided exactly by triangles_intersect, geometry/tri_tri.hpp) are at
// distance 0. Otherwise a closest pair has a corner of one triangle against the other triangle,
// or an edge of one against an edge of the other (Gottschalk et al. 1996 and PQP reduce the
// triangle distance to these 6 point-triangle and 9 segment-segment distances), so the distance
// is the least of those 15. Degenerate triangles (segments, points) are handled.
#include "geometry/tri_tri.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct TrianglePairDistance {
  double distance = 0;
  Vec3 on_a, on_b;  // a closest pair: on_a in triangle a, on_b in triangle b (a common point,
                    // up to rounding, where they intersect)
};

TrianglePairDistance triangle_distance(const Triangle& a, const Triangle& b);

// An upper bound of |triangle_distance(a, b).distance - true distance| from rounding, for
// triangles whose coordinates are at most `magnitude` in absolute value (2^-40 magnitude; see
// triangle_distance.cpp for why).
double triangle_distance_error(double magnitude);

// The closest point of the closed segment [p, q] to the closed segment [r, s] and vice versa
// (either may be a point).
double segment_distance(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s, Vec3& on_pq,
                        Vec3& on_rs);

// The closest point of the closed triangle t (possibly degenerate) to p.
Vec3 closest_point_on_triangle(const Vec3& p, const Triangle& t);

}  // namespace kdop
