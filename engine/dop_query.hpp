#pragma once
// One collision query between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: Algorithm 1 (engine/traverse.hpp) with lazy tumbling (each flying node
// re-aligned at most once per pose) and leaf tests that run one environment triangle against
// all triangles of a flying leaf through the SIMD prefilter (simd/triangle_prefilter.hpp), then
// decide the survivors exactly on the pose-transformed double coordinates.
//
// The leaf test and its error bounds are engine/leaf_test.hpp.
//
// Templated on the ISA tag and instantiated once per ISA (engine/isa/). In first_contact mode
// the witness is the first intersecting pair in Algorithm 1's order (environment leaves in
// depth-first order, flying leaves in depth-first order within, then triangles by slot), the
// same for every ISA; with the hot start, the previous pose's witness where it still intersects
// (previous_witness_holds, engine/leaf_test.hpp).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/leaf_test.hpp"
#include "engine/parallel.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/pose.hpp"
#include "geometry/staggered_arrays.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/box_against_dop.hpp"
#include "simd/slab_overlap.hpp"
#include "simd/triangle_dop.hpp"

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
  PrefilterKeyCache keys;  // environment triangles' keys, this pose (single traversals only)
  // A split query's tasks share no cache: each thread running them keeps its own, by task_slot()
  // (engine/parallel.hpp), made when it first runs one. A task covers a subtree, where a key's
  // reuse is near, so these are smaller (about 50 KB). Every scratch of a batch may hold some, so
  // only the first task_key_caches slots get one, which bounds them per scratch (the others
  // compute their keys uncached).
  std::vector<PrefilterKeyCache> task_keys;
  static constexpr std::uint32_t task_key_entries = 512;
  static constexpr unsigned task_key_caches = 8;
  // Corner c of a slot at the pose (apply_pose): x in array c, y in 3 + c, z in 6 + c.
  StaggeredArrays<double> moved;
  // Hot start: the previous pose's cut of the environment hierarchy (traverse_trees' `settled`
  // nodes), valid only if that traversal ran to the end without splitting or overflowing.
  std::vector<std::uint32_t> frontier, next_frontier;
  std::uint32_t frontier_size = 0, next_frontier_size = 0;
  bool frontier_valid = false;
  // The previous pose's witness (first_contact), tested first by the next pose of the chain.
  PreviousWitness witness;
  // The previous pose's extreme root-hull vertices, hill-climbing's starts (tumble_root).
  std::array<std::uint32_t, 2 * DopShape<K>::slabs> root_hints{};
  bool root_hints_valid = false;
  // The previous pose's cones of the affine frame, one per slab (indices into
  // normal_fan<K>().cones, or NormalFan::no_cone), tried first by the next pose's
  // (add_affine_frame).
  std::array<std::uint16_t, DopShape<K>::slabs> cone_hints{};
  std::uint32_t epoch = 0;
  // The hierarchies of the previous pose: their addresses and root DOPs, what the carried state
  // names: the environment's shape (TreeTopology::shape_hash, which fixes its nodes and slots:
  // the frontier) and the flying root hull's size (the hints). Other trees start cold, even one
  // rebuilt in place from the same mesh (same address and root) with another leaf size or split
  // rule, and a tree without a shape hash (0) always. (The witness's slots are checked where it
  // is used.)
  const void* env_seen = nullptr;
  const void* fly_seen = nullptr;
  std::array<float, 2 * DopShape<K>::floats> roots_seen{};
  std::uint64_t env_shape_seen = 0;
  std::size_t hull_points_seen = 0;

  // Sizes the buffers for this pair of hierarchies (only when their sizes changed), forgets
  // the hot-start state when the hierarchies are not the previous pose's, and starts a new
  // pose. Defined in dop_query.cpp, compiled once.
  void prepare(const DopTree<K>& env, const FlyingDopTree<K>& fly);
  // Before a split: room for a key cache for every thread that may run its tasks.
  void prepare_task_keys();
  // The calling thread's cache for a split task (made on first use), or null if it has none.
  PrefilterKeyCache* task_key_cache();
  // Every key cache empty (the query's and the tasks'): when the epochs start again.
  void forget_keys();
  // The next pose does not follow the previous one (a new path or block): no hot start.
  void start_chain() {
    frontier_valid = false;
    witness.valid = false;
    root_hints_valid = false;
    cone_hints.fill(NormalFan::no_cone);
  }
};

