#include "builders/topdown_builder.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "builders/split_rule.hpp"

namespace kdop {
namespace {

void validate(const Mesh& mesh) {
  if (mesh.triangle_count() == 0) throw std::invalid_argument("mesh has no triangles");
  if (mesh.triangle_count() > 0xFFFFFFFEu)
    throw std::invalid_argument("mesh has too many triangles");
  const std::size_t nv = mesh.vertex_count();
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

// Subtrees with fewer triangles than this, or deeper than this, are built sequentially in one
// task (the depth limit bounds the call stack when splits are lopsided).
constexpr std::uint32_t kParallelGrain = 4096;
constexpr int kParallelDepth = 32;

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

  // Large nodes: split here, then both subtrees as parallel tasks, joined in pre-order. Which
  // tree comes out depends only on the input, never on which thread built what.
  template <int K>
  std::vector<BuildNode> parallel(std::uint32_t begin, std::uint32_t count, int depth) const {
    if (count < kParallelGrain || count <= tau || depth >= kParallelDepth) {
      return sequential<K>(begin, count);
    }
    const std::uint32_t left = split_node<K>(mesh, centroids, config, order.data() + begin, count);
    std::vector<BuildNode> l, r;
    tbb::parallel_invoke([&] { l = parallel<K>(begin, left, depth + 1); },
                         [&] { r = parallel<K>(begin + left, count - left, depth + 1); });
    std::vector<BuildNode> nodes;
    nodes.reserve(1 + l.size() + r.size());
    const auto right_root = static_cast<std::uint32_t>(1 + l.size());
    nodes.push_back({begin, count, right_root});
    for (BuildNode n : l) {
      if (!n.is_leaf()) n.right += 1;
      nodes.push_back(n);
    }
    for (BuildNode n : r) {
      if (!n.is_leaf()) n.right += right_root;
      nodes.push_back(n);
    }
    return nodes;
  }
};

}  // namespace

template <int K>
BuildTree build_topdown(const Mesh& mesh, const BuildConfig& config) {
  validate(mesh);
  const auto n = static_cast<std::uint32_t>(mesh.triangle_count());
  BuildTree tree;
  tree.order.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) tree.order[i] = i;
  const Builder b{mesh, config, std::max<std::uint32_t>(config.leaf_size, 1), centroids_of(mesh),
                  tree.order};
  tree.nodes = b.parallel<K>(0, n, 0);
  return tree;
}

template BuildTree build_topdown<6>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<14>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<18>(const Mesh&, const BuildConfig&);
template BuildTree build_topdown<26>(const Mesh&, const BuildConfig&);

}  // namespace kdop
