#pragma once
// An exact oracle for the geometry predicates, independent of geometry/predicates.cpp and
// geometry/tri_tri.cpp: everything is evaluated in GMP rationals (every double converts exactly),
// and the triangle test uses a different algorithm (Minkowski difference) from the library's.
// Slow by design; for tests only.
#include "geometry/tri_tri.hpp"
#include "geometry/vec3.hpp"

namespace kdop::test {

// Same conventions as orient3d/orient2d in geometry/predicates.hpp: the sign (-1, 0, +1) of the
// exact determinant of the given doubles.
int orient3d_rational(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
int orient2d_rational(double ax, double ay, double bx, double by, double cx, double cy);

// True iff the closed triangles (possibly degenerate) share a point, decided exactly.
bool triangles_intersect_rational(const Triangle& t1, const Triangle& t2);

// The same search done the plain way (each subset solved separately in mpq, no shortcut);
// about 10x slower. Only to cross-check the fraction-free version above.
bool triangles_intersect_rational_reference(const Triangle& t1, const Triangle& t2);

}  // namespace kdop::test
