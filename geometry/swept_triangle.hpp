#pragma once
// A triangle swept by a translation: the prism conv(f, g) of triangle f and its translate g, the
// set of all f + s (g - f), s in [0, 1]. The leaf test of pure-translation motion checks
// (engine/proximity_query.hpp, sweep_within): a static triangle touches the moving one at some
// time exactly when it touches the prism.
#include <array>

#include "geometry/tri_tri.hpp"

namespace kdop {

// The prism's boundary: its two caps and two triangles per side (each side the parallelogram
// f_i f_j g_j g_i). Degenerate faces (a translation along an edge, or none) are segments or
// points, which the triangle tests accept.
std::array<Triangle, 8> prism_faces(const Triangle& f, const Triangle& g);

// Whether triangle e meets the prism swept by f translating to g, decided by exact predicates on
// these coordinates: e meets one of the 8 faces, or lies inside the prism, which its corner p0
// then is: some translate f + s (g - f) holds p0, i.e. the segment from p0 back by the
// translation (g.p0 - f.p0, rounded once) meets f.
bool triangle_meets_sweep(const Triangle& e, const Triangle& f, const Triangle& g);

// The distance from triangle e to that prism: 0 when e meets it, else the least distance to its
// faces (geometry/triangle_distance.hpp).
double sweep_distance(const Triangle& e, const Triangle& f, const Triangle& g);

}  // namespace kdop
