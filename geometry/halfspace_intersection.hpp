#pragma once
// The vertices of a k-DOP by the paper's method (Klosowski et al. 1998, section 4.1): the
// halfspace intersection through the convex hull of the dual points of its k planes, computed by
// qhull (Debian libqhull-dev, option 'H'). Each facet of the dual hull is a vertex of the DOP.
//
// kdop's builder enumerates plane triples instead (dop_vertices.hpp), which also handles flat
// DOPs; this is its independent oracle in tests and its peer in bench/ (docs/design-notes.md).
#include <optional>

#include "geometry/dop_vertices.hpp"

namespace kdop {

// lo/hi: k/2 intervals along DopShape<K>::directions(); `interior` must lie strictly inside
// every slab (so the DOP must be full-dimensional). nullopt if qhull fails (e.g. a flat DOP).
// error_bound is zero: qhull gives no bound on its rounding.
template <int K>
std::optional<DopVertices> dop_vertices_by_duality(const double* lo, const double* hi,
                                                   const Vec3& interior);

extern template std::optional<DopVertices> dop_vertices_by_duality<6>(const double*, const double*,
                                                                      const Vec3&);
extern template std::optional<DopVertices> dop_vertices_by_duality<8>(const double*, const double*,
                                                                      const Vec3&);
extern template std::optional<DopVertices> dop_vertices_by_duality<14>(const double*, const double*,
                                                                       const Vec3&);
extern template std::optional<DopVertices> dop_vertices_by_duality<18>(const double*, const double*,
                                                                       const Vec3&);
extern template std::optional<DopVertices> dop_vertices_by_duality<26>(const double*, const double*,
                                                                       const Vec3&);
extern template std::optional<DopVertices> dop_vertices_by_duality<32>(const double*, const double*,
                                                                       const Vec3&);

}  // namespace kdop
