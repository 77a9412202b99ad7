#include "engine/proximity_query.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/leaf_test.hpp"
#include "engine/tumble.hpp"
#include "geometry/swept_triangle.hpp"
#include "geometry/triangle_distance.hpp"

namespace kdop {

template <int K>
double dop_distance_bound(const float* a, const float* b) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  constexpr int L = Shape::lanes;
  double bound = 0;
  for (int j = 0; j < Shape::slabs; ++j) {
    // A float difference in double is within 2^-53 of exact; the gap shrinks by 2^-50 of itself
    // to cover that, the division and |n_j|'s rounding.
    const double gap =
        std::max(double{a[j]} - double{b[L + j]}, double{b[j]} - double{a[L + j]}) / norm(dirs[j]);
    bound = std::max(bound, gap * (1 - 0x1p-50));
  }
  return bound;
}

namespace {

// The smallest distance of two axis-aligned boxes, a lower bound of their triangles' distance
// (rounded down by 2^-50 of itself), to skip most triangle pairs of two near leaves.
double box_distance(const double* a_lo, const double* a_hi, const double* b_lo,
                    const double* b_hi) {
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::max(a_lo[i] - b_hi[i], b_lo[i] - a_hi[i]);
    if (gap > 0) sum += gap * gap;
  }
  return std::sqrt(sum) * (1 - 0x1p-50);
}

void triangle_box(const Triangle& t, double* lo, double* hi) {
  lo[0] = std::min({t.p0.x, t.p1.x, t.p2.x});
  lo[1] = std::min({t.p0.y, t.p1.y, t.p2.y});
  lo[2] = std::min({t.p0.z, t.p1.z, t.p2.z});
  hi[0] = std::max({t.p0.x, t.p1.x, t.p2.x});
  hi[1] = std::max({t.p0.y, t.p1.y, t.p2.y});
  hi[2] = std::max({t.p0.z, t.p1.z, t.p2.z});
}

enum class Search { nearest, within, sweep, sweep_nearest };

// One branch-and-bound traversal. `limit` is the distance above which pairs are pruned: the cap,
// shrinking to the best distance found (nearest), or the clearance (within).
template <int K>
class ProximityTraversal {
 public:
  using Shape = DopShape<K>;

  // `to`: sweep mode, the object translating from `pose` to `to` (the same rotation).
  ProximityTraversal(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
                     ProximityScratch<K>& s, ProximityResult& result, const Pose* to = nullptr)
      : env_(env),
        fly_(fly),
        pose_(pose),
        to_(to),
        s_(s),
        result_(result),
        frame_(make_tumble_frame<simd::ScalarArch>(fly, pose)) {
    prepare();
    if (to_ != nullptr) {
      // Each slab's shift n_j . (t_to - t_from), and a margin for its rounding and for
      // apply_pose's rounding at the far end (a few ulps of |t_to| and the vertices).
      constexpr auto dirs = Shape::directions();
      const double d[3] = {to->t[0] - pose.t[0], to->t[1] - pose.t[1], to->t[2] - pose.t[2]};
      const double far =
          std::max({std::fabs(to->t[0]), std::fabs(to->t[1]), std::fabs(to->t[2]),
                    std::fabs(pose.t[0]), std::fabs(pose.t[1]), std::fabs(pose.t[2])});
      for (int j = 0; j < Shape::slabs; ++j) {
        const Direction& n = dirs[j];
        shift_[j] = project(n, d[0], d[1], d[2]);
        const double n1 = std::abs(n.x) + std::abs(n.y) + std::abs(n.z);
        shift_margin_[j] = 0x1p-40 * n1 * (far + fly.vertex_extent + fly.corner_radius);
      }
    }
  }