extern template struct DopQueryScratch<6>;
extern template struct DopQueryScratch<8>;
extern template struct DopQueryScratch<14>;
extern template struct DopQueryScratch<18>;
extern template struct DopQueryScratch<26>;
extern template struct DopQueryScratch<32>;

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

// One traversal (the whole query, or one task of a split query) over shared per-pose state.
// The k/2 directions of a K-DOP across lanes, for simd::triangle_may_meet_dop.
template <int K>
constexpr simd::SlabDirections<DopShape<K>::lanes> slab_directions() {
  simd::SlabDirections<DopShape<K>::lanes> d{};
  const auto dirs = DopShape<K>::directions();
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    d.nx[j] = static_cast<float>(dirs[j].x);
    d.ny[j] = static_cast<float>(dirs[j].y);
    d.nz[j] = static_cast<float>(dirs[j].z);
    d.l1[j] = static_cast<float>(l1_norm(dirs[j]));
  }
  return d;
}

// The object's bounding sphere at the pose, projected on each slab direction j: [lo[j], hi[j]]
// holds every corner moved by apply_pose. A --matrix rotation may be orthonormal only to 1e-6,
// which scales lengths by at most 1.5e-6, so the radius grows by 4e-6 of itself; the
// projections' rounding is a few ulps. Computed once per pose: the first test against the
// environment's root, then the clip of the flying root's DOP.
template <int K>
struct SphereSlabs {
  double lo[DopShape<K>::slabs], hi[DopShape<K>::slabs];
};

// (Arch, unused here, keeps each ISA's copy apart: see engine/isa/.)
template <class Arch, int K>
SphereSlabs<K> sphere_slabs(const FlyingDopTree<K>& fly, const Pose& pose) {
  constexpr auto dirs = DopShape<K>::directions();
  const Vec3 c = apply_pose(pose, fly.sphere_center);
  const double scale = std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z);
  const double r = fly.sphere_radius * (1 + 4e-6) + 0x1p-48 * (scale + fly.sphere_radius);
  const double rounding = projection_error_bound(scale);
  SphereSlabs<K> out;
  for_each_slab<K>([&](auto j) {
    const double d = project(dirs[j], c.x, c.y, c.z);
    const double reach = r * (norm(dirs[j]) * (1 + 0x1p-50)) + rounding;
    out.lo[j] = d - reach;
    out.hi[j] = d + reach;
  });
  return out;
}

// RootMethod::automatic: where the exact root is worth its hill-climb. Measured
// (docs/design-notes.md, "The flying root's DOP"):
// - a flying root that is a leaf (since the builder splits every root of two or more triangles:
//   a one-triangle object, or a hierarchy file written before) is the only flying DOP, tested
//   against every environment node the query visits (the swept flight, when its axe was one
//   leaf: N_v 492 -> 589 without the exact root);
// - with 6 or 8 directions the DOP of the transformed box is up to sqrt 3 wider than the exact
//   one per axis (torus flight, K = 6: N_v 1,554 -> 2,676);
// - where the root's DOP by method II (`tumbled`) is not inside the environment root's, a tight
//   root may separate at the top (tori side by side: N_v 7 -> 247-376), if the hull's points
//   leave that possible (exact_root_may_separate).
// Otherwise (flights and nested objects) the exact root saves few node pairs and costs more.
template <class Arch, int K>
bool root_needs_exact(const FlyingDopTree<K>& fly) {
  return K <= 8 || fly.tree.topology.is_leaf(0);
}

template <class Arch, int K>
bool root_pokes_out(const float* env_root, const float* tumbled) {
  using Shape = DopShape<K>;
  for (int j = 0; j < Shape::slabs; ++j) {
    if (tumbled[j] < env_root[j] || tumbled[Shape::lanes + j] > env_root[Shape::lanes + j])
      return true;
  }
  return false;
}

