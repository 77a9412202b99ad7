#include "geometry/halfspace_intersection.hpp"

#include <cstdio>

#include "geometry/qhull_session.hpp"

namespace kdop {

template <int K>
std::optional<DopVertices> dop_vertices_by_duality(const double* lo, const double* hi,
                                                   const Vec3& interior) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  // qhull's halfspaces are rows (n, offset) meaning n . x + offset <= 0.
  coordT halfspaces[2 * Shape::slabs * 4];
  for (int j = 0; j < Shape::slabs; ++j) {
    coordT* upper = halfspaces + 8 * j;
    coordT* lower = upper + 4;
    upper[0] = dirs[j].x, upper[1] = dirs[j].y, upper[2] = dirs[j].z, upper[3] = -hi[j];
    lower[0] = -dirs[j].x, lower[1] = -dirs[j].y, lower[2] = -dirs[j].z, lower[3] = lo[j];
  }
  char options[160];
  std::snprintf(options, sizeof options, "qhull H%.17g,%.17g,%.17g", interior.x, interior.y,
                interior.z);
  QhullSession run(4, 2 * Shape::slabs, halfspaces, options);
  qhT* qh = run.qh();
  std::optional<DopVertices> out;
  if (run.ok()) {
    out.emplace();
    facetT* facet;
    // A dual facet with plane (normal, offset) is the primal vertex normal / -offset, relative
    // to the feasible point (qhull's own 'Fp' output does the same).
    FORALLfacets {
      if (!(facet->offset < 0)) continue;  // unbounded direction: cannot happen for a k-DOP
      out->points.push_back({facet->normal[0] / -facet->offset + qh->feasible_point[0],
                             facet->normal[1] / -facet->offset + qh->feasible_point[1],
                             facet->normal[2] / -facet->offset + qh->feasible_point[2]});
    }
  }
  return out;
}

template std::optional<DopVertices> dop_vertices_by_duality<6>(const double*, const double*,
                                                               const Vec3&);
template std::optional<DopVertices> dop_vertices_by_duality<8>(const double*, const double*,
                                                               const Vec3&);
template std::optional<DopVertices> dop_vertices_by_duality<14>(const double*, const double*,
                                                                const Vec3&);
template std::optional<DopVertices> dop_vertices_by_duality<18>(const double*, const double*,
                                                                const Vec3&);
template std::optional<DopVertices> dop_vertices_by_duality<26>(const double*, const double*,
                                                                const Vec3&);
template std::optional<DopVertices> dop_vertices_by_duality<32>(const double*, const double*,
                                                                const Vec3&);

}  // namespace kdop
