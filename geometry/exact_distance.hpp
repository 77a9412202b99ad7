#pragma once
// The distance of two closed triangles compared exactly with a threshold, for the pairs whose
// double distance (geometry/triangle_distance.hpp, within 2^-40 of the coordinates' magnitude of
// the true one) is too close to a clearance to say on which side of it they are.
//
// The squared distance is evaluated in GMP rationals (every double converts exactly): 0 where
// the exact triangles_intersect says the triangles meet, else the least of the 6 corner-face and
// 9 edge-edge squared distances (the reduction of Gottschalk et al. 1996 and PQP), each with its
// clamps decided exactly. Degenerate triangles (segments, points) are handled. Slow (35
// microseconds a pair, bench/triangle_distance_bench.cpp): the distance queries call it only inside
// that rounding band.
#include "geometry/tri_tri.hpp"

namespace kdop {

struct ExactDistanceSide {
  // The sign of (true distance - limit): -1 closer than the limit, 0 exactly at it, +1 farther.
  int side = 0;
  // The true distance rounded to within a few ulps, made consistent with `side`: at most the
  // limit when side <= 0 (the limit itself when 0), above it when side > 0. 0 only for
  // intersecting triangles (a positive distance that underflows is the least subnormal).
  double distance = 0;
};

// limit: >= 0. A NaN or infinite coordinate (or limit) has no distance: side +1, distance +inf
// (the readers reject such input; a crafted hierarchy file may still carry it).
ExactDistanceSide exact_distance_side(const Triangle& a, const Triangle& b, double limit);

}  // namespace kdop