  void run(Search search, double limit) {
    search_ = search;
    limit_ = limit;
    result_.stats.n_v = 1;
    const double root = dop_distance_bound<K>(env_.node_bounds(0), fly_bounds(0));
    if (!(root <= limit_)) return;
    s_.stack.push_back({0, 0, root});
    const TreeTopology& et = env_.topology;
    const TreeTopology& ft = fly_.tree.topology;
    while (!s_.stack.empty()) {
      const auto top = s_.stack.back();
      s_.stack.pop_back();
      if (top.bound > limit_) continue;  // the limit shrank since it was pushed
      const bool e_leaf = et.is_leaf(top.env), f_leaf = ft.is_leaf(top.fly);
      if (e_leaf && f_leaf) {
        if (leaf_pair(top.env, top.fly)) return;
        continue;
      }
      // Split the larger node (as OBBTrees do), or the one that is not a leaf.
      const bool split_env = !e_leaf && (f_leaf || env_.size[top.env] >= fly_.tree.size[top.fly]);
      std::uint32_t a_env = top.env, b_env = top.env, a_fly = top.fly, b_fly = top.fly;
      if (split_env) {
        a_env = et.left(top.env);
        b_env = et.right(top.env);
      } else {
        a_fly = ft.left(top.fly);
        b_fly = ft.right(top.fly);
      }
      result_.stats.n_v += 2;
      const double a = dop_distance_bound<K>(env_.node_bounds(a_env), fly_bounds(a_fly));
      const double b = dop_distance_bound<K>(env_.node_bounds(b_env), fly_bounds(b_fly));
      // The nearer pair on top, searched first, so the limit shrinks early.
      const bool a_first = a <= b;
      const auto push = [&](std::uint32_t e, std::uint32_t f, double bound) {
        if (bound <= limit_) s_.stack.push_back({e, f, bound});
      };
      if (a_first) {
        push(b_env, b_fly, b);
        push(a_env, a_fly, a);
      } else {
        push(a_env, a_fly, a);
        push(b_env, b_fly, b);
      }
    }
  }

 private:
  void prepare() {
    const std::size_t nodes = fly_.tree.topology.node_count();
    const std::size_t slots = fly_.tree.triangles.size();
    if (s_.tumble_stamp.size() != nodes || s_.slot_stamp.size() != slots) {
      s_.tumbled.assign(nodes * Shape::floats, 0.0f);
      s_.tumble_stamp.assign(nodes, 0);
      s_.slot_stamp.assign(slots, 0);
      s_.moved.assign(LeafTriangles::array_count, slots, 0, 0.0);
      s_.epoch = 0;
    }
    if (++s_.epoch == 0) {  // wrapped: forget every stamp
      std::fill(s_.tumble_stamp.begin(), s_.tumble_stamp.end(), 0);
      std::fill(s_.slot_stamp.begin(), s_.slot_stamp.end(), 0);
      s_.epoch = 1;
    }
    s_.stack.clear();
    for (int a = 0; a < LeafTriangles::array_count; ++a) moved_[a] = s_.moved.mutable_array(a);
  }

  const float* fly_bounds(std::uint32_t f) {
    float* out = s_.tumbled.data() + std::size_t{f} * Shape::floats;
    if (s_.tumble_stamp[f] != s_.epoch) {
      s_.tumble_stamp[f] = s_.epoch;
      ++result_.stats.n_u;
      if (f == 0) {
        tumble_root<simd::ScalarArch>(fly_, frame_, out);
      } else {
        tumble_node<simd::ScalarArch>(fly_, frame_, f, out);
      }
      if (to_ != nullptr) {
        // The swept node's DOP: the union of its DOPs at both ends, since a convex set's support
        // function along n_j moves by n_j . d under a translation d (exact for every slab).
        constexpr int L = Shape::lanes;
        for (int j = 0; j < Shape::slabs; ++j) {
          const double lo = out[j], hi = out[L + j];
          out[j] = float_below(std::min(lo, lo + shift_[j]) - shift_margin_[j]);
          out[L + j] = float_above(std::max(hi, hi + shift_[j]) + shift_margin_[j]);
        }
      }
    }
    return out;
  }

