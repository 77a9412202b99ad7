#pragma once
// One collision query between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: Algorithm 1 (engine/traverse.hpp) with lazy tumbling (each flying node
// re-aligned at most once per pose) and leaf tests that run one environment triangle against
// all triangles of a flying leaf through the SIMD prefilter (simd/triangle_prefilter.hpp), then
// decide the survivors exactly on the pose-transformed double coordinates.
//
// The prefilter works in the object's frame: the environment triangle is moved there (three
// corners), and the flying triangles' float copies never move (builders/leaf_floats.hpp). An
// affine map keeps points on the same side of a plane, so a separating plane found in the
// object's frame separates the triangles in the world, once every rounding is covered:
//   - err_d, the double-level errors (moving E by the inverse pose, and the world corners
//     apply_pose computes, mapped back), bounded by 2^-46 (|E|_inf + |t|_inf + r) with
//     r = corner_radius, far above their few ulps;
//   - the float-level errors of the flying corners (rounded to float, |v| <= r) and of the
//     float dot products n . f: at most 4.0001 * 2^-24 |n|_1 r; 5 units are used;
//   - for the test against the flying triangles' planes, the same errors with the roles of
//     the corners swapped (object_frame_key's `margin`).
// The exact test always runs on apply_pose's coordinates, computed (and cached per slot) only
// for the survivors.
//
// Templated on the ISA tag and instantiated once per ISA (engine/isa/). In first_contact mode
// the witness is the first intersecting pair in Algorithm 1's order (environment leaves in
// depth-first order, flying leaves in depth-first order within, then triangles by slot), the
// same for every ISA.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/parallel.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/pose.hpp"
#include "geometry/staggered_arrays.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/slab_overlap.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

// Per-thread state of queries against one flying hierarchy; sized once, reused for every pose.
// Stamps mark which flying nodes were tumbled and which slots were moved in the current pose;
// when a heavy query splits into tasks (engine/traverse.hpp, QueryOptions::split_threshold),
// the tasks share these caches and claim an entry atomically (std::atomic_ref) before filling
// it, so every node is still tumbled at most once per pose.
template <int K>
struct DopQueryScratch {
  static constexpr std::uint32_t frontier_capacity = 4096;
  static constexpr std::uint32_t busy = 0xFFFFFFFFu;  // an entry being filled by another task

  std::vector<NodePair> stack;  // frontier_capacity + traversal_stack_size entries; never grows
  std::vector<float> tumbled;   // DopShape<K>::floats per flying node
  std::vector<std::uint32_t> tumble_stamp, slot_stamp;
  // Corner c of a slot at the pose (apply_pose): x in array c, y in 3 + c, z in 6 + c.
  StaggeredArrays<double> moved;
  // Hot start: the previous pose's cut of the environment hierarchy (traverse_trees' `settled`
  // nodes), valid only if that traversal ran to the end without splitting or overflowing.
  std::vector<std::uint32_t> frontier, next_frontier;
  std::uint32_t frontier_size = 0, next_frontier_size = 0;
  bool frontier_valid = false;
  // The previous pose's extreme root-hull vertices, hill-climbing's starts (tumble_root).
  std::array<std::uint32_t, 2 * DopShape<K>::slabs> root_hints{};
  bool root_hints_valid = false;
  std::uint32_t epoch = 0;
  // The hierarchies of the previous pose: their addresses and root DOPs. The frontier and the
  // hints name nodes and hull vertices of those trees, so other trees start cold.
  const void* env_seen = nullptr;
  const void* fly_seen = nullptr;
  std::array<float, 2 * DopShape<K>::floats> roots_seen{};

  // Sizes the buffers for this pair of hierarchies (only when their sizes changed), forgets
  // the hot-start state when the hierarchies are not the previous pose's, and starts a new
  // pose. Defined in dop_query.cpp, compiled once.
  void prepare(const DopTree<K>& env, const FlyingDopTree<K>& fly);
  // The next pose does not follow the previous one (a new path or block): no hot start.
  void start_chain() {
    frontier_valid = false;
    root_hints_valid = false;
  }
};

