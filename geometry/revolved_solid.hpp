#pragma once
// NC tools as analytic solids of revolution about the spindle axis: +z, tip at the origin of the
// tool's frame (issue 7). A 3-axis move is a pure translation of the tool, so a tool at machine
// position p occupies solid + p, and along a linear move from p0 to p1 it sweeps solid + [p0, p1].
//
// Every tool part (cutter, shank, holder) is a union of convex revolved primitives of one kind,
// the rounded frustum: the convex hull of two coaxial circles (radius r0 at height z0, r1 at z1,
// z0 <= z1), Minkowski-summed with a ball of radius `rounding`. With rounding 0 it is a frustum
// (a cylinder, a cone, a disc, a segment of the axis); with z0 = z1 and r0 = r1 = a it is a
// rounded disc, a bull-nose corner (a = 0: a ball). Its support function (the largest n . x over
// the solid) is closed form:
//   h(n) = max(r0 |n_xy| + z0 n_z, r1 |n_xy| + z1 n_z) + rounding |n|,
// the hull of two circles taking its maximum on one of them (a linear function over a convex
// hull peaks at a generating point), the circle of radius r at height z giving r |n_xy| + z n_z,
// and a Minkowski sum adding support functions. Swept along [p0, p1] it becomes
// h(n) + max(n . p0, n . p1), again by the Minkowski sum.
//
// Lengths are in mm, like everything the NC checks read (io converts units before building).
#include <optional>
#include <span>
#include <vector>

#include "geometry/vec3.hpp"

