#pragma once
// Is a triangle mesh a solid? Stock, part and fixtures of an NC setup must be closed,
// consistently oriented, outward-facing meshes (issue 7): "touches", "enters" and "depth" are
// volumetric there, so a tool wholly inside one counts, and that needs an inside.
//
// Vertices are welded by exact coordinate equality first (STL stores each facet's corners
// separately, and an OBJ may repeat a point), so two corners are the same vertex iff their
// coordinates are equal; messages name a welded vertex by its smallest original index. A
// triangle with two corners at one point is degenerate: it encloses nothing and is skipped (its
// edges would pair with each other). Every other triangle contributes its three directed edges
// a->b, b->c, c->a, and each undirected edge is classified by its uses:
//   1 use                            boundary edge (a hole)
//   2 uses in opposite directions    fine: the two faces agree on the orientation
//   2 uses in the same direction     inconsistently oriented (a flipped triangle)
//   3 or more uses                   non-manifold (e.g. two cubes sharing an edge)
// The mesh is closed when there are none of the three kinds of problem edges.
//
// The signed volume is sum (a-o).((b-o)x(c-o)) / 6 with o the first welded vertex, positive for
// outward (counter-clockwise seen from outside) faces of a closed mesh. It is computed in double
// with a forward error bound (see volume_error): the sign is certain when |volume| exceeds the
// bound. For a clearly three-dimensional solid the bound is a tiny fraction of the volume (it
// is about (n + 16) ulp of the sum of |products|, and a solid's volume is a fair fraction of that
// sum), so double suffices; a flat or sliver-thin mesh is rightly reported as not certain.
#include <cstddef>
#include <cstdint>
#include <string>

#include "geometry/mesh.hpp"

namespace kdop {

// An edge between two welded vertices (each named by its smallest original index), and the first
// triangle found using it.
struct MeshEdge {
  std::uint32_t v0 = 0, v1 = 0;
  std::uint32_t triangle = 0;
};

struct SolidCheck {
  std::size_t triangles = 0;             // in the mesh
  std::size_t degenerate_triangles = 0;  // two corners at one point: skipped
  std::size_t boundary_edges = 0;
  std::size_t non_manifold_edges = 0;
  std::size_t inconsistent_edges = 0;
  // The first edge of each kind in (v0, v1) order, meaningful when its count is not 0.
  MeshEdge first_boundary, first_non_manifold, first_inconsistent;
  double signed_volume = 0;
  double volume_error = 0;  // |exact volume of the given coordinates - signed_volume| <= this

  bool closed() const {
    return boundary_edges == 0 && non_manifold_edges == 0 && inconsistent_edges == 0;
  }
  // Closed and certainly of positive volume: faces point outward.
  bool outward_solid() const { return closed() && signed_volume > volume_error; }
};

SolidCheck check_solid(const Mesh& mesh);

// Empty when check.outward_solid(); otherwise one line saying what is wrong, e.g.
// "not a closed solid: 12 boundary edges (first: vertices 3-7)" or
// "inside out: the faces point inward (signed volume -1)", for a caller to prefix with the file.
std::string solid_problem(const SolidCheck& check);

}  // namespace kdop
