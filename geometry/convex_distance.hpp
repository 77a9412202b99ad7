#pragma once
// The distance between a triangle and a revolved tool primitive swept along a translation
// (geometry/revolved_solid.hpp), as certified bounds: GJK (Gilbert, Johnson and Keerthi 1988,
// "A fast procedure for computing the distance between complex objects in three-dimensional
// space") on the two support functions, the triangle's being its best corner.
//
// Each iteration gives two bounds of the exact distance d:
// - upper: the distance of a witness pair (a point of the triangle, a point of the swept
//   primitive, both convex combinations of support points), rounded up by a proved margin;
// - lower: the dual bound of a separating direction n: the swept primitive lies in
//   n . x <= h(n) and the triangle in n . x >= min_i n . t_i, so
//   d >= (min_i n . t_i - h(n)) / |n|, evaluated in closed form and shrunk by a proved margin
//   (see separation_lower_bound), never below 0.
// The bounds do not rest on the simplex sub-algorithm being accurate, only on the support
// functions and the margins: GJK merely supplies good directions and witnesses.
#include <limits>

#include "geometry/revolved_solid.hpp"
#include "geometry/tri_tri.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct DistanceOptions {
  // Stop once upper - lower <= tolerance (mm; issue 7's delta is 1e-6).
  double tolerance = 1e-6;
  // Stop as soon as the bounds decide the question "distance <= threshold?": upper <= threshold
  // or lower > threshold. -infinity: never (the plain distance).
  double threshold = -std::numeric_limits<double>::infinity();
  // A hard cap on each GJK run: the loop always ends; a capped result keeps valid (looser)
  // bounds. A long sweep whose run ends with its bounds apart is retried on its halves (see
  // gjk_split in convex_distance.cpp), at most 64 runs in all.
  int max_iterations = 100;
};

struct DistanceBounds {
  double lower = 0;                                        // the exact distance is >= lower (>= 0)
  double upper = std::numeric_limits<double>::infinity();  // the exact distance is <= upper
  Vec3 on_triangle, on_solid;  // the witness pair of `upper` (a common point when they meet)
  int iterations = 0;
  // upper - lower <= tolerance, or the threshold question was decided, or the simplex held the
  // origin (they meet, up to rounding; lower is then 0). False only after the iteration cap or
  // when rounding stopped progress with the bounds further apart than the tolerance.
  bool converged = false;
};

// Bounds of the distance from triangle t (possibly a segment or a point) to the primitive p
// translated along [from, to] (from == to: resting at `from`).
DistanceBounds triangle_sweep_distance(const Triangle& t, const RevolvedPrimitive& p, Vec3 from,
                                       Vec3 to, const DistanceOptions& options = {});

// The same for a union of primitives: lower and upper are the least over its parts (so
// upper - lower stays within the tolerance). An empty solid gives lower = upper = +infinity.
DistanceBounds triangle_sweep_distance(const Triangle& t, const RevolvedSolid& s, Vec3 from,
                                       Vec3 to, const DistanceOptions& options = {});

// Whether the swept solid may come within `delta` of the triangle: false only when that is
// disproved (a lower bound above delta). Distances within the tolerance above delta also answer
// true: they are the caller's "near" findings. Stops as soon as the answer is known.
bool may_touch(const Triangle& t, const RevolvedSolid& s, Vec3 from, Vec3 to, double delta,
               double tolerance = 1e-6);

// The certified dual bound for one direction n (any nonzero vector, pointing from the solid
// toward the triangle): (min_i n . t_i - h(n)) / |n| minus separation_margin, a lower bound of
// the distance (possibly negative: then it proves nothing).
double separation_lower_bound(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                              Vec3 n);

// The same without the margin: the value as rounded. Exposed so tests can show the margin is
// needed; never use it as a bound.
double separation_gap_as_rounded(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to,
                                 Vec3 n);

// The rounding margin of both bounds: 2^-44 (M + L), M the largest absolute coordinate of the
// triangle's corners, from and to, L = max(|z0|, |z1|) + max(r0, r1) + rounding (see
// convex_distance.cpp for the proof). About 5.7e-10 mm at 1e4 mm machine positions.
double separation_margin(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to);

}  // namespace kdop
