#include "builders/topdown_builder.hpp"
#include "engine/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "builders/split_rule.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {

void validate_mesh(const Mesh& mesh) {
  if (mesh.triangle_count() == 0) throw std::invalid_argument("mesh has no triangles");
  if (mesh.triangle_count() > 0xFFFFFFFEu)
    throw std::invalid_argument("mesh has too many triangles");
  const std::size_t nv = mesh.vertex_count();
  if (nv > 0xFFFFFFFEu) throw std::invalid_argument("mesh has too many vertices");
  for (std::size_t i = 0; i < nv; ++i) {
    if (!std::isfinite(mesh.x[i]) || !std::isfinite(mesh.y[i]) || !std::isfinite(mesh.z[i])) {
      throw std::invalid_argument("vertex " + std::to_string(i) + " has a non-finite coordinate");
    }
  }
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    if (mesh.a[t] >= nv || mesh.b[t] >= nv || mesh.c[t] >= nv) {
      throw std::invalid_argument("triangle " + std::to_string(t) +
                                  " has a corner index out of range");
    }
  }
}

namespace {

// Subtrees with fewer triangles than this, or deeper than this, are built sequentially in one
// task (the depth limit bounds the call stack when splits are lopsided).
constexpr std::uint32_t kParallelGrain = 4096;
constexpr int kParallelDepth = 32;

// What a level of the parallel build returns: the nodes of a subtree built in one task (`right`
// relative to its root), or a split whose two subtrees were built as separate tasks. The pieces
// are joined once at the end (append), so every node is copied once, not once per parallel
// level above it (8 levels and 190 MB of copies for 1,000,000 triangles).
struct Subtree {
  std::vector<BuildNode> nodes;  // built in one task; empty for a split
  BuildNode split;               // a split's own range
  std::unique_ptr<Subtree> left, right;
  std::size_t node_count = 0;
};

struct Builder {
  const Mesh& mesh;
  const BuildConfig& config;
  std::uint32_t tau;
  Centroids centroids;
  std::vector<std::uint32_t>& order;

  // The subtree over order[begin, begin + count) in pre-order, `right` indices relative to
  // its root. An explicit stack, so a degenerate input (a chain of lopsided splits) cannot
  // overflow the call stack; pushing the right child before the left gives pre-order.
  template <int K>
  std::vector<BuildNode> sequential(std::uint32_t begin, std::uint32_t count) const {
    struct Pending {
      std::uint32_t begin, count;
      std::uint32_t parent;  // for a right child: whose `right` to set; ~0u otherwise
    };
    std::vector<BuildNode> nodes;
    nodes.reserve(2 * static_cast<std::size_t>((count + tau - 1) / tau));
    std::vector<Pending> stack{{begin, count, ~0u}};
    while (!stack.empty()) {
      const Pending p = stack.back();
      stack.pop_back();
      const auto index = static_cast<std::uint32_t>(nodes.size());
      if (p.parent != ~0u) nodes[p.parent].right = index;
      nodes.push_back({p.begin, p.count, 0});
      if (p.count <= tau) continue;
      const std::uint32_t left =
          split_node<K>(mesh, centroids, config, order.data() + p.begin, p.count);
      stack.push_back({p.begin + left, p.count - left, index});
      stack.push_back({p.begin, left, ~0u});
    }
    return nodes;
  }

  // Large nodes: split here, then both subtrees as parallel tasks. Which tree comes out depends
  // only on the input, never on which thread built what.
  template <int K>
  Subtree parallel(std::uint32_t begin, std::uint32_t count, int depth) const {
    Subtree s;
    if (count < kParallelGrain || count <= tau || depth >= kParallelDepth) {
      s.nodes = sequential<K>(begin, count);
      s.node_count = s.nodes.size();
      return s;
    }
    const std::uint32_t left = split_node<K>(mesh, centroids, config, order.data() + begin, count);
    s.split = {begin, count, 0};
    s.left = std::make_unique<Subtree>();
    s.right = std::make_unique<Subtree>();
    parallel_invoke([&] { *s.left = parallel<K>(begin, left, depth + 1); },
                    [&] { *s.right = parallel<K>(begin + left, count - left, depth + 1); });
    s.node_count = 1 + s.left->node_count + s.right->node_count;
    return s;
  }
};

// Appends a subtree to `out` in pre-order, `right` indices made absolute.
void append(const Subtree& s, std::vector<BuildNode>& out) {
  if (!s.left) {
    const auto base = static_cast<std::uint32_t>(out.size());
    for (BuildNode n : s.nodes) {
      if (!n.is_leaf()) n.right += base;
      out.push_back(n);
    }
    return;
  }
  const std::size_t at = out.size();
  out.push_back(s.split);
  append(*s.left, out);
  out[at].right = static_cast<std::uint32_t>(out.size());
  append(*s.right, out);
}

}  // namespace

template <int K>
BuildTree build_topdown(const Mesh& mesh, const BuildConfig& config) {
  validate_mesh(mesh);
  const auto n = static_cast<std::uint32_t>(mesh.triangle_count());
  BuildTree tree;
  tree.order.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) tree.order[i] = i;
  // The root is split whenever it holds two triangles or more, whatever tau: a tree of one leaf
  // has no hierarchy, and its leaf test's own-DOP check repeats the root's slab test. Split once,
  // a small object (the swept flight's 38-triangle axe under tau = 40) gives the leaf test two
  // far tighter volumes: 2.5x faster there (docs/design-notes.md, "A flying tree is never one
  // leaf").
  const std::uint32_t tau = std::max<std::uint32_t>(std::min(config.leaf_size, n - 1), 1);
  const Builder b{mesh, config, tau, centroids_of(mesh), tree.order};
  const Subtree root = b.parallel<K>(0, n, 0);
  reserve_populated(tree.nodes, root.node_count);
  append(root, tree.nodes);
  return tree;
}

template BuildTree build_topdown<6>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<8>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<14>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<18>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<26>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<32>(const Mesh&, const BuildConfig&);

}  // namespace kdop
