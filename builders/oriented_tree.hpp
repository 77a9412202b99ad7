#pragma once
// Hierarchies of oriented bounding volumes, built by the same top-down builder as the k-DOP trees
// (builders/topdown_builder.hpp) and walked by the same traversal (engine/traverse.hpp):
//   - ObbBv: oriented boxes (Gottschalk et al. 1996, gottschalk1996-obbtree.txt, section 4),
//     axes from the covariance of the node's convex hull surface (builders/obb_fit.hpp);
//   - RssBv: rounded oriented boxes, rectangle swept spheres (oriented-rounded-bv.txt), from the
//     same PCA frame with the thinnest extent turned into the radius.
// Node n's volume is doubles [n * 15, (n + 1) * 15) of `boxes`:
//   ObbBv   centre (3), axis 0, 1, 2 (3 each, orthonormal to rounding), half extents (3)
//   RssBv   centre (3), axis 0, 1 (the rectangle's), axis 2 (its normal), half lengths (2),
//           radius (1)
// Volumes are conservative: the half extents and radii are taken over every corner of the node's
// triangles, evaluated in double and widened by a bound on that evaluation's rounding, so every
// corner lies inside the volume the stored numbers describe.
#include <cstddef>
#include <cstdint>

#include "builders/build_config.hpp"
#include "builders/bv_tag.hpp"
#include "builders/leaf_floats.hpp"
#include "builders/leaf_triangles.hpp"
#include "builders/tree_topology.hpp"
#include "geometry/mappable_array.hpp"
#include "geometry/mesh.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

// Offsets into a node's doubles.
inline constexpr int kCenterAt = 0, kAxesAt = 3, kHalfAt = 12, kRadiusAt = 14;

template <class BvTag>
struct OrientedTree {
  using Bv = BvTag;
  TreeTopology topology;
  MappableArray<double> boxes;  // Bv::doubles per node
  // A node's size for choosing which node to descend: its longest extent (OBB: 2 max half;
  // RSS: 2 (max half + radius)). Rotation does not change it.
  MappableArray<float> size;
  LeafTriangles triangles;

  const double* node_box(std::uint32_t n) const {
    return boxes.data() + std::size_t{n} * Bv::doubles;
  }
};

template <class BvTag>
struct FlyingOrientedTree {
  using Bv = BvTag;
  OrientedTree<Bv> tree;
  LeafFloats floats;         // the leaf triangles' float copies for the prefilter
  double corner_radius = 0;  // largest |p| over the object's corners (object frame), rounded up
  Vec3 sphere_center;        // a sphere around every corner (object frame)
  double sphere_radius = 0;
};

template <class Bv>
std::size_t memory_bytes(const OrientedTree<Bv>& t) {
  return array_bytes(t.topology.child_or_first) + array_bytes(t.topology.leaf_count) +
         array_bytes(t.boxes) + array_bytes(t.size) + t.triangles.bytes();
}

template <class Bv>
std::size_t memory_bytes(const FlyingOrientedTree<Bv>& f) {
  return memory_bytes(f.tree) + f.floats.arrays.bytes();
}

// Throws std::invalid_argument for an empty or invalid mesh (see build_topdown). The split rule
// is config's (SplitRule::obb_axis is Gottschalk's).
template <class Bv>
OrientedTree<Bv> build_oriented_tree(const Mesh& mesh, const BuildConfig& config);

template <class Bv>
FlyingOrientedTree<Bv> build_flying_oriented_tree(const Mesh& mesh, const BuildConfig& config);

extern template OrientedTree<ObbBv> build_oriented_tree<ObbBv>(const Mesh&, const BuildConfig&);
extern template OrientedTree<RssBv> build_oriented_tree<RssBv>(const Mesh&, const BuildConfig&);
extern template FlyingOrientedTree<ObbBv> build_flying_oriented_tree<ObbBv>(const Mesh&,
                                                                            const BuildConfig&);
extern template FlyingOrientedTree<RssBv> build_flying_oriented_tree<RssBv>(const Mesh&,
                                                                            const BuildConfig&);

}  // namespace kdop
