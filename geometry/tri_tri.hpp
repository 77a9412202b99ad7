#pragma once
// Exact intersection test of two closed triangles in 3D (Klosowski et al. 1998 section 4.4 uses
// Held's test; ours is decided by exact orientation predicates only, so every case is exact):
// crossing, touching at a vertex or an edge (touching counts), coplanar overlap, degenerate
// triangles (segments, points) and duplicates.
//
// Method: two closed convex sets T1, T2 intersect iff an edge of one meets the other (the
// intersection is convex; an endpoint of it lies on the boundary of T1 or of T2, and in the
// coplanar containment case every edge of the inner triangle meets the outer one). So the test
// reduces to closed segment-triangle tests, decided by orient3d, or by orient2d in a projection
// that is injective on the common plane.
#include "geometry/vec3.hpp"

namespace kdop {

struct Triangle {
  Vec3 p0, p1, p2;
};

// True iff the closed triangles share at least one point. Pairs that cross each other's planes
// with no corner on the other plane (the common case) take Guigue and Devillers' test: two
// orientations after the six plane signs.
bool triangles_intersect(const Triangle& t1, const Triangle& t2);

// The same answer from the edge tests alone (no Guigue-Devillers shortcut); for tests and
// benchmarks.
bool triangles_intersect_by_edges(const Triangle& t1, const Triangle& t2);

// True iff the closed segment [p, q] and the closed triangle t share a point (t may be
// degenerate; p may equal q).
bool segment_triangle_intersect(const Vec3& p, const Vec3& q, const Triangle& t);

}  // namespace kdop