namespace kdop {

// The convex hull of the circles (r0 at z0) and (r1 at z1) about the z axis, z0 <= z1, radii
// >= 0, dilated by a ball of radius `rounding` >= 0.
struct RevolvedPrimitive {
  double z0 = 0, r0 = 0;
  double z1 = 0, r1 = 0;
  double rounding = 0;
};

// A frustum from radius r0 at z0 to r1 at z1 (a cylinder for r0 = r1, a cone for a zero radius).
RevolvedPrimitive make_frustum(double z0, double r0, double z1, double r1);

// A disc of radius a at height zc (normal +z), Minkowski-summed with a ball of radius rho: a
// bull-nose corner; a = 0 is a ball of radius rho centred on the axis.
RevolvedPrimitive make_rounded_disc(double a, double zc, double rho);

// A union of convex primitives, in the tool's frame (plain data; empty means no solid).
struct RevolvedSolid {
  std::vector<RevolvedPrimitive> parts;
};

// The three parts of a tool assembly the checks tell apart.
struct ToolSolids {
  RevolvedSolid cutter, shank, holder;
};

enum class CutterShape { kFlat, kBall, kBullNose, kCone, kComposite };

// One frustum of a holder, listed upward from the holder face (like common CAM tool libraries).
struct HolderSegment {
  double height = 0;
  double lower_diameter = 0, upper_diameter = 0;
};

// A point of a piecewise-linear revolved profile: radius `r` at height `z`.
struct ProfilePoint {
  double z = 0, r = 0;
};

// A tool from plain parameters, in mm (the tool-library JSON's fields; io reads and converts).
struct ToolParameters {
  CutterShape shape = CutterShape::kFlat;
  double diameter = 0;        // cutting diameter, 2R
  double corner_radius = 0;   // bull-nose only: 0 < r <= R
  double included_angle = 0;  // cone only: degrees, in (0, 180)
  double tip_diameter = 0;    // cone only: flat tip (0: pointed), below the diameter
  double cutting_length = 0;  // the cutter spans z in [0, cutting_length]
  // composite only: the cutter's outline from the tip up (z from 0, increasing), a convex section
  // whose radius never decreases upward; diameter and cutting_length are its top's.
  std::vector<ProfilePoint> profile;
  double shank_diameter = 0;  // the shank spans z in [cutting_length, length]; 0: no shank
  double length = 0;          // tip to holder face
  std::vector<HolderSegment> holder;
};

// The cutter of a tool, by shape (see ToolParameters; R = diameter / 2):
// - flat: cylinder radius R over [0, L] (L = cutting_length);
// - ball: ball radius R centred at z = R, and a cylinder radius R over [R, L];
// - bull-nose (corner radius r): rounded disc radius R - r at z = r with rounding r, and a
//   cylinder radius R over [r, L];
// - cone: frustum from the tip radius at 0 growing at tan(angle / 2) up to R (cut off at L if
//   L is lower), and a cylinder radius R above it up to L;
// - composite: one frustum per segment of the profile (tapers, a flat or pointed tip, a chamfer:
//   any convex outline that widens upward; a curved outline is given by points around it).
// The ball and bull-nose corners span z up to 2r (inside radius R), above L if L < 2r: the
// cutter is then slightly larger than its cutting length, never smaller.
// Throws std::invalid_argument naming the parameter for non-finite, negative or inconsistent
// values (corner radius above R, an angle outside (0, 180), a tip wider than the diameter,
// cutting length not positive or below the corner radius; a composite profile that is not convex,
// narrows upward, or whose top is not the diameter and cutting length).
RevolvedSolid make_cutter(const ToolParameters& tool);

// All three parts: the cutter, the shank (cylinder over [cutting_length, length], none if the
// shank diameter is 0 or length <= cutting_length) and the holder (one frustum per segment,
// stacked upward from z = length). Throws std::invalid_argument as make_cutter, and for negative
// holder sizes or a length below 0.
ToolSolids make_tool(const ToolParameters& tool);

// Composite cutter profiles: at least 2 and at most kMaxProfilePoints points, finite sizes, from
// z = 0 with increasing heights, radii that never decrease, a convex section (slopes that never
// increase), a top radius > 0. Throws std::invalid_argument otherwise.
inline constexpr std::size_t kMaxProfilePoints = 1000;
void check_composite_profile(std::span<const ProfilePoint> profile);

// A solid from a piecewise-linear profile (points with non-decreasing z, radii >= 0): one
// frustum per consecutive pair, for composite cutters. Throws std::invalid_argument otherwise.
RevolvedSolid make_profile_solid(std::span<const ProfilePoint> profile);

// Support functions: the largest n . x over the solid (n need not be a unit vector), in the
// tool's frame, or swept along the translation [from, to]. For a union, the maximum over its
// parts (the support function of its convex hull). -infinity for an empty solid.
double support_value(const RevolvedPrimitive& p, Vec3 n);
double support_value(const RevolvedPrimitive& p, Vec3 from, Vec3 to, Vec3 n);
double support_value(const RevolvedSolid& s, Vec3 n);
double support_value(const RevolvedSolid& s, Vec3 from, Vec3 to, Vec3 n);

// A point of the primitive where n . x reaches support_value (up to rounding), for GJK. For
// n_xy = 0 it is a rim point at angle 0; for n = 0 a point of the primitive.
Vec3 support_point(const RevolvedPrimitive& p, Vec3 n);
Vec3 support_point(const RevolvedPrimitive& p, Vec3 from, Vec3 to, Vec3 n);

// The lowest height of the solid at distance d >= 0 from the axis, in the tool's frame; +infinity
// where the solid does not reach (d beyond max(r0, r1) + rounding). The primitive's meridian
// section is the frustum's trapezoid dilated by a disc (the nearest point of a revolved body lies
// in the same meridian plane), so the lowest point is a flat-bottom or a cone-side candidate in
// closed form. Convex and even in the meridian plane, so non-decreasing in d. For a union, the
// least over its parts.
double lowest_z_at(const RevolvedPrimitive& p, double d);
double lowest_z_at(const RevolvedSolid& s, double d);

// How far from the axis the solid reaches: max(r0, r1) + rounding over its parts (0 if empty).
double reach(const RevolvedSolid& s);

// The primitive eroded by s >= 0 (the points whose ball of radius s stays inside it), exactly: a
// frustum with a rounding is the frustum with less rounding while s <= rounding; beyond, the
// frustum is an intersection of two planes and a cone, each moving in by the rest (the cone's
// radius by that times sqrt(1 + slope^2)). nullopt when nothing is left.
std::optional<RevolvedPrimitive> eroded(const RevolvedPrimitive& p, double s);

// The union of the parts' erosions: inside the union's erosion (exactly it for one part).
RevolvedSolid eroded_parts(const RevolvedSolid& solid, double s);

// The solid's highest point above its tip: max(z0, z1) + rounding over its parts (-infinity if
// empty).
double highest_z(const RevolvedSolid& s);

// An axis-aligned box, closed.
struct AxisBox {
  Vec3 lo, hi;
};

// Conservative bounding boxes: every bound rounded outward, so the box contains the exact solid
// (the primitive is inside radius max(r0, r1) + rounding of the axis and z in
// [z0 - rounding, z1 + rounding]). Empty solids give lo = +inf, hi = -inf.
AxisBox bounding_box(const RevolvedPrimitive& p);
AxisBox bounding_box(const RevolvedSolid& s);
AxisBox bounding_box(const RevolvedSolid& s, Vec3 from, Vec3 to);

// The largest distance of a point of the solid from the tool tip (the origin of its frame),
// rounded up: the solid lies in the ball of that radius about the tip. 0 for an empty solid.
double bounding_radius(const RevolvedSolid& s);

struct BoundingBall {
  Vec3 centre;
  double radius = 0;
};

// A ball holding the solid swept along [from, to]: centred at the rounded midpoint, radius
// bounding_radius + |to - from| / 2 plus the midpoint's rounding, rounded up.
BoundingBall swept_bounding_ball(const RevolvedSolid& s, Vec3 from, Vec3 to);

}  // namespace kdop