// Where the root pokes out: whether the exact root could separate the environment's root or one
// of its children where `tumbled` (method II's root) does not. The flying tree's inner points lie
// in the object, so their tumbled projections bound the exact DOP from inside: where they overlap
// a node along every direction, so does the exact DOP. One pass of the tumble kernel over at most
// 96 contiguous points (the rule first looked up the cube map's starts and their hull points,
// cold after a traversal: 0.2-0.4 us). A point's float rounding is well inside root_widen, so
// where the exact root separates a node, so does the inner DOP: the rule misses no such climb. The
// choice depends on the pose alone (not on the hints a chain of poses carries), so it, and the
// counters, are the same for a pose wherever it runs. Tori that intersect (distance 0.7-1.9) keep
// method II's root this way (the climb cost 1-2 us per pose there and saved no node pair); tori
// that touch (distance 2.0), where the exact root separates the environment's halves, take the
// climb.
template <class Arch, int K>
bool exact_root_may_separate(const DopTree<K>& env, const FlyingDopTree<K>& fly,
                             const TumbleFrame<K>& frame, const float* tumbled) {
  using Shape = DopShape<K>;
  const InnerPoints& p = fly.root_inner;
  if (p.x.empty()) return true;
  float inner[Shape::floats];  // padding lanes: [0, 0], inside the nodes' [-inf, inf]
  simd::tumble_vertices<Arch, Shape::lanes>(frame.slabs, p.x.data(), p.y.data(), p.z.data(),
                                            static_cast<std::uint32_t>(p.x.size()), inner);
  auto may_gain = [&](std::uint32_t e) {
    const float* node = env.node_bounds(e);
    return !simd::slab_overlap<Arch, Shape::lanes>(node, inner) &&
           simd::slab_overlap<Arch, Shape::lanes>(node, tumbled);
  };
  if (may_gain(0)) return true;
  const TreeTopology& topo = env.topology;
  return !topo.is_leaf(0) && (may_gain(topo.left(0)) || may_gain(topo.right(0)));
}

// The flying DOPs' slabs in the world for simd::box_may_meet_dop and
// simd::world_triangle_may_meet_dop: w_j = R^-T n_j (the inverse's transpose, as a --matrix pose
// may be orthonormal only to 1e-6) rounded to float, and o_j = w_j . t. The margin m_j covers, for
// any world point x of the environment root's box (|x|_inf <= M) and a flying point that meets it:
//   - the float span over the box or a triangle: three products and two sums, at most 4 units of
//     2^-24 of |w_j|_1 M, and a triangle's corners rounded to float, one unit more;
//   - w_j rounded to float: 2^-24 |w_j|_1 |x - t|_inf, with |t|_inf = T;
//   - the flying corners as the exact test sees them (apply_pose's doubles) mapped back by the
//     computed inverse, off from the stored ones by at most 2^-48 (r + T) per coordinate, r the
//     corner radius: |n_j|_1 times that;
//   - the float sum lo_j + off (2^-24 of |n_j|_1 r + |o_j| + m_j) and the underflow floor.
// 2^-20 of |w_j|_1 (M + T) + |o_j| + |n_j|_1 r, plus 2^-44 |n_j|_1 (M + T + r), holds them all
// with room. Where those magnitudes pass 1e36 (float's range nears), the slab never rejects.
// (M bounds every environment corner: directions 0-2 are the axes for every K but 8, and the
// leaves' DOPs are the corners' ranges rounded outward.) The margin scales with the scene, not
// with one triangle as a key's does: for an object tiny against a far environment the tests
// through this frame part less, never wrongly.
template <class Arch, int K>
simd::BoxDopFrame<DopShape<K>::lanes> box_dop_frame(const DopTree<K>& env,
                                                    const ObjectFrame& object_frame) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  simd::BoxDopFrame<Shape::lanes> f{};
  const float* root = env.node_bounds(0);
  double m_env = 0;
  for (int a = 0; a < 3; ++a) {
    m_env =
        std::max({m_env, std::fabs(double{root[a]}), std::fabs(double{root[Shape::lanes + a]})});
  }
  const double* inv = object_frame.inv;
  const double reach = m_env + object_frame.t_max;
  // Padding lanes stay zero (f{}): w = 0 and offset 0 against the DOP's [-inf, inf] never reject.
  // Unrolled over the slabs with n_j a constant, as in make_tumble_frame: each w_j component is
  // the one to three signed additions `project` makes.
  for_each_slab<K>([&](auto jc) {
    constexpr int j = decltype(jc)::value;
    constexpr Direction n = dirs[j];
    constexpr double n1 = l1_norm(n);
    double w[3];
    for (int a = 0; a < 3; ++a) w[a] = project(n, inv[a], inv[3 + a], inv[6 + a]);
    f.wx[j] = static_cast<float>(w[0]);
    f.wy[j] = static_cast<float>(w[1]);
    f.wz[j] = static_cast<float>(w[2]);
    const double wf[3] = {f.wx[j], f.wy[j], f.wz[j]};
    const double w1 = std::fabs(wf[0]) + std::fabs(wf[1]) + std::fabs(wf[2]);
    const double o =
        (wf[0] * object_frame.t[0] + wf[1] * object_frame.t[1]) + wf[2] * object_frame.t[2];
    const double scale = w1 * reach + std::fabs(o) + n1 * object_frame.radius;
    if (!(scale <= 1e36)) {
      f.off_lo[j] = -std::numeric_limits<float>::infinity();
      f.off_hi[j] = std::numeric_limits<float>::infinity();
      return;
    }
    const double m =
        0x1p-20 * scale + 0x1p-44 * n1 * (reach + object_frame.radius) + 4 * kFloatUnderflowFloor;
    f.off_lo[j] = float_below_fast(o - m);
    f.off_hi[j] = float_above_fast(o + m);
  });
  return f;
}

