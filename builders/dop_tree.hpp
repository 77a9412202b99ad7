#pragma once
// Flat k-DOP hierarchies (Klosowski et al. 1998, sections 3.3 and 4.1), encoded from a
// BuildTree: topology, one float DOP per node, and the reordered leaf triangles.
//
// Node n's DOP is floats [n * F, (n + 1) * F) of `bounds`, F = DopShape<K>::floats: Lanes lo
// values, then Lanes hi values (geometry/dop.hpp), so one vectorized slab test reads it whole.
// Bounds are conservative: n_j . p is evaluated in double, widened by its rounding bound and
// rounded outward to float, so every node's DOP contains all corners of all its triangles.
//
// A flying hierarchy additionally stores, per node, the vertices of its (float) DOP, found once
// here, so tumbling by the approximation method (section 4.1, method II) only transforms them;
// and the convex hull of all the object's corners, for the exact root (method I).
#include <cstdint>
#include <vector>

#include "builders/build_config.hpp"
#include "builders/leaf_floats.hpp"
#include "builders/leaf_triangles.hpp"
#include "builders/tree_topology.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/dop.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

template <int K>
struct DopTree {
  TreeTopology topology;
  std::vector<float> bounds;  // DopShape<K>::floats per node
  LeafTriangles triangles;

  const float* node_bounds(std::uint32_t n) const {
    return bounds.data() + std::size_t{n} * DopShape<K>::floats;
  }
};

template <int K>
struct FlyingDopTree {
  DopTree<K> tree;
  // Node n's DOP vertices are (vx, vy, vz)[vertex_first[n], vertex_first[n + 1]).
  std::vector<std::uint32_t> vertex_first;
  std::vector<float> vx, vy, vz;
  // Every true vertex of a node's DOP is within vertex_error (max norm) of a stored one, which
  // covers the vertex solve and the rounding to float; vertex_extent bounds |coordinate| of
  // every stored vertex. Tumbling widens by both (engine/tumble.hpp).
  double vertex_error = 0;
  double vertex_extent = 0;
  LeafFloats floats;         // the leaf triangles' float copies for the prefilter
  double corner_radius = 0;  // largest |p| over the object's corners (object frame), rounded up
  HullGraph root_hull;       // convex hull of every corner of the object (object frame, double)
  ClimbStarts root_starts;
};

// Throws std::invalid_argument for an empty or invalid mesh (see build_topdown).
template <int K>
DopTree<K> build_dop_tree(const Mesh& mesh, const BuildConfig& config);

template <int K>
FlyingDopTree<K> build_flying_dop_tree(const Mesh& mesh, const BuildConfig& config);

extern template DopTree<6> build_dop_tree<6>(const Mesh&, const BuildConfig&);
extern template DopTree<14> build_dop_tree<14>(const Mesh&, const BuildConfig&);
extern template DopTree<18> build_dop_tree<18>(const Mesh&, const BuildConfig&);
extern template DopTree<26> build_dop_tree<26>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<6> build_flying_dop_tree<6>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<14> build_flying_dop_tree<14>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<18> build_flying_dop_tree<18>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<26> build_flying_dop_tree<26>(const Mesh&, const BuildConfig&);

}  // namespace kdop
