#pragma once
// Vertices of a k-DOP given by its k/2 intervals (the halfspace intersection that tumbling by
// the approximation method needs; Klosowski et al. 1998, section 4.1, method II).
//
// Every vertex of the polytope is the intersection of three of its planes with independent
// normals that satisfies all other constraints. With k <= 26 there are at most 286 direction
// triples x 8 sides, so we enumerate them directly: exact in its combinatorics up to a
// tolerance, robust for flat DOPs (zero-width slabs, coincident and redundant planes), and
// fast enough for a builder (measured in bench/). Candidates violating a constraint by no more
// than the tolerance are kept, so the result is a superset of the true vertices, never less.
#include <cstdint>
#include <vector>

#include "geometry/dop.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct DopVertices {
  std::vector<Vec3> points;
  double error_bound = 0;  // max-norm distance by which a true vertex may differ from the points
};

// lo/hi: k/2 intervals along DopShape<K>::directions(); requires lo[j] <= hi[j].
template <int K>
DopVertices dop_vertices(const double* lo, const double* hi);

extern template DopVertices dop_vertices<6>(const double*, const double*);
extern template DopVertices dop_vertices<8>(const double*, const double*);
extern template DopVertices dop_vertices<14>(const double*, const double*);
extern template DopVertices dop_vertices<18>(const double*, const double*);
extern template DopVertices dop_vertices<26>(const double*, const double*);
extern template DopVertices dop_vertices<32>(const double*, const double*);

}  // namespace kdop
