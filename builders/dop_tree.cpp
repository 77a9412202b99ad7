#include "builders/dop_tree.hpp"
#include "engine/parallel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "builders/object_sphere.hpp"
#include "builders/topdown_builder.hpp"
#include "geometry/dop_vertices.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {
namespace {

// The k/2 intervals of a leaf in double, containing all corners of its triangles: each
// projection is widened by its rounding bound.
template <int K>
void leaf_intervals(const LeafTriangles& tris, std::uint32_t first, std::uint32_t count, double* lo,
                    double* hi) {
  constexpr int S = DopShape<K>::slabs;
  constexpr auto dirs = DopShape<K>::directions();
  std::fill(lo, lo + S, std::numeric_limits<double>::infinity());
  std::fill(hi, hi + S, -std::numeric_limits<double>::infinity());
  for (std::uint32_t s = first; s < first + count; ++s) {
    for (int c = 0; c < 3; ++c) {
      const double x = tris.x(c)[s], y = tris.y(c)[s], z = tris.z(c)[s];
      const double err = projection_error_bound(std::fabs(x) + std::fabs(y) + std::fabs(z));
      for_each_slab<K>([&](auto j) {
        const double v = project(dirs[j], x, y, z);
        lo[j] = std::min(lo[j], v - err);
        hi[j] = std::max(hi[j], v + err);
      });
    }
  }
}

// Every node's intervals in double (node n at [n * S, (n + 1) * S), S = k/2): leaves from their
// corners, inner nodes as the union of their children, children first (they have larger
// indices in pre-order). For flying trees only: an environment needs just the floats.
template <int K>
void node_intervals(const TreeTopology& topo, const LeafTriangles& tris, std::vector<double>& lo,
                    std::vector<double>& hi) {
  constexpr int S = DopShape<K>::slabs;
  lo.resize(std::size_t{topo.node_count()} * S);
  hi.resize(std::size_t{topo.node_count()} * S);
  for (std::uint32_t n = topo.node_count(); n-- > 0;) {
    const std::size_t at = std::size_t{n} * S;
    if (topo.is_leaf(n)) {
      leaf_intervals<K>(tris, topo.child_or_first[n], topo.leaf_count[n], &lo[at], &hi[at]);
      continue;
    }
    const std::size_t a = std::size_t{topo.left(n)} * S, b = std::size_t{topo.right(n)} * S;
    for (int j = 0; j < S; ++j) {
      lo[at + j] = std::min(lo[a + j], lo[b + j]);
      hi[at + j] = std::max(hi[a + j], hi[b + j]);
    }
  }
}

// The float DOPs the traversal reads: leaves' double intervals rounded outward, inner nodes the
// union of their children (rounding is monotone, so this equals rounding the inner node's double
// intervals); padding lanes [-inf, inf].
template <int K>
std::vector<float> encode_bounds(const TreeTopology& topo, const LeafTriangles& tris) {
  using Shape = DopShape<K>;
  constexpr int S = Shape::slabs, L = Shape::lanes;
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<float> bounds =
      populated_vector(std::size_t{topo.node_count()} * Shape::floats, 0.0f);
  // Leaves from their corners, in parallel (each writes only its own DOP)...
  parallel_for_ranges(
      0, topo.node_count(), 4096, [&](std::size_t range_first, std::size_t range_last) {
        for (std::uint32_t n = static_cast<std::uint32_t>(range_first);
             n < static_cast<std::uint32_t>(range_last); ++n) {
          float* out = bounds.data() + std::size_t{n} * Shape::floats;
          for (int j = S; j < L; ++j) {
            out[j] = -inf;
            out[L + j] = inf;
          }
          if (!topo.is_leaf(n)) continue;
          double lo[S], hi[S];
          leaf_intervals<K>(tris, topo.child_or_first[n], topo.leaf_count[n], lo, hi);
          for (int j = 0; j < S; ++j) {
            out[j] = float_below(lo[j]);
            out[L + j] = float_above(hi[j]);
          }
        }
      });
  // ... then inner nodes as the union of their children, children first.
  for (std::uint32_t n = topo.node_count(); n-- > 0;) {
    if (topo.is_leaf(n)) continue;
    float* out = bounds.data() + std::size_t{n} * Shape::floats;
    const float* l = bounds.data() + std::size_t{topo.left(n)} * Shape::floats;
    const float* r = bounds.data() + std::size_t{topo.right(n)} * Shape::floats;
    for (int j = 0; j < S; ++j) {
      out[j] = std::min(l[j], r[j]);
      out[L + j] = std::max(l[L + j], r[L + j]);
    }
  }
  return bounds;
}

// Nodes with at most this many triangles are checked for having fewer corners than DOP vertices.
constexpr std::uint32_t kCornerNodeLimit = 64;

// The arrays both roles have.
template <int K>
DopTree<K> encode_dop_tree(const Mesh& mesh, const BuildConfig& config) {
  const BuildTree b = build_topdown<K>(mesh, config);
  DopTree<K> t;
  t.topology = encode_topology(b);
  t.triangles = gather_leaf_triangles(mesh, b.order);
  t.bounds = encode_bounds<K>(t.topology, t.triangles);
  constexpr auto dirs = DopShape<K>::directions();
  std::vector<float> size = populated_vector(std::size_t{t.topology.node_count()}, 0.0f);
  for (std::uint32_t n = 0; n < t.topology.node_count(); ++n) {
    const float* b = t.node_bounds(n);
    float widest = 0;
    for (int j = 0; j < DopShape<K>::slabs; ++j) {
      const float length = std::sqrt(static_cast<float>(
          dirs[j].x * dirs[j].x + dirs[j].y * dirs[j].y + dirs[j].z * dirs[j].z));
      widest = std::max(widest, (b[DopShape<K>::lanes + j] - b[j]) / length);
    }
    size[n] = widest;
  }
  t.size = std::move(size);
  return t;
}

}  // namespace

