#pragma once
// The cutting part of an NC tool as one convex body of revolution, and its erosion, for gouge
// depths (issue 7).
//
// Gouge depth: a cutter at a position gouges the finished part by more than T when some point of
// the part lies at least T inside the cutter, that is when the cutter eroded by T (the points
// whose ball of radius T stays inside it, its inner parallel body) still meets the part. The
// depth is the largest such T. Along a move the depth is the largest over its positions, so the
// test body is the eroded cutter swept along the move (not the sweep eroded: a point deep inside
// the swept region but never deep inside the cutter at one instant is no gouge).
//
// Every cutter shape is convex and of one form:
//   B = {(r, z): z_lo <= z <= z_hi, r <= min(r_max, a_k + b_k z for every cone k)} (+)
//       ball(rounding),
// r the distance from the axis, (+) the Minkowski sum. Its erosion by s is of the same form:
// a Minkowski sum with a ball loses s of its rounding, B = K (+) ball(rho) eroding to
// K (+) ball(rho - s) for s <= rho; beyond that K itself erodes, and the erosion of an
// intersection of convex sets is the intersection of their erosions: each bounding plane moves
// in by s, the cylinder's radius by s and the cone's surface by s along its normal, that is its
// radius by s sqrt(1 + b^2).
//
// The shapes (R = diameter / 2, L = cutting length):
//   flat:  z in [0, L], r <= R;
//   ball:  z in [R, L], r <= 0, rounding R (the axis segment swept by the ball);
//   bull:  z in [r, L], r <= R - r, rounding r (corner radius r);
//   cone:  z in [0, L], r <= min(R, tip + z tan(angle / 2));
//   composite: z in [0, L], r <= each segment's line (a convex outline: the least of its lines).
// Every cone widens upward (b_k >= 0), so each column of the body within its reach runs from its
// lowest point up to at least z_hi.
// Ball and bull-nose bodies are capped at L: (core (+) ball(rounding)) intersected with z <= z_cap,
// z_cap = L, as the cutter ends flat at its cutting length (uncapped, the rounding put a dome of
// the corner radius above the flutes, and material there that only a narrower shank passes was
// reported as a gouge). The erosion of an intersection of convex sets is the intersection of
// their erosions, so the cap erodes to z <= z_cap - s. As primitives, a capped body with a
// cylindrical core (every capped shape) is the rounded disc at z_lo and the cylinder of radius
// r_max + rounding from z_lo up to min(z_hi, z_cap); where the cap is below z_lo + rounding (a
// cutting length under the diameter, or a deep erosion) the rounded disc's upper half stays
// uncut: larger than the body there, never smaller, so depths are never underestimated.
#include <limits>
#include <optional>
#include <vector>

#include "geometry/revolved_solid.hpp"

namespace kdop {

// A cone's radius a + b z (b >= 0).
struct CutterCone {
  double a = 0, b = 0;
};

struct CutterBody {
  double z_lo = 0, z_hi = 0;
  double r_max = 0;               // the cylinder's radius
  std::vector<CutterCone> cones;  // the body's radius at z is the least of them and r_max
  double rounding = 0;
  double z_cap = std::numeric_limits<double>::infinity();  // the body is cut at z <= z_cap

  double radius_at(double z) const;
  // Whether the cap cuts the rounded body (a body without rounding has its cap in z_hi).
  bool capped() const { return z_cap < z_hi + rounding; }
  // The plane every column of the body (as to_solid gives it) reaches up to: min(z_hi, z_cap).
  double top() const { return z_cap < z_hi ? z_cap : z_hi; }
};

// The cutter of `tool` as a convex body (see above). Throws std::invalid_argument as make_cutter.
CutterBody cutter_body(const ToolParameters& tool);

// The body eroded by s >= 0; nullopt when nothing is left (every point is less than s deep).
std::optional<CutterBody> eroded(const CutterBody& body, double s);

// The body as primitives for the distance queries: one frustum between consecutive breaks of its
// radius (where two of its lines cross), each with the rounding (the Minkowski sum distributes
// over the union).
RevolvedSolid to_solid(const CutterBody& body);

}  // namespace kdop
