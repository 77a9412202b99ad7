#include "builders/tree_topology.hpp"

#include <algorithm>

#include "builders/topdown_builder.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {

TreeTopology encode_topology(const BuildTree& b) {
  TreeTopology t;
  std::vector<std::uint32_t> child_or_first = populated_vector<std::uint32_t>(b.nodes.size(), 0),
                             leaf_count = populated_vector<std::uint32_t>(b.nodes.size(), 0);
  for (std::size_t n = 0; n < b.nodes.size(); ++n) {
    const BuildNode& node = b.nodes[n];
    child_or_first[n] = node.is_leaf() ? node.begin : node.right;
    leaf_count[n] = node.is_leaf() ? node.count : 0;
  }
  t.child_or_first = std::move(child_or_first);
  t.leaf_count = std::move(leaf_count);
  // Depth of every node from its parent's, in pre-order (parents come first).
  std::vector<std::uint32_t> depth(b.nodes.size(), 0);
  for (std::size_t n = 0; n < b.nodes.size(); ++n) {
    if (b.nodes[n].is_leaf()) continue;
    depth[n + 1] = depth[b.nodes[n].right] = depth[n] + 1;
    t.depth = std::max(t.depth, depth[n] + 1);
  }
  t.shape_hash = topology_hash(t);
  return t;
}

std::uint64_t topology_hash(const TreeTopology& t) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a's offset basis and prime
  const std::uint32_t nodes = t.node_count();
  for (std::uint32_t n = 0; n < nodes; ++n) {
    h ^= std::uint64_t{t.child_or_first[n]} << 32 | t.leaf_count[n];
    h *= 0x100000001b3ull;
  }
  h ^= nodes;
  return h != 0 ? h : 1;  // 0 means no hash (a topology made by hand): never a real tree's
}

std::vector<SlotRange> slot_ranges(const TreeTopology& topo) {
  std::vector<SlotRange> r(topo.node_count());
  for (std::uint32_t n = topo.node_count(); n-- > 0;) {
    r[n] = topo.is_leaf(n) ? SlotRange{topo.child_or_first[n], topo.leaf_count[n]}
                           : SlotRange{r[n + 1].first, r[n + 1].count + r[topo.right(n)].count};
  }
  return r;
}

}  // namespace kdop
