#pragma once
// How an object moves between its waypoints (io/trajectory_file.hpp): translation by linear
// interpolation and rotation by spherical linear interpolation (slerp) of the unit quaternions,
// along the shorter arc, both linear in time. Before its first waypoint and after its last an
// object rests there. A segment whose two rotations are equal (q or -q) keeps that rotation
// exactly: a pure translation stays a pure translation.
//
// Slerp turns at a constant rate about one axis, so over a time h within a segment a point at
// distance r from the object's origin moves at most h (|x1 - x0| + theta r) / (t1 - t0), x0 and
// x1 the segment's end translations and theta its rotation angle (twice the quaternions' arc).
// Certified continuous checks rest on that bound (verify/path_check.hpp).
#include <array>
#include <cstddef>
#include <vector>

#include "geometry/pose.hpp"
#include "io/trajectory_file.hpp"

namespace kdop {

struct MotionState {
  std::array<double, 3> translation{};
  std::array<double, 4> rotation{1, 0, 0, 0};  // unit quaternion w, x, y, z
};

// The rotation angle from unit quaternion a to b, in [0, pi]: 4 atan2(|a - b'|, |a + b'|) with
// b' = +-b on a's side, accurate also for tiny angles (where 2 acos(|a.b|) loses half the digits).
double rotation_angle(const std::array<double, 4>& a, const std::array<double, 4>& b);

// True if unit quaternions a and b are the same rotation (b = a or b = -a).
bool same_rotation(const std::array<double, 4>& a, const std::array<double, 4>& b);

// The state at time t on the segment from waypoint a to waypoint b (a.t <= t <= b.t).
MotionState interpolate(const Waypoint& a, const Waypoint& b, double t);

// The state at time t of a path (waypoints with increasing t, at least one).
MotionState state_at(const std::vector<Waypoint>& path, double t);

// The index i of the segment [path[i].t, path[i + 1].t] holding t (the last segment for t past
// the end, 0 before the start); path has at least 2 waypoints.
std::size_t segment_at(const std::vector<Waypoint>& path, double t);

Pose to_pose(const MotionState& s);

// A bound of how fast any point within distance `radius` of the object's origin moves on the
// segment from a to b (length per unit time), rounded up; 0 for a resting segment.
double speed_bound(const Waypoint& a, const Waypoint& b, double radius);

// a^-1 b: the pose of b's frame in a's frame (both rigid).
Pose relative_pose(const Pose& a, const Pose& b);

}  // namespace kdop