template <class Arch, int K>
class DopTraversal {
 public:
  using Shape = DopShape<K>;
  static constexpr simd::SlabDirections<Shape::lanes> kSlabDirections = slab_directions<K>();

  // `frame`'s affine part, `object_frame` and `box_frame` are filled by the first test that needs
  // them (make_affine_frame, make_object_frame, make_box_frame); a shared traversal (split tasks)
  // must get them filled.
  DopTraversal(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
               const SphereSlabs<K>& sphere, const QueryOptions& options, TumbleFrame<K>& frame,
               bool affine_ready, ObjectFrame& object_frame, bool object_ready,
               simd::BoxDopFrame<DopShape<K>::lanes>& box_frame, bool box_ready,
               DopQueryScratch<K>& s, bool shared)
      : env_(env),
        fly_(fly),
        pose_(pose),
        sphere_(sphere),
        options_(options),
        frame_(frame),
        affine_ready_(affine_ready),
        object_frame_(object_frame),
        object_ready_(object_ready),
        box_frame_(box_frame),
        box_ready_(box_ready),
        s_(s),
        shared_(shared),
        slots_(fly.floats.template slots<Arch>()),
        prefilter_(prefilter_pays<Arch>(fly.corner_radius)) {
    // The moved corners' arrays, looked up once per query rather than per slot.
    for (int a = 0; a < LeafTriangles::array_count; ++a) moved_[a] = s.moved.mutable_array(a);
  }

  // The affine frame (a cone per slab, serving both offsets; widenings), made once per pose by the
  // first node that needs it: a pose whose tumbles are all leaves or the root pays nothing for it.
  // Its cones start from the previous pose's of the chain (s_.cone_hints). Only the single
  // traversal makes it: a split query makes it before sharing the traversal (query_dop).
  void make_affine_frame() const {
    if (affine_ready_) return;
    add_affine_frame<Arch>(fly_, frame_, s_.cone_hints.data());
    affine_ready_ = true;
  }
  bool affine_ready() const { return affine_ready_; }

  // The pose's inverse for moving environment triangles into the object's frame (make_object_frame,
  // nine divisions), made once per pose by the first key or box frame: a query that ends in the
  // upper levels never needs it.
  const ObjectFrame& make_object_frame() const {
    if (!object_ready_) [[unlikely]] {
      object_frame_ = kdop::make_object_frame<Arch>(fly_.corner_radius, pose_);
      object_ready_ = true;
    }
    return object_frame_;
  }
  bool object_ready() const { return object_ready_; }

  // The flying DOPs' slabs in the world (box_dop_frame), made once per pose by the first test that
  // needs them: about 500-1,000 instructions for K = 14-32, a sixth of a query that ends in the
  // upper levels (nested spheres far apart), which never needs them. The 8-DOP has none.
  const simd::BoxDopFrame<Shape::lanes>& make_box_frame() const {
    if (!box_ready_) [[unlikely]]
      fill_box_frame();
    return box_frame_;
  }
  bool box_ready() const { return box_ready_; }
  // Out of line, so that the tests calling make_box_frame stay small.
  [[gnu::noinline]] void fill_box_frame() const {
    box_frame_ = box_dop_frame<Arch, K>(env_, make_object_frame());
    box_ready_ = true;
  }

