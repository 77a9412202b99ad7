#include "engine/oriented_query.hpp"

#include <algorithm>

namespace kdop {

template <class Bv>
void OrientedQueryScratch<Bv>::prepare(const OrientedTree<Bv>& env,
                                       const FlyingOrientedTree<Bv>& fly) {
  const std::size_t nodes = fly.tree.topology.node_count();
  const std::size_t slots = fly.tree.triangles.size();
  const std::size_t depth = traversal_stack_size(env.topology, fly.tree.topology);
  if (stack.size() < depth) stack.resize(depth);
  if (place_stamp.size() != nodes || slot_stamp.size() != slots) {
    placed.assign(nodes * kPlacedDoubles, 0.0);
    placed_blocks.assign(nodes * kPlacedFloats, 0.0f);
    place_stamp.assign(nodes, 0);
    slot_stamp.assign(slots, 0);
    moved.assign(LeafTriangles::array_count, slots, 0, 0.0);  // the leaf triangles' layout
    keys.forget();                                            // epochs start again
    epoch = 0;
  }
  if (env_seen != &env || fly_seen != &fly) {  // the witness names the other trees' slots
    start_chain();
    env_seen = &env;
    fly_seen = &fly;
  }
  keys.size_once(PrefilterKeyCache::query_entries);
  if (++epoch == 0) {  // wrapped: forget every stamp
    std::fill(place_stamp.begin(), place_stamp.end(), 0);
    std::fill(slot_stamp.begin(), slot_stamp.end(), 0);
    keys.forget();
    epoch = 1;
  }
}

template struct OrientedQueryScratch<ObbBv>;
template struct OrientedQueryScratch<RssBv>;

}  // namespace kdop