template <int K>
DopTree<K> build_dop_tree(const Mesh& mesh, const BuildConfig& config) {
  DopTree<K> t = encode_dop_tree<K>(mesh, config);
  t.corner_floats = corner_floats(t.triangles);
  return t;
}

namespace {

// The flying tree: the tree itself, then what tumbling needs (every node's DOP vertices, the
// leaves' floats, the node plates) into `f`.
template <int K>
void build_flying_nodes(const Mesh& mesh, const BuildConfig& config, FlyingDopTree<K>& f) {
  using Shape = DopShape<K>;
  constexpr double float_rounding = 0x1p-24;  // |v - float(v)| <= 2^-24 |v|
  f.tree = encode_dop_tree<K>(mesh, config);
  const std::uint32_t nodes = f.tree.topology.node_count();
  // Tumbling needs vertices of any DOP that contains the node's triangles: the double
  // intervals are tighter than the float ones, and keep the corners where several planes meet
  // exact, so a node has fewer vertices (and C_u is lower) than with the outward-rounded
  // floats.
  std::vector<double> lo, hi;
  node_intervals<K>(f.tree.topology, f.tree.triangles, lo, hi);
  // A small node may have fewer distinct corners than its DOP has vertices (a leaf of 40
  // triangles of a mesh has about 25): then its corners serve instead, cheaper to transform
  // and exact (their re-aligned extremes are the node's own k-DOP at the pose).
  const std::vector<SlotRange> ranges = slot_ranges(f.tree.topology);
  // Per node in parallel, then concatenated in node order (the same arrays for any thread
  // count).
  std::vector<DopVertices> per_node(nodes);
  parallel_for_ranges(0, nodes, 16, [&](std::size_t range_first, std::size_t range_last) {
    std::vector<Vec3> node_corners;
    for (std::uint32_t n = static_cast<std::uint32_t>(range_first);
         n < static_cast<std::uint32_t>(range_last); ++n) {
      const std::size_t at = std::size_t{n} * Shape::slabs;
      DopVertices dv = dop_vertices<K>(lo.data() + at, hi.data() + at);
      if (ranges[n].count <= kCornerNodeLimit) {
        distinct_corners(f.tree.triangles, ranges[n], node_corners);
        if (node_corners.size() < dv.points.size()) {
          dv = DopVertices{node_corners, 0.0};
        }
      }
      per_node[n] = std::move(dv);
    }
  });
  std::vector<std::uint32_t> vertex_first;
  std::vector<float> vx, vy, vz;
  vertex_first.reserve(nodes + 1);
  vertex_first.push_back(0);
  for (const DopVertices& dv : per_node) {
    double largest = 0;
    for (const Vec3& p : dv.points) {
      vx.push_back(static_cast<float>(p.x));
      vy.push_back(static_cast<float>(p.y));
      vz.push_back(static_cast<float>(p.z));
      largest = std::max({largest, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
    }
    vertex_first.push_back(static_cast<std::uint32_t>(vx.size()));
    f.vertex_error = std::max(f.vertex_error, dv.error_bound + float_rounding * largest);
    // The float of a coordinate is at most one rounding above it.
    f.vertex_extent = std::max(f.vertex_extent, largest * (1 + float_rounding));
  }
  f.vertex_first = std::move(vertex_first);
  f.vx = std::move(vx);
  f.vy = std::move(vy);
  f.vz = std::move(vz);
  f.floats = leaf_floats(f.tree.triangles);
  f.plates = node_plates(f.tree.topology, f.tree.triangles);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const float* b = f.tree.node_bounds(n);
    for (int j = 0; j < Shape::slabs; ++j) {
      f.bound_extent = std::max(
          {f.bound_extent, std::fabs(double{b[j]}), std::fabs(double{b[Shape::lanes + j]})});
    }
  }
}

// The whole object's bounding sphere and convex hull (for the exact root and its climbs) into `f`.
template <int K>
void build_root_hull(const Mesh& mesh, FlyingDopTree<K>& f) {
  const std::vector<Vec3> corners = referenced_corners(mesh);
  const ObjectSphere sphere = object_sphere(corners);
  f.corner_radius = sphere.corner_radius;
  f.sphere_center = sphere.center;
  f.sphere_radius = sphere.radius;
  f.root_hull = convex_hull_graph(corners);
  f.root_starts = climb_starts(f.root_hull);
  f.root_inner = inner_points(f.root_hull, f.root_starts, kInnerPointsPerFace);
}

}  // namespace

template <int K>
FlyingDopTree<K> build_flying_dop_tree(const Mesh& mesh, const BuildConfig& config) {
  // Checked before the two halves start: the hull's half reads the mesh unchecked.
  validate_mesh(mesh);
  FlyingDopTree<K> f;
  // The hull needs only the mesh, so it is built beside the tree on another worker: qhull is
  // sequential and takes most of a large object's build (1,000,000 triangles: 6 of 13 s).
  // The two write disjoint fields of `f`.
  parallel_invoke([&] { build_flying_nodes<K>(mesh, config, f); },
                  [&] { build_root_hull<K>(mesh, f); });
  return f;
}

template DopTree<6> build_dop_tree<6>(const Mesh&, const BuildConfig&);
template DopTree<8> build_dop_tree<8>(const Mesh&, const BuildConfig&);
template DopTree<14> build_dop_tree<14>(const Mesh&, const BuildConfig&);
template DopTree<18> build_dop_tree<18>(const Mesh&, const BuildConfig&);
template DopTree<26> build_dop_tree<26>(const Mesh&, const BuildConfig&);
template DopTree<32> build_dop_tree<32>(const Mesh&, const BuildConfig&);
template FlyingDopTree<6> build_flying_dop_tree<6>(const Mesh&, const BuildConfig&);
template FlyingDopTree<8> build_flying_dop_tree<8>(const Mesh&, const BuildConfig&);
template FlyingDopTree<14> build_flying_dop_tree<14>(const Mesh&, const BuildConfig&);
template FlyingDopTree<18> build_flying_dop_tree<18>(const Mesh&, const BuildConfig&);
template FlyingDopTree<26> build_flying_dop_tree<26>(const Mesh&, const BuildConfig&);
template FlyingDopTree<32> build_flying_dop_tree<32>(const Mesh&, const BuildConfig&);

}  // namespace kdop