  // Traverses from stack[0, size) into `result` (its counters and pairs add up); stops at the
  // budget of node pairs (paused) or, in first_contact mode, at the first contact.
  // Const: concurrent tasks share one traversal; everything a run changes is its own `result`
  // and stack, or a shared cache entry it has claimed.
  TraversalEnd run(NodePair* stack, std::uint32_t& size, std::uint64_t budget, QueryResult& result,
                   bool record_frontier, PrefilterKeyCache* keys) const {
    // Inlined into the traversal loop on every ISA (GCC left it out of line for some).
    auto overlap = [&](std::uint32_t e, std::uint32_t f) __attribute__((always_inline)) {
      // An environment leaf against a flying node not yet tumbled in this pose (other than the
      // root): the leaf's box, then its triangles against the node's own DOP (in the world) and
      // plate (by the triangles' keys, cached per pose), before the tumble. On the flights most
      // such pairs end there, and the node is never tumbled ("Environment leaves against the flying
      // nodes' own DOPs" in docs/design-notes.md).
      // Against a flying inner node tumbled already, the single traversal takes the slab and box
      // tests alone and leaves the triangles to the node's children: there they pass four times
      // in five (torus flight), and the children test them anyway (7.6% fewer instructions on the
      // torus flight; "a tumbled inner node's triangles left to its children" in
      // docs/design-notes.md). Split tasks share the tumbles, so whether a node is tumbled when a
      // task comes depends on the other tasks: they test the triangles on both paths, a pair
      // passing only all three tests whichever tumbles came first, so their counters are the same
      // on any thread count. (A flying leaf's triangles are tested in leaf_pairs, which counts no
      // pair for a triangle that misses.)
      const float* tumbled = tumbled_in_this_pose(f);
      if (!tumbled && f != 0 && env_.topology.is_leaf(e)) {
        if (options_.boxes && !box_meets(e, f)) return false;
        if (env_leaf_misses_node(e, f, keys)) return false;
        return simd::slab_overlap<Arch, Shape::lanes>(env_.node_bounds(e), fly_bounds(f, result));
      }
      if (!simd::slab_overlap<Arch, Shape::lanes>(env_.node_bounds(e),
                                                  tumbled ? tumbled : fly_bounds(f, result)))
        return false;
      const bool env_leaf = env_.topology.is_leaf(e), fly_leaf = fly_.tree.topology.is_leaf(f);
      // Where either node is a leaf, the environment node's box against the flying node's own DOP
      // too: a rejection there saves a subtree against a leaf. (Between two inner nodes it was
      // measured to cost about what it saves.)
      if (options_.boxes && (env_leaf || fly_leaf) && !box_meets(e, f)) return false;
      return !env_leaf || fly_leaf || !shared_ || !env_leaf_misses_node(e, f, keys);
    };
    auto leaf = [&](std::uint32_t e, std::uint32_t f) { return leaf_pairs(e, f, result, keys); };
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
  PrefilterKeyCache* task_key_cache() const { return s_.task_key_cache(); }

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
  // Flying node f's tumbled DOP if this pose has it already, else null (also while another task
  // is tumbling it).
  const float* tumbled_in_this_pose(std::uint32_t f) const {
    const std::uint32_t stamp =
        shared_ ? std::atomic_ref<std::uint32_t>(s_.tumble_stamp[f]).load(std::memory_order_acquire)
                : s_.tumble_stamp[f];
    return stamp == s_.epoch ? tumbled_slot(f) : nullptr;
  }
  float* tumbled_slot(std::uint32_t f) const {
    return s_.tumbled.data() + std::size_t{f} * Shape::floats;
  }
  void publish(std::uint32_t& stamp) const {
    if (shared_) std::atomic_ref<std::uint32_t>(stamp).store(s_.epoch, std::memory_order_release);
  }

  // Environment node e's box against flying node f's own DOP, in the object's frame
  // (simd/box_against_dop.hpp). The 8-DOP's nodes hold no box.
  [[gnu::always_inline]] bool box_meets(std::uint32_t e, std::uint32_t f) const {
    if constexpr (K == 8) {
      return true;
    } else {
      const float* b = env_.node_bounds(e);
      return simd::box_may_meet_dop<Arch, Shape::lanes>(make_box_frame(), b, b + Shape::lanes,
                                                        fly_.tree.node_bounds(f));
    }
  }

  // Inlined into the traversal loop: GCC otherwise calls it for every node pair, which cost the
  // tori 30% more instructions.
  [[gnu::always_inline]] const float* fly_bounds(std::uint32_t f, QueryResult& result) const {
    float* out = tumbled_slot(f);
    if (claim(s_.tumble_stamp[f])) {
      ++result.stats.n_u;
      if (f == 0) {
        tumble_flying_root(out);
      } else if (options_.tumble == TumbleMethod::affine ||
                 (options_.tumble == TumbleMethod::automatic && !fly_.tree.topology.is_leaf(f))) {
        make_affine_frame();
        tumble_node_affine<Arch>(fly_, frame_, f, out);
      } else {
        tumble_node<Arch>(fly_, frame_, f, out);
      }
      publish(s_.tumble_stamp[f]);
    }
    return out;
  }

  // The flying root: method II's DOP first (tens of ns), the exact one (method I, hill-climbing
  // the hull) where options_.root asks for it, or where it may pay: root_needs_exact, or
  // root_pokes_out and exact_root_may_separate. The exact climb costs 0.2-0.7 us with the hull in
  // cache and microseconds after a large environment's traversal has evicted it ("The flying root's
  // DOP" in docs/design-notes.md). Only a query's single traversal tumbles the root (its first pair
  // involves the root, and tasks come later), so the hints need no claim.
  void tumble_flying_root(float* out) const {
    bool exact = options_.root == RootMethod::exact ||
                 (options_.root == RootMethod::automatic && root_needs_exact<Arch>(fly_));
    if (!exact) {
      tumble_node<Arch>(fly_, frame_, 0, out);
      clip_to_sphere(out);
      exact = options_.root == RootMethod::automatic &&
              root_pokes_out<Arch, K>(env_.node_bounds(0), out) &&
              exact_root_may_separate<Arch>(env_, fly_, frame_, out);
    }
    if (!exact) return;
    if (!s_.root_hints_valid) {
      seed_root_hints<Arch>(fly_, frame_, s_.root_hints.data());
      s_.root_hints_valid = true;
    }
    tumble_root<Arch>(fly_, frame_, out, s_.root_hints.data());
  }

  // Both the root's DOP and the object's bounding sphere hold the object, so their intersection
  // does: the sphere is the tighter of the two along the directions where the rotated DOP's
  // corners stick out.
  void clip_to_sphere(float* out) const {
    for (int j = 0; j < Shape::slabs; ++j) {
      out[j] = std::max(out[j], float_below_fast(sphere_.lo[j]));
      out[Shape::lanes + j] = std::min(out[Shape::lanes + j], float_above_fast(sphere_.hi[j]));
    }
  }

  // apply_pose's coordinates of a flying slot, computed once per pose.
  Triangle moved_slot(std::uint32_t fs) const {
    if (claim(s_.slot_stamp[fs])) {
      move_slot<Arch>(pose_, fly_.tree.triangles, fs, moved_.data());
      publish(s_.slot_stamp[fs]);
    }
    return moved_triangle<Arch>(moved_.data(), fs);
  }

  // The prefilter key of environment slot es (triangle te) for this pose: from `keys`, the
  // thread's cache for this pose, or, without one, computed into `own` (engine/leaf_test.hpp).
  const simd::PrefilterTriangle& env_key(PrefilterKeyCache* keys, UncachedKey& own,
                                         std::uint32_t es, bool whole) const {
    if (keys)
      return cached_key<Arch>(*keys, s_.epoch, make_object_frame(), env_.triangles, es, whole);
    return uncached_key<Arch>(own, make_object_frame(), env_.triangles, es, whole);
  }

  // Every triangle of environment leaf e misses flying node f (triangle_misses_node): the test
  // leaf_pairs makes against a flying leaf, made against an inner node.
  // Out of line: the overlap test that calls it runs for every node pair and must stay inlined.
  [[gnu::noinline]] bool env_leaf_misses_node(std::uint32_t e, std::uint32_t f,
                                              PrefilterKeyCache* keys) const {
    UncachedKey own;
    const std::uint32_t first = env_.topology.child_or_first[e];
    const std::uint32_t end = first + env_.topology.leaf_count[e];
    for (std::uint32_t es = first; es < end; ++es) {
      if (!triangle_misses_node(keys, own, es, f)) return false;
    }
    return true;
  }

  // Environment triangle es against flying node f: the node's own DOP (its slabs mapped to the
  // world, simd::world_triangle_may_meet_dop; the 8-DOP's in the object's frame, by the key's
  // corners), then the node's plate along its mean normal (builders/node_plate.hpp), by the key
  // (the pose's cache, or computed into `own`). The key, computed only for triangles the DOP lets
  // through, costs more than the DOP test (a double-precision move into the object's frame, then a
  // cache entry): on the torus flight (kdop32, measured with the DOP test in the object's frame)
  // the DOP rejected 57% of these tests and the plate 3% of all (8% of the DOP's survivors).
  // Neither for objects below prefilter_pays' size.
  bool triangle_misses_node(PrefilterKeyCache* keys, UncachedKey& own, std::uint32_t es,
                            std::uint32_t f) const {
    if (!prefilter_) return false;  // float tests of subnormal size: too slow to pay
    const float* dop = fly_.tree.node_bounds(f);
    if constexpr (K == 8) {
      // No box frame: without axis slabs the environment root bounds no box for its margin.
      const simd::PrefilterTriangle& key = env_key(keys, own, es, false);
      return !simd::triangle_may_meet_dop<Arch, Shape::lanes>(kSlabDirections, dop, key.x, key.y,
                                                              key.z, key.slab_margin) ||
             (options_.plates && triangle_misses_plate<Arch>(fly_.plates.node(f), key.x, key.y,
                                                             key.z, key.slab_margin));
    } else {
      // The world corners, rounded to float, on the node's slabs mapped to the world: most
      // triangles end here, without the key (box_dop_frame's margin covers the rounding).
      const float* c = env_.corner_floats.data() + std::size_t{es} * kCornerFloatsPerSlot;
      if (!simd::world_triangle_may_meet_dop<Arch, Shape::lanes>(make_box_frame(), c, c + 3, c + 6,
                                                                 dop))
        return true;
      if (!options_.plates) return false;
      const simd::PrefilterTriangle& key = env_key(keys, own, es, false);
      return triangle_misses_plate<Arch>(fly_.plates.node(f), key.x, key.y, key.z, key.slab_margin);
    }
  }

  // `keys`: the pose's key cache of this thread, or null (each key computed where it is needed).
  bool leaf_pairs(std::uint32_t e, std::uint32_t f, QueryResult& result,
                  PrefilterKeyCache* keys) const {
    auto moved = [&](std::uint32_t fs) { return moved_slot(fs); };
    // Without a cache (a task on an arena slot past DopQueryScratch::task_key_caches), each key
    // is computed once per triangle here: its corners first (for the plate), the rest if the
    // triangle passes the leaf's DOP and plate.
    UncachedKey own;
    // The environment triangle against the flying leaf as a whole.
    auto misses_leaf = [&](std::uint32_t es) { return triangle_misses_node(keys, own, es, f); };
    auto key_of = [&](std::uint32_t es, bool whole) -> const simd::PrefilterTriangle& {
      return env_key(keys, own, es, whole);
    };
    return test_leaf_pair<Arch>(env_.triangles, env_.topology, e, fly_.tree.triangles,
                                fly_.tree.topology, f, slots_, prefilter_, options_.mode, moved,
                                key_of, misses_leaf, result, shared_ ? nullptr : &s_.witness.slots);
  }

  const DopTree<K>& env_;
  const FlyingDopTree<K>& fly_;
  const Pose& pose_;
  const SphereSlabs<K>& sphere_;
  const QueryOptions& options_;
  TumbleFrame<K>& frame_;
  mutable bool affine_ready_;  // frame_.affine is filled
  ObjectFrame& object_frame_;
  mutable bool object_ready_;  // object_frame_ is filled
  simd::BoxDopFrame<DopShape<K>::lanes>& box_frame_;
  mutable bool box_ready_;  // box_frame_ is filled
  DopQueryScratch<K>& s_;
  bool shared_;
  simd::PrefilterSlots slots_;
  std::array<double*, LeafTriangles::array_count> moved_;  // s_.moved's arrays
  bool prefilter_;                                         // prefilter_pays
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
    PrefilterKeyCache* keys = t.traversal->task_key_cache();
    if (t.traversal->run(stack, size, t.budget, r, false, keys) == TraversalEnd::paused) {
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
// root's DOP.
// (Arch, unused here, keeps each ISA's copy apart: see engine/isa/.)
template <class Arch, int K>
bool sphere_misses_root(const DopTree<K>& env, const SphereSlabs<K>& sphere) {
  using Shape = DopShape<K>;
  const float* b = env.node_bounds(0);
  for (int j = 0; j < Shape::slabs; ++j) {
    if (sphere.lo[j] > b[Shape::lanes + j] || sphere.hi[j] < b[j]) return true;
  }
  return false;
}

// A pose whose sphere meets the environment's root: the rest of query_dop. Out of line, so a pose
// the sphere test answers pays neither this frame's set-up nor the scratch's prepare.
template <class Arch, int K>
[[gnu::noinline]] void query_dop_traversal(const DopTree<K>& env, const FlyingDopTree<K>& fly,
                                           const Pose& pose, const QueryOptions& options,
                                           DopQueryScratch<K>& s, const SphereSlabs<K>& sphere,
                                           QueryResult& result) {
  s.prepare(env, fly);
  // The previous witness first: a pose of a chain still in contact through it is answered here.
  // The cut and the root hints stay as they were (a pose that stopped at a contact left no cut).
  const bool witness_first = options.hot_start && options.mode == QueryMode::first_contact;
  if (witness_first &&
      previous_witness_holds<Arch>(env.triangles, fly.tree.triangles, pose, s.witness, result)) {
    return;
  }
  TumbleFrame<K> frame = make_tumble_frame<Arch>(fly, pose);
  ObjectFrame object_frame;  // made when first needed (DopTraversal::make_object_frame)
  // For the box test and the environment triangles against flying nodes, made when first needed
  // (DopTraversal::make_box_frame; the 8-DOP's nodes hold no box, so it has neither).
  simd::BoxDopFrame<DopShape<K>::lanes> box_frame;

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
  DopTraversal<Arch, K> single(env, fly, pose, sphere, options, frame, false, object_frame, false,
                               box_frame, false, s, false);
  const TraversalEnd end =
      single.run(s.stack.data(), size, budget, result, options.hot_start, &s.keys);
  if (end == TraversalEnd::paused) {
    s.prepare_task_keys();
    // Tasks share the frames and never write them: the affine part is made now if a method uses
    // it, the object frame and the box frame.
    if (options.tumble != TumbleMethod::vertices) single.make_affine_frame();
    single.make_object_frame();
    if constexpr (K != 8) single.make_box_frame();
    DopTraversal<Arch, K> shared(env, fly, pose, sphere, options, frame, single.affine_ready(),
                                 object_frame, single.object_ready(), box_frame, single.box_ready(),
                                 s, true);
    split_query(shared, s.stack.data(), size, budget,
                traversal_stack_size(env.topology, fly.tree.topology), options.parallel_tasks,
                result);
  }
  // The traversal that stopped at a contact recorded its pair (a split query's tasks do not).
  s.witness.valid = witness_first && end == TraversalEnd::stopped;
  // The cut is complete only if the traversal ran to its end alone and it fitted.
  s.frontier_valid = options.hot_start && end == TraversalEnd::finished &&
                     s.next_frontier_size <= DopQueryScratch<K>::frontier_capacity;
  if (s.frontier_valid) {
    std::swap(s.frontier, s.next_frontier);
    s.frontier_size = s.next_frontier_size;
  }
}

template <class Arch, int K>
void query_dop(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
               const QueryOptions& options, DopQueryScratch<K>& s, QueryResult& result) {
  result.collides = false;
  result.contacts = 0;
  result.pairs.clear();
  result.stats = {};
  const SphereSlabs<K> sphere = sphere_slabs<Arch>(fly, pose);
  if (sphere_misses_root<Arch>(env, sphere)) {  // one BV pair tested, nothing tumbled
    // The scratch is not prepared: this pose stamps nothing, and the next traversal compares
    // its hierarchies with the ones prepared last (the cut stays valid, as it did before).
    result.stats.n_v = 1;
    s.witness.valid = false;
    return;
  }
  query_dop_traversal<Arch>(env, fly, pose, options, s, sphere, result);
}

}  // namespace kdop
