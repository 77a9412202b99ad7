#pragma once
// Exact orientation predicates on double coordinates (Shewchuk-style): a floating-point
// evaluation with a forward error bound decides the sign when it can; otherwise the determinant
// is evaluated exactly with expansion arithmetic (sums of non-overlapping doubles). The result
// is the sign of the exact real determinant of the given doubles: -1, 0 or +1. A NaN or
// infinite coordinate has no orientation and gives 0 (the readers reject such input; a crafted
// hierarchy file may still carry it, and must not make the exact stage trap).
#include "geometry/vec3.hpp"

namespace kdop {

// Sign of the 3x3 determinant with rows a-d, b-d, c-d, i.e. of (a-d).((b-d)x(c-d)); zero iff
// the four points are coplanar.
int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// Sign of (ax-cx)(by-cy) - (ay-cy)(bx-cx): +1 iff a, b, c turn counter-clockwise; 0 iff collinear.
int orient2d(double ax, double ay, double bx, double by, double cx, double cy);

// The same, always through the exact path (no filter); for tests and benchmarks.
int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
int orient2d_exact(double ax, double ay, double bx, double by, double cx, double cy);

}  // namespace kdop
