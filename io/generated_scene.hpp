#pragma once
// Deterministic, seedable benchmark scenes after the k-DOP paper's flights (Klosowski et al.
// 1998, section 5) and Zachmann's DOP-tree benchmark (Zachmann 1998, section 5): an environment
// at identity, a moving object and its path of poses. kdop-bench runs them through kdop and FCL.
//
// Families at scale 1.0 (triangles: environment / object; poses per scene):
//   torus      1   100,000 stalagmites / 20,000 deformed torus; 2,000 billiard steps
//   swept      1   40,000 (10,000 tetrahedra) / 38 axe; 1,000 steps, 0 contacts
//   obstacles  1   100,000 (25,000 disjoint tetrahedra) / 14,836 airplane; 10,000 steps
//   spheres    18  2,000 or 20,000 sphere / its copy scaled by 1 - alpha, 9 alphas from 0.55
//                  to 0.0001; 200 poses (identity + rotations), 0 contacts
//   tori       6   12,544 torus / the same torus at distance d in {0.7, 1.0, 1.5, 1.9, 2.0,
//                  2.5}; 2,000 steps (one revolution)
// A scale s < 1 multiplies every count above (triangles, tetrahedra, cones, steps, poses) by
// about s, with small floors; rooms shrink with their obstacle counts so the obstacle density,
// and with it the fraction of colliding poses, stays about the same. The axe keeps its 38
// triangles. Scene names do not depend on the scale ("spheres-2000-a0.01" names the 2,000
// triangle variant at any scale).
//
// The same family, seed and scale give bit-identical meshes and poses: random numbers come from
// next_uniform (splitmix64), paths are built from +, -, *, / and sqrt only, and the billiard
// paths' contact decisions come from kdop's exact queries. The analytic meshes call std::sin and
// std::cos, so bit-identity across C libraries also needs those to agree (they are correctly
// rounded in glibc for all but rare arguments).
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"

namespace kdop {

struct GeneratedScene {
  std::string name;         // "torus", "swept", "obstacles", "spheres-2000-a0.01", "tori-d1.5"
  std::string family;       // one of scene_families()
  Mesh environment;         // at identity
  Mesh object;              // moving
  std::vector<Pose> poses;  // the object's poses, in order (a path)
  std::string description;  // one line
};

struct SceneOptions {
  std::uint64_t seed = 1;
  // 1.0 = full size; smaller values shrink triangle counts and steps proportionally, for quick
  // runs and tests. Must lie in (0, 16].
  double scale = 1.0;
};

// The scenes of one family, in a fixed order. Throws std::invalid_argument for an unknown family
// (the message lists the valid ones) or a scale outside (0, 16]; std::runtime_error if a
// scene cannot be completed (e.g. no free start pose), which no seed has been seen to cause.
std::vector<GeneratedScene> generate_scenes(const std::string& family, const SceneOptions& options);

// "torus", "swept", "obstacles", "spheres", "tori".
std::vector<std::string> scene_families();

}  // namespace kdop
