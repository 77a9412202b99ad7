#include "engine/dop_query.hpp"

#include <algorithm>

namespace kdop {

void append_contact(std::vector<ContactPair>& pairs, ContactPair pair) {
  pairs.push_back(pair);
}

void sort_contacts(std::vector<ContactPair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
}

template <int K>
void DopQueryScratch<K>::prepare(const DopTree<K>& env, const FlyingDopTree<K>& fly) {
  const std::size_t nodes = fly.tree.topology.node_count();
  const std::size_t slots = fly.tree.triangles.size();
  const std::size_t depth = traversal_stack_size(env.topology, fly.tree.topology);
  if (stack.size() < depth) stack.resize(depth);
  if (tumble_stamp.size() != nodes || slot_stamp.size() != slots) {
    tumbled.assign(nodes * DopShape<K>::floats, 0.0f);
    tumble_stamp.assign(nodes, 0);
    slot_stamp.assign(slots, 0);
    for (int c = 0; c < 3; ++c) {
      x[c].assign(slots, 0.0);
      y[c].assign(slots, 0.0);
      z[c].assign(slots, 0.0);
    }
    epoch = 0;
  }
  if (++epoch == 0) {  // wrapped: forget every stamp
    std::fill(tumble_stamp.begin(), tumble_stamp.end(), 0);
    std::fill(slot_stamp.begin(), slot_stamp.end(), 0);
    epoch = 1;
  }
}

template struct DopQueryScratch<6>;
template struct DopQueryScratch<14>;
template struct DopQueryScratch<18>;
template struct DopQueryScratch<26>;

}  // namespace kdop