  Triangle moved(std::uint32_t fs) {
    if (s_.slot_stamp[fs] != s_.epoch) {
      s_.slot_stamp[fs] = s_.epoch;
      move_slot<simd::ScalarArch>(pose_, fly_.tree.triangles, fs, moved_);
    }
    return moved_triangle<simd::ScalarArch>(moved_, fs);
  }

  // Sweep modes: does any triangle of leaf f, swept, come within the limit of leaf e's? True (and
  // the pair in result_.nearest) at the first that does. Or (sweep_nearest) the least distance
  // of the swept triangles, true at 0.
  bool sweep_leaf_pair(std::uint32_t e, std::uint32_t f) {
    const TreeTopology& et = env_.topology;
    const TreeTopology& ft = fly_.tree.topology;
    const std::uint32_t e_first = et.child_or_first[e], e_end = e_first + et.leaf_count[e];
    const std::uint32_t f_first = ft.child_or_first[f], f_end = f_first + ft.leaf_count[f];
    const LeafTriangles& tris = fly_.tree.triangles;
    for (std::uint32_t fs = f_first; fs < f_end; ++fs) {
      const Triangle from = moved(fs);
      Triangle to;
      Vec3* corner[3] = {&to.p0, &to.p1, &to.p2};
      for (int c = 0; c < 3; ++c) {
        *corner[c] = apply_pose(*to_, Vec3{tris.x(c)[fs], tris.y(c)[fs], tris.z(c)[fs]});
      }
      double lo[3], hi[3], to_lo[3], to_hi[3];
      triangle_box(from, lo, hi);
      triangle_box(to, to_lo, to_hi);
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], to_lo[a]);
        hi[a] = std::max(hi[a], to_hi[a]);
      }
      for (std::uint32_t es = e_first; es < e_end; ++es) {
        const Triangle te = env_.triangles.triangle(es);
        double e_lo[3], e_hi[3];
        triangle_box(te, e_lo, e_hi);
        if (box_distance(e_lo, e_hi, lo, hi) > limit_) continue;
        ++result_.stats.n_p;
        const ContactPair pair{env_.triangles.original[es], tris.original[fs]};
        if (search_ == Search::sweep_nearest) {
          const double d = sweep_distance(te, from, to);
          if (d > limit_ || d >= result_.distance) continue;
          result_.distance = limit_ = d;
          result_.nearest = pair;
          if (d == 0) return true;
          continue;
        }
        const bool hit = limit_ > 0 ? sweep_distance(te, from, to) <= limit_
                                    : triangle_meets_sweep(te, from, to);
        if (!hit) continue;
        result_.nearest = pair;
        result_.distance = 0;
        return true;
      }
    }
    return false;
  }

  // Every triangle pair of two leaves; true to stop (nearest: an intersecting pair).
  bool leaf_pair(std::uint32_t e, std::uint32_t f) {
    if (search_ == Search::sweep || search_ == Search::sweep_nearest) return sweep_leaf_pair(e, f);
    const TreeTopology& et = env_.topology;
    const TreeTopology& ft = fly_.tree.topology;
    const std::uint32_t e_first = et.child_or_first[e], e_end = e_first + et.leaf_count[e];
    const std::uint32_t f_first = ft.child_or_first[f], f_end = f_first + ft.leaf_count[f];
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const Triangle te = env_.triangles.triangle(es);
      double e_lo[3], e_hi[3];
      triangle_box(te, e_lo, e_hi);
      for (std::uint32_t fs = f_first; fs < f_end; ++fs) {
        const Triangle tf = moved(fs);
        double f_lo[3], f_hi[3];
        triangle_box(tf, f_lo, f_hi);
        if (box_distance(e_lo, e_hi, f_lo, f_hi) > limit_) continue;
        ++result_.stats.n_p;
        double d = triangle_distance(te, tf).distance;
        const bool touching = d == 0 && triangles_intersect(te, tf);
        // A separated pair whose distance underflowed to 0 is still separated.
        if (d == 0 && !touching) d = std::numeric_limits<double>::denorm_min();
        if (d > limit_) continue;
        const ContactPair pair{env_.triangles.original[es], fly_.tree.triangles.original[fs]};
        if (touching) result_.intersecting = true;
        if (d < result_.distance ||
            (d == result_.distance && search_ == Search::within && pair < result_.nearest)) {
          result_.distance = d;
          result_.nearest = pair;
        }
        if (search_ == Search::within) {
          result_.pairs.push_back(pair);
          result_.pair_distances.push_back(d);
        } else {
          limit_ = d;
          if (touching) return true;
        }
      }
    }
    return false;
  }

  const DopTree<K>& env_;
  const FlyingDopTree<K>& fly_;
  const Pose& pose_;
  const Pose* to_;
  std::array<double, Shape::slabs> shift_{}, shift_margin_{};
  ProximityScratch<K>& s_;
  ProximityResult& result_;
  TumbleFrame<K> frame_;
  double* moved_[LeafTriangles::array_count];
  Search search_ = Search::nearest;
  double limit_ = 0;
};