extern template struct DopQueryScratch<6>;
extern template struct DopQueryScratch<8>;
extern template struct DopQueryScratch<14>;
extern template struct DopQueryScratch<18>;
extern template struct DopQueryScratch<26>;

// The buffers of a split query: the remaining entries, one stack and one result per task. Owned
// and freed by code compiled once (dop_query.cpp), so no std::vector code is instantiated in the
// per-ISA translation units (see engine/isa/).
class SplitBuffers {
 public:
  SplitBuffers(const NodePair* stack, std::uint32_t size, std::uint32_t stack_size);
  ~SplitBuffers();
  SplitBuffers(const SplitBuffers&) = delete;
  SplitBuffers& operator=(const SplitBuffers&) = delete;

  std::uint32_t tasks() const { return tasks_; }
  const NodePair* entries() const { return entries_; }  // depth-first order: the top first
  NodePair* stack(std::uint32_t task) { return stacks_ + std::size_t{task} * stack_size_; }
  QueryResult& result(std::uint32_t task) { return results_[task]; }
  // Adds the tasks' results to `into`, in depth-first order: counters summed, every pair
  // (all_contacts), or the earliest task's witness (first_contact).
  void merge_into(QueryMode mode, QueryResult& into);

 private:
  std::uint32_t tasks_, stack_size_;
  NodePair* entries_;
  NodePair* stacks_;
  QueryResult* results_;
};

// The inverse of a pose, for moving environment triangles into the object's frame:
// e = R^-1 (p - t), with R^-1 = adj(R) / det(R) (not R^T: a --matrix pose may be orthonormal
// only to 1e-6).
struct ObjectFrame {
  double inv[9];
  double t[3];
  double t_max;
  double radius;  // the object's corner_radius
};

template <class Arch, int K>
ObjectFrame make_object_frame(const FlyingDopTree<K>& fly, const Pose& pose) {
  const auto& r = pose.r;
  const double c00 = r[4] * r[8] - r[5] * r[7], c01 = r[5] * r[6] - r[3] * r[8],
               c02 = r[3] * r[7] - r[4] * r[6];
  const double det = r[0] * c00 + r[1] * c01 + r[2] * c02;
  ObjectFrame f{
      {c00 / det, (r[2] * r[7] - r[1] * r[8]) / det, (r[1] * r[5] - r[2] * r[4]) / det, c01 / det,
       (r[0] * r[8] - r[2] * r[6]) / det, (r[2] * r[3] - r[0] * r[5]) / det, c02 / det,
       (r[1] * r[6] - r[0] * r[7]) / det, (r[0] * r[4] - r[1] * r[3]) / det},
      {pose.t[0], pose.t[1], pose.t[2]},
      std::fmax(std::fabs(pose.t[0]), std::fmax(std::fabs(pose.t[1]), std::fabs(pose.t[2]))),
      fly.corner_radius};
  return f;
}

