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
#include <cstddef>
#include <cstdint>
#include <vector>

#include "builders/build_config.hpp"
#include "builders/bv_tag.hpp"
#include "builders/leaf_floats.hpp"
#include "builders/leaf_triangles.hpp"
#include "builders/node_plate.hpp"
#include "builders/tree_topology.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/dop.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

template <int K>
struct DopTree {
  using Bv = DopBv<K>;
  TreeTopology topology;
  MappableArray<float> bounds;  // DopShape<K>::floats per node
  // A node's size for choosing which node to descend: its widest slab, (hi_j - lo_j) / |n_j|.
  // Unchanged by rotation up to the DOP's own approximation, so the flying tree's stored sizes
  // compare with the environment's at any pose.
  MappableArray<float> size;
  LeafTriangles triangles;
  // An environment's corner_floats(triangles) (builders/leaf_triangles.hpp), derived at build and
  // at load; empty in a flying tree's, which has its LeafFloats instead.
  MappableArray<float> corner_floats;

  const float* node_bounds(std::uint32_t n) const {
    return bounds.data() + std::size_t{n} * DopShape<K>::floats;
  }
};

// The flying root's inner points (geometry/convex_hull.hpp): 4 x 4 cube-map cells per face,
// at most 96 points.
inline constexpr int kInnerPointsPerFace = 4;

template <int K>
struct FlyingDopTree {
  using Bv = DopBv<K>;
  DopTree<K> tree;
  // Node n's DOP vertices are (vx, vy, vz)[vertex_first[n], vertex_first[n + 1]).
  MappableArray<std::uint32_t> vertex_first;
  MappableArray<float> vx, vy, vz;
  // Every true vertex of a node's DOP is within vertex_error (max norm) of a stored one, which
  // covers the vertex solve and the rounding to float; vertex_extent bounds |coordinate| of
  // every stored vertex. Tumbling widens by both (engine/tumble.hpp).
  double vertex_error = 0;
  double vertex_extent = 0;
  LeafFloats floats;         // the leaf triangles' float copies for the prefilter
  NodePlates plates;         // each node's plate along its mean normal (builders/node_plate.hpp)
  double corner_radius = 0;  // largest |p| over the object's corners (object frame), rounded up
  double bound_extent = 0;   // largest |lo| or |hi| over every node's float DOP
  // A sphere around every corner (object frame): the query's first, cheapest test.
  Vec3 sphere_center;
  double sphere_radius = 0;
  HullGraph root_hull;  // convex hull of every corner of the object (object frame, double)
  ClimbStarts root_starts;
  InnerPoints root_inner;  // derived from root_starts at build and at load, not stored
};

// Bytes held by a hierarchy: topology, bounds, leaf triangles (and for a flying one its DOP
// vertices, float copies and root hull), counted from the arrays' sizes (mapped or owned).

template <int K>
std::size_t memory_bytes(const DopTree<K>& t) {
  return array_bytes(t.topology.child_or_first) + array_bytes(t.topology.leaf_count) +
         array_bytes(t.bounds) + array_bytes(t.size) + t.triangles.bytes() +
         array_bytes(t.corner_floats);
}

template <int K>
std::size_t memory_bytes(const FlyingDopTree<K>& f) {
  return memory_bytes(f.tree) + array_bytes(f.vertex_first) + array_bytes(f.vx) +
         array_bytes(f.vy) + array_bytes(f.vz) + array_bytes(f.root_hull.points) +
         array_bytes(f.root_hull.first_edge) + array_bytes(f.root_hull.edges) +
         array_bytes(f.root_starts.vertex) + f.floats.arrays.bytes() + f.plates.bytes() +
         array_bytes(f.root_inner.x) + array_bytes(f.root_inner.y) + array_bytes(f.root_inner.z);
}

// Throws std::invalid_argument for an empty or invalid mesh (see build_topdown).
template <int K>
DopTree<K> build_dop_tree(const Mesh& mesh, const BuildConfig& config);

template <int K>
FlyingDopTree<K> build_flying_dop_tree(const Mesh& mesh, const BuildConfig& config);

extern template DopTree<6> build_dop_tree<6>(const Mesh&, const BuildConfig&);
extern template DopTree<8> build_dop_tree<8>(const Mesh&, const BuildConfig&);
extern template DopTree<14> build_dop_tree<14>(const Mesh&, const BuildConfig&);
extern template DopTree<18> build_dop_tree<18>(const Mesh&, const BuildConfig&);
extern template DopTree<26> build_dop_tree<26>(const Mesh&, const BuildConfig&);
extern template DopTree<32> build_dop_tree<32>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<6> build_flying_dop_tree<6>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<8> build_flying_dop_tree<8>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<14> build_flying_dop_tree<14>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<18> build_flying_dop_tree<18>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<26> build_flying_dop_tree<26>(const Mesh&, const BuildConfig&);
extern template FlyingDopTree<32> build_flying_dop_tree<32>(const Mesh&, const BuildConfig&);

}  // namespace kdop