void reset(ProximityResult& result) {
  result.distance = std::numeric_limits<double>::infinity();
  result.intersecting = false;
  result.nearest = {};
  result.pairs.clear();
  result.pair_distances.clear();
  result.stats = {};
}

}  // namespace

template <int K>
void nearest_pair(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose, double cap,
                  ProximityScratch<K>& scratch, ProximityResult& result) {
  reset(result);
  ProximityTraversal<K>(env, fly, pose, scratch, result).run(Search::nearest, cap);
}

template <int K>
void pairs_within(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
                  double clearance, ProximityScratch<K>& scratch, ProximityResult& result) {
  reset(result);
  ProximityTraversal<K>(env, fly, pose, scratch, result).run(Search::within, clearance);
  // Sorted by pair, distances alongside.
  std::vector<std::size_t> order(result.pairs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return result.pairs[a] < result.pairs[b]; });
  std::vector<ContactPair> pairs(order.size());
  std::vector<double> distances(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    pairs[i] = result.pairs[order[i]];
    distances[i] = result.pair_distances[order[i]];
  }
  result.pairs = std::move(pairs);
  result.pair_distances = std::move(distances);
}

template <int K>
bool sweep_within(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& from,
                  const Pose& to, double clearance, ProximityScratch<K>& scratch,
                  ProximityResult& result) {
  reset(result);
  ProximityTraversal<K>(env, fly, from, scratch, result, &to).run(Search::sweep, clearance);
  return std::isfinite(result.distance);
}

template <int K>
void sweep_nearest(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& from,
                   const Pose& to, double cap, ProximityScratch<K>& scratch,
                   ProximityResult& result) {
  reset(result);
  ProximityTraversal<K>(env, fly, from, scratch, result, &to).run(Search::sweep_nearest, cap);
  result.intersecting = result.distance == 0;
}

#define KDOP_PROXIMITY_INSTANTIATE(K)                                                            \
  template void nearest_pair<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&, double, \
                                ProximityScratch<K>&, ProximityResult&);                         \
  template void pairs_within<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&, double, \
                                ProximityScratch<K>&, ProximityResult&);                         \
  template double dop_distance_bound<K>(const float*, const float*);                             \
  template bool sweep_within<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,         \
                                const Pose&, double, ProximityScratch<K>&, ProximityResult&);    \
  template void sweep_nearest<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,        \
                                 const Pose&, double, ProximityScratch<K>&, ProximityResult&);
KDOP_PROXIMITY_INSTANTIATE(6)
KDOP_PROXIMITY_INSTANTIATE(8)
KDOP_PROXIMITY_INSTANTIATE(14)
KDOP_PROXIMITY_INSTANTIATE(18)
KDOP_PROXIMITY_INSTANTIATE(26)
#undef KDOP_PROXIMITY_INSTANTIATE

}  // namespace kdop
