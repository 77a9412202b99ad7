#pragma once
// What every flying hierarchy keeps about its object as a whole, in the object's frame: the
// largest distance of a corner from the origin (the leaf prefilter's error bounds scale with it,
// engine/leaf_test.hpp) and a bounding sphere (the query's first, cheapest test).
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

// Every corner the triangles use, once (unreferenced vertices do not matter).
std::vector<Vec3> referenced_corners(const Mesh& mesh);

struct ObjectSphere {
  double corner_radius = 0;  // largest |p| over the corners, rounded up
  Vec3 center;               // centre of the corners' box
  double radius = 0;         // largest |p - center|, rounded up
};

ObjectSphere object_sphere(const std::vector<Vec3>& corners);

}  // namespace kdop