// The prefilter's view of environment triangle `te`, moved into the object's frame.
template <class Arch>
simd::PrefilterTriangle object_frame_key(const ObjectFrame& f, const Triangle& te) {
  const Vec3 p[3] = {te.p0, te.p1, te.p2};
  Vec3 e[3];
  double e_max = 0;
  for (int k = 0; k < 3; ++k) {
    const double dx = p[k].x - f.t[0], dy = p[k].y - f.t[1], dz = p[k].z - f.t[2];
    e[k] = {(f.inv[0] * dx + f.inv[1] * dy) + f.inv[2] * dz,
            (f.inv[3] * dx + f.inv[4] * dy) + f.inv[5] * dz,
            (f.inv[6] * dx + f.inv[7] * dy) + f.inv[8] * dz};
    e_max = std::max({e_max, std::fabs(p[k].x), std::fabs(p[k].y), std::fabs(p[k].z)});
  }
  const double err_d = 0x1p-46 * (e_max + f.t_max + f.radius);
  simd::PrefilterTriangle key;
  const double ex[3] = {e[0].x, e[1].x, e[2].x}, ey[3] = {e[0].y, e[1].y, e[2].y},
               ez[3] = {e[0].z, e[1].z, e[2].z};
  const double* axis[3] = {ex, ey, ez};
  for (int a = 0; a < 3; ++a) {
    const double* v = axis[a];
    const double lo = v[0] < v[1] ? (v[0] < v[2] ? v[0] : v[2]) : (v[1] < v[2] ? v[1] : v[2]);
    const double hi = v[0] > v[1] ? (v[0] > v[2] ? v[0] : v[2]) : (v[1] > v[2] ? v[1] : v[2]);
    key.lo[a] = float_below(lo - 2 * err_d);
    key.hi[a] = float_above(hi + 2 * err_d);
  }
  // Any direction gives a valid separating test; E's (rounded) normal gives the thinnest slab.
  const Vec3 c = cross(e[1] - e[0], e[2] - e[0]);
  const double len2 = dot(c, c);
  const bool flat = !(len2 > 0) || !(len2 < INFINITY);
  const double inv_len = flat ? 0.0 : 1.0 / std::sqrt(len2);  // any scale would do: see above
  key.n[0] = static_cast<float>(c.x * inv_len);
  key.n[1] = static_cast<float>(c.y * inv_len);
  key.n[2] = static_cast<float>(c.z * inv_len);
  const double n1 = std::fabs(key.n[0]) + std::fabs(key.n[1]) + std::fabs(key.n[2]);
  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < 3; ++k) {
    const double d =
        (double{key.n[0]} * e[k].x + double{key.n[1]} * e[k].y) + double{key.n[2]} * e[k].z;
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  // Rounding of d (<= 4 ulps of n1 |e|), both frames' double errors, and the float side.
  const double margin = 0x1p-50 * n1 * (e_max + f.t_max + f.radius) + 2 * n1 * err_d +
                        5 * 0x1p-24 * n1 * f.radius + kFloatUnderflowFloor;
  key.lower = float_below(lo - margin);
  key.upper = float_above(hi + margin);
  // The test against F's planes: n_F . e_k in float, n_F a float unit normal (|n_F|_1 <= 1.7321
  // plus rounding), e_k rounded to float. Errors: rounding e_k (2^-24 |e|) and the three
  // products and two sums (3.0001 * 2^-24 |n|_1 |e|), both frames' double errors (2 err_d each
  // side), and rounding d_hi + margin in float (2^-24 of values <= 1.7321 (|e| + r) + margin).
  double e_obj = 0;
  for (int k = 0; k < 3; ++k) {
    key.x[k] = static_cast<float>(e[k].x);
    key.y[k] = static_cast<float>(e[k].y);
    key.z[k] = static_cast<float>(e[k].z);
    e_obj = std::max({e_obj, std::fabs(e[k].x), std::fabs(e[k].y), std::fabs(e[k].z)});
  }
  const double f_margin = 1.7322 * (4.0002 * 0x1p-24 * e_obj + 4 * err_d) + kFloatUnderflowFloor;
  key.margin = float_above(f_margin + 2 * 0x1p-24 * (1.7322 * (e_obj + f.radius) + f_margin));
  return key;
}

// One traversal (the whole query, or one task of a split query) over shared per-pose state.
template <class Arch, int K>
class DopTraversal {
 public:
  using Shape = DopShape<K>;

  DopTraversal(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
               const QueryOptions& options, const TumbleFrame<K>& frame,
               const ObjectFrame& object_frame, DopQueryScratch<K>& s, bool shared)
      : env_(env),
        fly_(fly),
        pose_(pose),
        options_(options),
        frame_(frame),
        object_frame_(object_frame),
        s_(s),
        shared_(shared),
        slots_(fly.floats.slots()) {
    // The moved corners' arrays, looked up once per query rather than per slot.
    for (int a = 0; a < LeafTriangles::array_count; ++a) moved_[a] = s.moved.mutable_array(a);
  }

