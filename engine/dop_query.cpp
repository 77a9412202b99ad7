#include "engine/dop_query.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kdop {

void append_contact(std::vector<ContactPair>& pairs, ContactPair pair) {
  pairs.push_back(pair);
}

void sort_contacts(std::vector<ContactPair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
}

SplitBuffers::SplitBuffers(const NodePair* stack, std::uint32_t size, std::uint32_t stack_size)
    : tasks_(size),
      stack_size_(stack_size),
      entries_(new NodePair[size]),
      stacks_(new NodePair[std::size_t{size} * stack_size]),
      results_(new QueryResult[size]) {
  std::reverse_copy(stack, stack + size, entries_);  // the top of the stack comes first
}

SplitBuffers::~SplitBuffers() {
  delete[] entries_;
  delete[] stacks_;
  delete[] results_;
}

void SplitBuffers::merge_into(QueryMode mode, QueryResult& into) {
  for (std::uint32_t i = 0; i < tasks_; ++i) {
    const QueryResult& t = results_[i];
    into.stats.n_v += t.stats.n_v;
    into.stats.n_p += t.stats.n_p;
    into.stats.n_u += t.stats.n_u;
    into.stats.n_exact += t.stats.n_exact;
    into.contacts += t.contacts;
    into.collides = into.collides || t.collides;
    // first_contact: the traversal before the split found no contact (or it would not have
    // split), so the witness is the earliest task's.
    if (mode == QueryMode::first_contact && !into.pairs.empty()) continue;
    into.pairs.insert(into.pairs.end(), t.pairs.begin(), t.pairs.end());
  }
  // Every task stops at its own first contact; the query reports one.
  if (mode == QueryMode::first_contact) into.contacts = into.collides ? 1 : 0;
}

template <int K>
void DopQueryScratch<K>::prepare(const DopTree<K>& env, const FlyingDopTree<K>& fly) {
  // The query reads the environment's float corners (DopTraversal::triangle_misses_node).
  if (env.corner_floats.size() != std::size_t{env.triangles.size()} * kCornerFloatsPerSlot) {
    throw std::invalid_argument(
        "query_dop: the environment tree has no corner floats (build it with build_dop_tree)");
  }
  const std::size_t nodes = fly.tree.topology.node_count();
  const std::size_t slots = fly.tree.triangles.size();
  const std::size_t depth =
      frontier_capacity + traversal_stack_size(env.topology, fly.tree.topology);
  if (stack.size() < depth) stack.resize(depth);
  if (frontier.size() < frontier_capacity) {
    frontier.resize(frontier_capacity);
    next_frontier.resize(frontier_capacity);
  }
  if (tumble_stamp.size() != nodes || slot_stamp.size() != slots) {
    tumbled.assign(nodes * DopShape<K>::floats, 0.0f);
    tumble_stamp.assign(nodes, 0);
    slot_stamp.assign(slots, 0);
    moved.assign(LeafTriangles::array_count, slots, 0, 0.0);  // the leaf triangles' layout
    forget_keys();                                            // epochs start again
    epoch = 0;
    start_chain();  // the cut, the witness and the hints name the other trees' nodes and slots
  }
  constexpr int floats = DopShape<K>::floats;
  const float* env_root = env.node_bounds(0);
  const float* fly_root = fly.tree.node_bounds(0);
  // Bytes, not floats: one vector compare per block instead of 2 x floats scalar ones on every
  // pose (a difference in a zero's sign or a NaN's bits only starts a new chain). A shape hash of
  // 0 is none (a topology made by hand): nothing tells such a tree from its rebuild, so it starts
  // every pose cold.
  const bool same_trees =
      env_seen == &env && fly_seen == &fly && env.topology.shape_hash != 0 &&
      env_shape_seen == env.topology.shape_hash &&
      hull_points_seen == fly.root_hull.points.size() &&
      std::memcmp(env_root, roots_seen.data(), floats * sizeof(float)) == 0 &&
      std::memcmp(fly_root, roots_seen.data() + floats, floats * sizeof(float)) == 0;
  if (!same_trees) {
    start_chain();
    env_seen = &env;
    fly_seen = &fly;
    env_shape_seen = env.topology.shape_hash;
    hull_points_seen = fly.root_hull.points.size();
    std::copy(env_root, env_root + floats, roots_seen.begin());
    std::copy(fly_root, fly_root + floats, roots_seen.begin() + floats);
  }
  keys.size_once(PrefilterKeyCache::query_entries);
  if (++epoch == busy) {  // wrapped (busy is the largest value): forget every stamp
    std::fill(tumble_stamp.begin(), tumble_stamp.end(), 0);
    std::fill(slot_stamp.begin(), slot_stamp.end(), 0);
    forget_keys();
    epoch = 1;
  }
}

template <int K>
void DopQueryScratch<K>::forget_keys() {
  keys.forget();
  for (PrefilterKeyCache& c : task_keys) c.forget();
}

template <int K>
void DopQueryScratch<K>::prepare_task_keys() {
  const unsigned slots = std::min(task_slots(), task_key_caches);
  if (task_keys.size() < slots) task_keys.resize(slots);
}

template <int K>
PrefilterKeyCache* DopQueryScratch<K>::task_key_cache() {
  const unsigned slot = task_slot();
  if (slot >= task_keys.size()) return nullptr;
  task_keys[slot].size_once(task_key_entries);  // only this thread touches this slot's cache
  return &task_keys[slot];
}

template struct DopQueryScratch<6>;
template struct DopQueryScratch<8>;
template struct DopQueryScratch<14>;
template struct DopQueryScratch<18>;
template struct DopQueryScratch<26>;
template struct DopQueryScratch<32>;

}  // namespace kdop
