#pragma once
// Whether a point lies inside a closed triangle mesh (a solid: stock, part, fixture of an NC
// setup), by the parity of the triangles a vertical ray from it crosses upward, exactly.
//
// The ray's foot is perturbed symbolically by (e, e^2) in x and y (Edelsbrunner and Mücke,
// "Simulation of Simplicity", 1990): a point on a projected edge or corner falls to one side by
// a fixed rule, so every crossing is counted once and vertical triangles (a projection of zero
// area) never. Orientations come from the exact predicates (geometry/predicates.hpp); a point on
// a triangle is reported as on the boundary. The environment hierarchy prunes by its x, y and z
// slabs, which every k-DOP has (K = 8 has none: it tests every node).
#include "builders/dop_tree.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

enum class SolidSide { outside, inside, boundary };

template <int K>
SolidSide point_in_solid(const DopTree<K>& solid, Vec3 p);

}  // namespace kdop