  // Traverses from stack[0, size) into `result` (its counters and pairs add up); stops at the
  // budget of node pairs (paused) or, in first_contact mode, at the first contact.
  // Const: concurrent tasks share one traversal; everything a run changes is its own `result`
  // and stack, or a shared cache entry it has claimed.
  TraversalEnd run(NodePair* stack, std::uint32_t& size, std::uint64_t budget, QueryResult& result,
                   bool record_frontier) const {
    auto overlap = [&](std::uint32_t e, std::uint32_t f) {
      return simd::slab_overlap<Arch, Shape::lanes>(env_.node_bounds(e), fly_bounds(f, result));
    };
    auto leaf = [&](std::uint32_t e, std::uint32_t f) { return leaf_pairs(e, f, result); };
    // The cut, coarsened as it is recorded: two siblings both rejected become their parent
    // (rejected too), up the tree, so regions the object has left cost one test, not many.
    // Entries carry the rejected flag in their top bit.
    auto settled = [&](std::uint32_t e, bool rejected) {
      if (!record_frontier) return;
      constexpr std::uint32_t flag = 0x80000000u;
      std::uint32_t entry = e | (rejected ? flag : 0);
      std::uint32_t& n = s_.next_frontier_size;
      const TreeTopology& topo = env_.topology;
      while ((entry & flag) && n > 0 && n <= DopQueryScratch<K>::frontier_capacity) {
        const std::uint32_t left = s_.next_frontier[n - 1];
        const std::uint32_t node = entry & ~flag, left_node = left & ~flag;
        const bool siblings = (left & flag) && left_node > 0 && topo.right(left_node - 1) == node &&
                              topo.left(left_node - 1) == left_node && !topo.is_leaf(left_node - 1);
        if (!siblings) break;
        --n;
        entry = (left_node - 1) | flag;
      }
      if (n < DopQueryScratch<K>::frontier_capacity) s_.next_frontier[n] = entry;
      ++n;  // past the capacity: too big to be worth a hot start
    };
    if (options_.descent == DescentRule::larger_first) {
      auto larger = [&](std::uint32_t e, std::uint32_t f) {
        return env_.size[e] >= fly_.tree.size[f];
      };
      return traverse_trees(env_.topology, fly_.tree.topology, stack, size, overlap, leaf, larger,
                            settled, result.stats.n_v, budget);
    }
    auto always = [](std::uint32_t, std::uint32_t) { return true; };
    return traverse_trees(env_.topology, fly_.tree.topology, stack, size, overlap, leaf, always,
                          settled, result.stats.n_v, budget);
  }

  QueryMode mode() const { return options_.mode; }

 private:
  // Claims a cache entry for this pose: true if the caller must fill it (then publish()), false
  // once someone else has (waiting while another task fills it).
  bool claim(std::uint32_t& stamp) const {
    if (!shared_) {
      if (stamp == s_.epoch) return false;
      stamp = s_.epoch;
      return true;
    }
    std::atomic_ref<std::uint32_t> a(stamp);
    std::uint32_t seen = a.load(std::memory_order_acquire);
    for (;;) {
      if (seen == s_.epoch) return false;
      if (seen == DopQueryScratch<K>::busy) {
        seen = a.load(std::memory_order_acquire);
        continue;
      }
      if (a.compare_exchange_weak(seen, DopQueryScratch<K>::busy, std::memory_order_acquire))
        return true;
    }
  }
  void publish(std::uint32_t& stamp) const {
    if (shared_) std::atomic_ref<std::uint32_t>(stamp).store(s_.epoch, std::memory_order_release);
  }

  const float* fly_bounds(std::uint32_t f, QueryResult& result) const {
    float* out = s_.tumbled.data() + std::size_t{f} * Shape::floats;
    if (claim(s_.tumble_stamp[f])) {
      ++result.stats.n_u;
      if (f == 0) {
        // Only a query's single traversal tumbles the root (its first pair involves the root,
        // and tasks come later), so the hints need no claim.
        if (!s_.root_hints_valid) {
          seed_root_hints<Arch>(fly_, frame_, s_.root_hints.data());
          s_.root_hints_valid = true;
        }
        tumble_root<Arch>(fly_, frame_, out, s_.root_hints.data());
      } else if (options_.tumble == TumbleMethod::affine) {
        tumble_node_affine<Arch>(fly_, frame_, f, out);
      } else {
        tumble_node<Arch>(fly_, frame_, f, out);
      }
      publish(s_.tumble_stamp[f]);
    }
    return out;
  }

