#pragma once
// Analytic test and demo shapes, tessellated into triangle meshes. Deterministic for a given
// seed on every platform (own uniform draw from std::mt19937_64, no <random> distributions).
#include <cstdint>
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

// Latitude-longitude sphere: 2 * slices * (stacks - 1) triangles.
Mesh make_sphere(Vec3 center, double radius, int slices, int stacks);

// Torus around the z axis with tube radius r; `deform` > 0 wobbles both radii so the surface is
// not symmetric (the paper's "deformed torus"). 2 * major * minor triangles.
Mesh make_torus(Vec3 center, double major_radius, double minor_radius, int major, int minor,
                double deform);

// Stalagmite-like obstacles: `count` random cones (segments-gon, pointed) rising from the floor
// z = box_lo.z and hanging from the ceiling z = box_hi.z, inside [box_lo, box_hi].
// segments * 2 triangles per cone (side + base fan).
Mesh make_stalagmites(Vec3 box_lo, Vec3 box_hi, int count, int segments, std::uint64_t seed);

// `count` random tetrahedra (4 triangles each) of edge length about `size` in the box.
Mesh make_tetrahedra(Vec3 box_lo, Vec3 box_hi, int count, double size, std::uint64_t seed);

// Ellipsoid with semi-axes `radii` along x, y and z: a latitude-longitude sphere whose poles lie
// on the longest axis, so the rings wrap the long direction. Closed, triangles facing outward;
// 2 * slices * (stacks - 1) triangles.
Mesh make_ellipsoid(Vec3 center, Vec3 radii, int slices, int stacks);

// A closed axe-like polyhedron, like the k-DOP paper's "Swept" object (section 5.1): a box handle
// along z (z from -0.7 to 0.55) and a wedge blade along +x at the top, 0.06 thick at the handle and
// sharp at its cutting edge, an arc of `edge_segments` segments reaching x = 0.47. Two closed
// parts with outward triangles, overlapping where the blade enters the handle;
// 14 + 6 * edge_segments triangles.
Mesh make_axe(int edge_segments);

// A closed airplane-like model, like the paper's 747 (section 5.2): an ellipsoidal fuselage of
// `length` along x (nose at +x, centred at the origin), swept wings along y, two stabilizers, a
// fin up z and four engines, each a closed ellipsoid with outward triangles (they overlap where
// they join). About `triangles` triangles: within 3% from 1,500 up; each of the 10 parts keeps
// at least 16.
Mesh make_airplane(double length, int triangles);

// The box [lo, hi]: closed, triangles facing outward (12 triangles).
Mesh make_box(Vec3 lo, Vec3 hi);

// A closed block whose top is a height field: over the grid xs (increasing) by ys (increasing)
// the top vertex (xs[i], ys[j]) is at heights[j * xs.size() + i], the bottom is the plane
// z = base_z (every height must be above it), and the four sides are vertical. Top and bottom
// are the grid's cells split into two triangles, the sides one quad per boundary edge, all facing
// outward, so the mesh is a solid (closed, consistently oriented): 4 (nx - 1)(ny - 1) +
// 4 (nx - 1) + 4 (ny - 1) triangles for nx = xs.size(), ny = ys.size() (both at least 2).
// Machined parts for NC checks: a floor with a pocket, a terrain-like surface.
Mesh make_heightfield_block(const std::vector<double>& xs, const std::vector<double>& ys,
                            double base_z, const std::vector<double>& heights);

// Appends `part` to `mesh` (indices shifted).
void append_mesh(Mesh& mesh, const Mesh& part);

// A copy of `m` with every coordinate multiplied by `factor` (scaled about the origin).
Mesh scaled_mesh(const Mesh& m, double factor);

// A uniformly random rotation (a quaternion drawn uniformly in the unit 4-ball, by rejection,
// then normalized) and a uniform translation in the box [lo, hi].
Pose random_pose(std::uint64_t& state, Vec3 lo, Vec3 hi);

// Uniform double in [0, 1) from a 64-bit generator state (splitmix64 step).
double next_uniform(std::uint64_t& state);

}  // namespace kdop
