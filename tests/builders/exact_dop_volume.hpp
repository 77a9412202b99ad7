#pragma once
// The exact volume of a k-DOP, in rational arithmetic (GMP), as the test oracle where qhull is
// not exact enough: where four planes meet at a vertex (the 8-DOP of a few points), qhull's hull
// of the enumerated vertices and its halfspace intersection each miss by 1e-9 of the volume.
//
// Brute force: every triple of the k planes solved exactly, the solutions inside every halfspace
// kept (each vertex once); each face's vertices sorted around it by exact orientation and fanned
// into tetrahedra with the mean vertex. Slow (C(k, 3) rational solves), for tests only.
namespace kdop::test {

template <int K>
double exact_dop_volume(const double* lo, const double* hi);

}  // namespace kdop::test