  // apply_pose's coordinates of a flying slot, computed once per pose.
  Triangle moved_slot(std::uint32_t fs) const {
    const LeafTriangles& t = fly_.tree.triangles;
    if (claim(s_.slot_stamp[fs])) {
      for (int c = 0; c < 3; ++c) {
        const Vec3 q = apply_pose(pose_, Vec3{t.x(c)[fs], t.y(c)[fs], t.z(c)[fs]});
        moved_[c][fs] = q.x;
        moved_[3 + c][fs] = q.y;
        moved_[6 + c][fs] = q.z;
      }
      publish(s_.slot_stamp[fs]);
    }
    const auto& m = moved_;
    return Triangle{{m[0][fs], m[3][fs], m[6][fs]},
                    {m[1][fs], m[4][fs], m[7][fs]},
                    {m[2][fs], m[5][fs], m[8][fs]}};
  }

  bool leaf_pairs(std::uint32_t e, std::uint32_t f, QueryResult& result) const {
    const TreeTopology& fly_topo = fly_.tree.topology;
    const LeafTriangles& fly_tris = fly_.tree.triangles;
    const LeafTriangles& env_tris = env_.triangles;
    const std::uint32_t f_first = fly_topo.child_or_first[f], f_count = fly_topo.leaf_count[f];
    const std::uint32_t e_first = env_.topology.child_or_first[e];
    const std::uint32_t e_end = e_first + env_.topology.leaf_count[e];
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const Triangle te = env_tris.triangle(es);
      const simd::PrefilterTriangle key = object_frame_key<Arch>(object_frame_, te);
      result.stats.n_p += f_count;
      for (std::uint32_t done = 0; done < f_count; done += 64) {
        const std::uint32_t chunk = f_count - done < 64 ? f_count - done : 64;
        std::uint64_t bits = simd::prefilter<Arch>(key, slots_, f_first + done, chunk);
        result.stats.n_exact += static_cast<std::uint64_t>(std::popcount(bits));
        for (; bits != 0; bits &= bits - 1) {
          const std::uint32_t fs =
              f_first + done + static_cast<std::uint32_t>(std::countr_zero(bits));
          if (!triangles_intersect(te, moved_slot(fs))) continue;
          result.collides = true;
          ++result.contacts;
          if (options_.mode == QueryMode::count_contacts) continue;
          append_contact(result.pairs, {env_tris.original[es], fly_tris.original[fs]});
          if (options_.mode == QueryMode::first_contact) return true;
        }
      }
    }
    return false;
  }

  const DopTree<K>& env_;
  const FlyingDopTree<K>& fly_;
  const Pose& pose_;
  const QueryOptions& options_;
  const TumbleFrame<K>& frame_;
  const ObjectFrame& object_frame_;
  DopQueryScratch<K>& s_;
  bool shared_;
  simd::PrefilterSlots slots_;
  std::array<double*, LeafTriangles::array_count> moved_;  // s_.moved's arrays
};

template <class Arch, int K>
void split_query(const DopTraversal<Arch, K>& traversal, const NodePair* stack, std::uint32_t size,
                 std::uint64_t budget, std::uint32_t stack_size, bool parallel,
                 QueryResult& result);

// The tasks of a split query: one per remaining stack entry, in depth-first order (the top of
// the stack first), each with its own stack and result, splitting again at the budget.
template <class Arch, int K>
struct SplitTasks {
  const DopTraversal<Arch, K>* traversal;
  SplitBuffers* buffers;
  std::uint64_t budget;
  std::uint32_t stack_size;
  bool parallel;

  static void run_one(void* context, std::size_t index) {
    const auto& t = *static_cast<const SplitTasks*>(context);
    const auto i = static_cast<std::uint32_t>(index);
    NodePair* stack = t.buffers->stack(i);
    std::uint32_t size = 1;
    stack[0] = t.buffers->entries()[i];
    QueryResult& r = t.buffers->result(i);
    if (t.traversal->run(stack, size, t.budget, r, false) == TraversalEnd::paused) {
      split_query(*t.traversal, stack, size, t.budget, t.stack_size, t.parallel, r);
    }
  }
};

