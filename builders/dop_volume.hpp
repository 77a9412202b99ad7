#pragma once
// The exact volume (and surface area) of a k-DOP given its k/2 intervals, for the volume
// splitting rules (Klosowski et al. 1998, section 3.3.4 and footnote 4): the halfspace
// intersection by duality, then the volume by tetrahedralization.
//
//   1. Centre: the k planes n_j . p <= b_j are moved so a point c strictly inside is the
//      origin; each has slack s_j = b_j - n_j . c > 0.
//   2. Duality: plane j becomes the dual point n_j / s_j. The convex hull of the dual points
//      (an incremental hull of at most 26 points with exact orientation tests, in fixed-size
//      arrays) has one vertex per non-redundant plane (a face of the DOP) and one facet per
//      vertex of the DOP: facet plane m . d = e gives the DOP vertex m / e.
//   3. Tetrahedralization: every hull edge is an edge of the DOP, shared by the faces of its
//      two dual end points; each face is fanned from the foot of the perpendicular on its
//      plane, and every triangle of a fan makes a tetrahedron with the origin.
//
// Redundant planes (dual points inside the hull) drop out; coincident planes and vertices where
// more than three planes meet only give zero-length edges and zero-volume tetrahedra. A flat
// DOP (no interior point) has volume 0 and the area of both sides of its flat face is not
// computed: area is 0 too. Allocation-free; measured in bench/build_bench.cpp.
#include "geometry/dop.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct DopMeasure {
  double volume = 0;
  double area = 0;  // surface area (0 for a flat DOP)
};

// lo/hi: k/2 intervals along DopShape<K>::directions(). `inside` must lie in the closed DOP,
// e.g. the mean of the points it bounds; it is moved to the middle of chords through it before
// use, so a point on the boundary is fine. An empty DOP (lo > hi on a slab) measures 0.
template <int K>
DopMeasure dop_measure(const double* lo, const double* hi, const Vec3& inside);

template <int K>
double dop_volume(const double* lo, const double* hi, const Vec3& inside) {
  return dop_measure<K>(lo, hi, inside).volume;
}

extern template DopMeasure dop_measure<6>(const double*, const double*, const Vec3&);
extern template DopMeasure dop_measure<8>(const double*, const double*, const Vec3&);
extern template DopMeasure dop_measure<14>(const double*, const double*, const Vec3&);
extern template DopMeasure dop_measure<18>(const double*, const double*, const Vec3&);
extern template DopMeasure dop_measure<26>(const double*, const double*, const Vec3&);
extern template DopMeasure dop_measure<32>(const double*, const double*, const Vec3&);

}  // namespace kdop