// Splits what remains on `stack` into tasks and adds their results to `result` in depth-first
// order, so counters, pairs and (first_contact) the witness do not depend on which thread ran
// what: every task runs to its own end, never cancelled by another's contact.
template <class Arch, int K>
void split_query(const DopTraversal<Arch, K>& traversal, const NodePair* stack, std::uint32_t size,
                 std::uint64_t budget, std::uint32_t stack_size, bool parallel,
                 QueryResult& result) {
  SplitBuffers buffers(stack, size, stack_size);
  SplitTasks<Arch, K> tasks{&traversal, &buffers, budget, stack_size, parallel};
  run_tasks(buffers.tasks(), &SplitTasks<Arch, K>::run_one, &tasks, parallel);
  buffers.merge_into(traversal.mode(), result);
}

// The cheapest test first: the object's bounding sphere at the pose against the environment
// root's DOP. A --matrix rotation may be orthonormal only to 1e-6, which scales lengths by at
// most 1.5e-6, so the radius grows by 4e-6 of itself; the projections' rounding is a few ulps.
template <class Arch, int K>
bool sphere_misses_root(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  const Vec3 c = apply_pose(pose, fly.sphere_center);
  const double scale = std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z);
  const double r = fly.sphere_radius * (1 + 4e-6) + 0x1p-48 * (scale + fly.sphere_radius);
  const float* b = env.node_bounds(0);
  for (int j = 0; j < Shape::slabs; ++j) {
    const double d = project(dirs[j], c.x, c.y, c.z);
    const double reach = r * norm(dirs[j]) * (1 + 0x1p-50) + projection_error_bound(scale);
    if (d - reach > b[Shape::lanes + j] || d + reach < b[j]) return true;
  }
  return false;
}

template <class Arch, int K>
void query_dop(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
               const QueryOptions& options, DopQueryScratch<K>& s, QueryResult& result) {
  s.prepare(env, fly);
  result.collides = false;
  result.contacts = 0;
  result.pairs.clear();
  result.stats = {};
  if (sphere_misses_root<Arch>(env, fly, pose)) {  // one BV pair tested, nothing tumbled
    result.stats.n_v = 1;
    return;
  }
  TumbleFrame<K> frame = make_tumble_frame<Arch>(fly, pose);
  if (options.tumble == TumbleMethod::affine) add_affine_frame<Arch>(fly, pose, frame);
  const ObjectFrame object_frame = make_object_frame<Arch>(fly, pose);

  // Start from the root pair, or from the previous pose's cut (in depth-first order: the first
  // settled node on top).
  std::uint32_t size = 0;
  const bool hot = options.hot_start && s.frontier_valid;
  if (hot) {
    for (std::uint32_t i = s.frontier_size; i-- > 0;)
      s.stack[size++] = {s.frontier[i] & 0x7FFFFFFFu, 0};
  } else {
    s.stack[size++] = {0, 0};
  }
  s.next_frontier_size = 0;
  const std::uint64_t budget =
      options.split_threshold > 0 ? options.split_threshold : ~std::uint64_t{0};
  DopTraversal<Arch, K> single(env, fly, pose, options, frame, object_frame, s, false);
  const TraversalEnd end = single.run(s.stack.data(), size, budget, result, options.hot_start);
  if (end == TraversalEnd::paused) {
    DopTraversal<Arch, K> shared(env, fly, pose, options, frame, object_frame, s, true);
    split_query(shared, s.stack.data(), size, budget,
                traversal_stack_size(env.topology, fly.tree.topology), options.parallel_tasks,
                result);
  }
  // The cut is complete only if the traversal ran to its end alone and it fitted.
  s.frontier_valid = options.hot_start && end == TraversalEnd::finished &&
                     s.next_frontier_size <= DopQueryScratch<K>::frontier_capacity;
  if (s.frontier_valid) {
    std::swap(s.frontier, s.next_frontier);
    s.frontier_size = s.next_frontier_size;
  }
}

}  // namespace kdop
