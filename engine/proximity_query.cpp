#include "engine/proximity_query.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/leaf_test.hpp"
#include "engine/tumble.hpp"
#include "geometry/exact_distance.hpp"
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

// The traversal's node bound: dop_distance_bound computed in float, four slabs per
// instruction, so it is looser by a few units of 2^-24 (the float subtraction, 1 / |n_j| in
// float and the product each err by at most 2^-24 relative, and by 2^-150 absolute where the
// product underflows): shrinking by 2^-21 of itself and 2^-140 covers them. Padding lanes are
// masked to 0 whatever they hold.
template <int K>
struct NodeBoundLanes {
  alignas(16) float inv_norm[DopShape<K>::lanes];
  alignas(16) std::uint32_t mask[DopShape<K>::lanes];
};

template <int K>
constexpr NodeBoundLanes<K> node_bound_lanes() {
  constexpr auto dirs = DopShape<K>::directions();
  NodeBoundLanes<K> c{};
  for (int j = 0; j < DopShape<K>::lanes; ++j) {
    const bool real = j < DopShape<K>::slabs;
    // From norm's own table, so every direction length is covered (a 1 / sqrt 3 for the 32-DOP's
    // sqrt 5 directions overstated their gaps: missed pairs within the distance).
    c.inv_norm[j] = real ? static_cast<float>(1.0 / norm(dirs[j])) : 1.0f;
    c.mask[j] = real ? 0xffffffffu : 0u;
  }
  return c;
}

template <int K>
inline double node_bound(const float* a, const float* b) {
  constexpr int L = DopShape<K>::lanes;
  static constexpr NodeBoundLanes<K> c = node_bound_lanes<K>();
#if defined(__SSE2__)
  __m128 acc = _mm_setzero_ps();
  for (int v = 0; v < L; v += 4) {
    const __m128 gap = _mm_max_ps(_mm_sub_ps(_mm_loadu_ps(a + v), _mm_loadu_ps(b + L + v)),
                                  _mm_sub_ps(_mm_loadu_ps(b + v), _mm_loadu_ps(a + L + v)));
    const __m128 scaled = _mm_mul_ps(gap, _mm_load_ps(c.inv_norm + v));
    acc = _mm_max_ps(acc, _mm_and_ps(scaled, _mm_castsi128_ps(_mm_load_si128(
                                                 reinterpret_cast<const __m128i*>(c.mask + v)))));
  }
  acc = _mm_max_ps(acc, _mm_movehl_ps(acc, acc));
  acc = _mm_max_ss(acc, _mm_shuffle_ps(acc, acc, 1));
  const float g = _mm_cvtss_f32(acc);
#else
  float g = 0;
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    const float gap = std::max(a[j] - b[L + j], b[j] - a[L + j]) * c.inv_norm[j];
    g = gap > g ? gap : g;
  }
#endif
  return std::max(0.0, double{g} * (1 - 0x1p-21) - 0x1p-140);
}

// The smallest distance of two axis-aligned boxes, a lower bound of their triangles' distance
// (rounded down by 2^-50 of itself), to skip most triangle pairs of two near leaves (sweeps).
inline double box_distance(const double* a_lo, const double* a_hi, const double* b_lo,
                           const double* b_hi) {
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::max(a_lo[i] - b_hi[i], b_lo[i] - a_hi[i]);
    if (gap > 0) sum += gap * gap;
  }
  return sum > 0 ? std::sqrt(sum) * (1 - 0x1p-50) : 0;
}

void triangle_box(const Triangle& t, double* lo, double* hi) {
  lo[0] = std::min({t.p0.x, t.p1.x, t.p2.x});
  lo[1] = std::min({t.p0.y, t.p1.y, t.p2.y});
  lo[2] = std::min({t.p0.z, t.p1.z, t.p2.z});
  hi[0] = std::max({t.p0.x, t.p1.x, t.p2.x});
  hi[1] = std::max({t.p0.y, t.p1.y, t.p2.y});
  hi[2] = std::max({t.p0.z, t.p1.z, t.p2.z});
}

// A triangle's plane slab (see ProximitySlot), for coordinates at most `magnitude` in absolute
// value. Any n gives a valid slab; the face normal makes it tight. Each n . p is within
// 3.01 u |n|_1 M of exact (u = 2^-53), so a difference of two within 6.02 u |n|_1 M plus its own
// rounding: 16 u |n|_1 M covers it (and 2^-1000 the underflow of products of tiny values).
// 1 / |n| is off by a few u: the factor 1 - 2^-48 covers that and the final products.
struct PlaneSlab {
  Vec3 n;
  double lo = 0, hi = 0, margin = 0, inv_norm = 0;
};

inline PlaneSlab plane_slab(const Triangle& t, double magnitude) {
  PlaneSlab s;
  s.n = cross(t.p1 - t.p0, t.p2 - t.p0);
  const double nn = dot(s.n, s.n);
  const double d0 = dot(s.n, t.p0), d1 = dot(s.n, t.p1), d2 = dot(s.n, t.p2);
  s.lo = std::min({d0, d1, d2});
  s.hi = std::max({d0, d1, d2});
  s.margin =
      0x1p-49 * (std::fabs(s.n.x) + std::fabs(s.n.y) + std::fabs(s.n.z)) * magnitude + 0x1p-1000;
  // Below 2^-900 the products may underflow and the slab is useless anyway (a degenerate face).
  s.inv_norm = nn > 0x1p-900 ? (1 / std::sqrt(nn)) * (1 - 0x1p-48) : 0;
  return s;
}

// The least distance of triangle t from the slab's triangle along the slab's normal (rounded
// down; 0 or negative where the slab does not separate them).
inline double plane_bound(const Vec3& n, double lo, double hi, double margin, double inv_norm,
                          const Triangle& t) {
  const double d0 = dot(n, t.p0), d1 = dot(n, t.p1), d2 = dot(n, t.p2);
  const double gap = std::max(std::min({d0, d1, d2}) - hi, lo - std::max({d0, d1, d2}));
  return (gap - margin) * inv_norm;
}

// Tumbling's vertex transforms on the baseline ISA's 4-wide floats where there are some (every
// ISA gives the scalar reference's result bit for bit, simd/tumble_vertices.hpp).
#if XSIMD_WITH_SSE2
using TumbleArch = xsimd::sse2;
#else
using TumbleArch = simd::ScalarArch;
#endif

// Whether one of the 9 axes w = e_i x f_j (an edge of each triangle: ea, eb) separates the
// triangles by more than t, given t2 = t^2 widened by 2^-46 of itself, where t is the threshold
// plus 2^-48 M. Along the closest pair's direction when it joins two edge interiors, the case
// where neither plane slab separates near neighbours, so this proves most such pairs farther
// than the best found at a fraction of triangle_distance's cost. Any axis is valid: the gap of
// the projections errs by at most 6.02 u |w|_1 M + u |gap| (see plane_slab), below
// 2^-48 M |w| since |w|_1 <= sqrt(3) |w|, and the squared comparison by a few units of 2^-53,
// which the widening covers. Axes with |w|^2 below 2^-900 are skipped (underflow).
inline bool edge_axes_exceed(const Triangle& a, const Vec3* ea, const Triangle& b, const Vec3* eb,
                             double t2) {
#if defined(__SSE2__)
  // Two axes per instruction: (e_i, f_0) and (e_i, f_1) for each i, then (e_0, f_2) and
  // (e_1, f_2), then (e_2, f_2) twice.
  struct Pair {
    __m128d x, y, z;
  };
  const auto both = [](const Vec3& p) {
    return Pair{_mm_set1_pd(p.x), _mm_set1_pd(p.y), _mm_set1_pd(p.z)};
  };
  const auto lanes = [](const Vec3& p, const Vec3& q) {
    return Pair{_mm_set_pd(q.x, p.x), _mm_set_pd(q.y, p.y), _mm_set_pd(q.z, p.z)};
  };
  const Pair pa[3] = {both(a.p0), both(a.p1), both(a.p2)};
  const Pair pb[3] = {both(b.p0), both(b.p1), both(b.p2)};
  const __m128d limit2 = _mm_set1_pd(t2), zero = _mm_setzero_pd(), tiny = _mm_set1_pd(0x1p-900);
  const auto separates = [&](const Pair& u, const Pair& v) {
    const __m128d x = _mm_sub_pd(_mm_mul_pd(u.y, v.z), _mm_mul_pd(u.z, v.y));
    const __m128d y = _mm_sub_pd(_mm_mul_pd(u.z, v.x), _mm_mul_pd(u.x, v.z));
    const __m128d z = _mm_sub_pd(_mm_mul_pd(u.x, v.y), _mm_mul_pd(u.y, v.x));
    const auto proj = [&](const Pair& p) {
      return _mm_add_pd(_mm_add_pd(_mm_mul_pd(x, p.x), _mm_mul_pd(y, p.y)), _mm_mul_pd(z, p.z));
    };
    const __m128d a0 = proj(pa[0]), a1 = proj(pa[1]), a2 = proj(pa[2]);
    const __m128d b0 = proj(pb[0]), b1 = proj(pb[1]), b2 = proj(pb[2]);
    const __m128d gap = _mm_max_pd(
        _mm_sub_pd(_mm_min_pd(_mm_min_pd(b0, b1), b2), _mm_max_pd(_mm_max_pd(a0, a1), a2)),
        _mm_sub_pd(_mm_min_pd(_mm_min_pd(a0, a1), a2), _mm_max_pd(_mm_max_pd(b0, b1), b2)));
    const __m128d ww = _mm_add_pd(_mm_add_pd(_mm_mul_pd(x, x), _mm_mul_pd(y, y)), _mm_mul_pd(z, z));
    const __m128d hit = _mm_and_pd(_mm_and_pd(_mm_cmpgt_pd(gap, zero), _mm_cmpgt_pd(ww, tiny)),
                                   _mm_cmpgt_pd(_mm_mul_pd(gap, gap), _mm_mul_pd(limit2, ww)));
    return _mm_movemask_pd(hit) != 0;
  };
  const Pair f01 = lanes(eb[0], eb[1]);
  for (int i = 0; i < 3; ++i) {
    if (separates(both(ea[i]), f01)) return true;
  }
  const Pair f2 = both(eb[2]);
  return separates(lanes(ea[0], ea[1]), f2) || separates(both(ea[2]), f2);
#else
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Vec3 w = cross(ea[i], eb[j]);
      const double a0 = dot(w, a.p0), a1 = dot(w, a.p1), a2 = dot(w, a.p2);
      const double b0 = dot(w, b.p0), b1 = dot(w, b.p1), b2 = dot(w, b.p2);
      const double gap = std::max(std::min({b0, b1, b2}) - std::max({a0, a1, a2}),
                                  std::min({a0, a1, a2}) - std::max({b0, b1, b2}));
      const double ww = dot(w, w);
      if (gap > 0 && gap * gap > t2 * ww && ww > 0x1p-900) return true;
    }
  }
  return false;
#endif
}

enum class Search { nearest, within, sweep, sweep_nearest };

// One branch-and-bound traversal. `limit` is the distance above which pairs are not reported:
// the cap, shrinking to the best distance found (nearest), or the clearance (within). Pairs are
// pruned above `thr_`, the limit plus triangle_distance's own error (the bounds are below the
// true distance, which triangle_distance may underestimate by that much).
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
        const double n1 = l1_norm(n);
        shift_margin_[j] = 0x1p-40 * n1 * (far + fly.vertex_extent + fly.corner_radius);
      }
    }
    // The largest |coordinate| of any triangle: the environment's from its root DOP (the largest
    // |n_j . p| is at least that for the axes, and |x| + |y| + |z| for the corner diagonals of
    // K = 8), the moved object's from its corners' radius: |(R p + t)_i| <= |row i of R| |p| +
    // |t_i| (R need not be exactly orthonormal), widened for the rounding of both.
    const float* root = env_.node_bounds(0);
    double most = 0;
    for (int j = 0; j < Shape::slabs; ++j) {
      most =
          std::max({most, std::fabs(double{root[j]}), std::fabs(double{root[Shape::lanes + j]})});
    }
    for (const Pose* p : {&pose, to}) {
      if (p == nullptr) continue;
      for (int i = 0; i < 3; ++i) {
        const double row = std::sqrt(p->r[3 * i] * p->r[3 * i] + p->r[3 * i + 1] * p->r[3 * i + 1] +
                                     p->r[3 * i + 2] * p->r[3 * i + 2]);
        most = std::max(most, (row * fly.corner_radius + std::fabs(p->t[i])) * (1 + 0x1p-40));
      }
    }
    magnitude_ = most;
    slack_ = triangle_distance_error(magnitude_);
  }

  void run(Search search, double limit) {
    search_ = search;
    set_limit(limit);
    result_.error_bound = slack_;
    result_.stats.n_v = 1;
    const double root = node_bound<K>(env_.node_bounds(0), fly_bounds(0));
    if (!(root <= thr_)) return;
    if (search == Search::nearest || search == Search::sweep_nearest) {
      best_first({0, 0, root});
    } else {
      depth_first({0, 0, root});
    }
  }

 private:
  using Entry = typename ProximityScratch<K>::Entry;

  void set_limit(double limit) {
    limit_ = limit;
    thr_ = (limit + slack_) * (1 + 0x1p-50);
    const double t = thr_ + 0x1p-48 * magnitude_;
    edge_t2_ = t * t * (1 + 0x1p-46);
  }

  // A node's size for choosing which to split: the volume of the box of its stored DOP's first
  // three slabs (the axes, where K has them), in its own tree's frame.
  static float box_volume(const float* b) {
    constexpr int L = Shape::lanes;
    return ((b[L] - b[0]) * (b[L + 1] - b[1])) * (b[L + 2] - b[2]);
  }

  // The two children of a node pair (splitting the larger node, or the one that is not a leaf)
  // with their bounds. False for a pair of leaves. Larger by volume: by the widest slab (the
  // trees' size arrays, as OBBTrees compare), long thin environment nodes were split again and
  // again against compact flying ones (the torus flight bounded 2.5 times the node pairs).
  bool split(const Entry& top, Entry& a, Entry& b) {
    const TreeTopology& et = env_.topology;
    const TreeTopology& ft = fly_.tree.topology;
    const bool e_leaf = et.is_leaf(top.env), f_leaf = ft.is_leaf(top.fly);
    if (e_leaf && f_leaf) return false;
    const bool split_env = !e_leaf && (f_leaf || box_volume(env_.node_bounds(top.env)) >=
                                                     box_volume(fly_.tree.node_bounds(top.fly)));
    a = b = top;
    if (split_env) {
      a.env = et.left(top.env);
      b.env = et.right(top.env);
    } else {
      a.fly = ft.left(top.fly);
      b.fly = ft.right(top.fly);
    }
    result_.stats.n_v += 2;
    a.bound = node_bound<K>(env_.node_bounds(a.env), fly_bounds(a.fly));
    b.bound = node_bound<K>(env_.node_bounds(b.env), fly_bounds(b.fly));
    return true;
  }

  // Every pair under the threshold, in any order (within, sweep): depth first, nearer first.
  void depth_first(const Entry& root) {
    s_.stack.push_back(root);
    while (!s_.stack.empty()) {
      const Entry top = s_.stack.back();
      s_.stack.pop_back();
      if (top.bound > thr_) continue;  // the limit shrank since it was pushed
      Entry a, b;
      if (!split(top, a, b)) {
        if (leaf_pair(top.env, top.fly)) return;
        continue;
      }
      if (b.bound < a.bound) std::swap(a, b);
      if (b.bound <= thr_) s_.stack.push_back(b);
      if (a.bound <= thr_) s_.stack.push_back(a);
    }
  }

  // The least distance: node pairs in order of their bounds (a min-heap), so no pair whose
  // bound exceeds the final distance is ever split, and the search ends when the least bound
  // left exceeds the best distance found. The nearer child is followed at once, without the
  // heap, while no queued pair is nearer (depth first along ties, which finds a contact fast).
  void best_first(Entry cur) {
    const auto later = [](const Entry& x, const Entry& y) { return x.bound > y.bound; };
    auto& heap = s_.stack;
    for (;;) {
      Entry a, b;
      if (split(cur, a, b)) {
        if (b.bound < a.bound) std::swap(a, b);
        if (b.bound <= thr_) {
          heap.push_back(b);
          std::push_heap(heap.begin(), heap.end(), later);
        }
        if (a.bound <= thr_) {
          if (heap.empty() || a.bound <= heap.front().bound) {
            cur = a;
            continue;
          }
          heap.push_back(a);
          std::push_heap(heap.begin(), heap.end(), later);
        }
      } else if (leaf_pair(cur.env, cur.fly)) {
        return;
      }
      if (heap.empty() || heap.front().bound > thr_) return;
      std::pop_heap(heap.begin(), heap.end(), later);
      cur = heap.back();
      heap.pop_back();
    }
  }

  void prepare() {
    const std::size_t nodes = fly_.tree.topology.node_count();
    const std::size_t slots = fly_.tree.triangles.size();
    if (s_.tumble_stamp.size() != nodes || s_.slot_stamp.size() != slots) {
      s_.tumbled.assign(nodes * Shape::floats, 0.0f);
      s_.tumble_stamp.assign(nodes, 0);
      s_.slot_stamp.assign(slots, 0);
      s_.slots.assign(slots, ProximitySlot{});
      s_.slot_bounds.assign(slots * Shape::floats, 0.0f);
      s_.epoch = 0;
    }
    if (++s_.epoch == 0) {  // wrapped: forget every stamp
      std::fill(s_.tumble_stamp.begin(), s_.tumble_stamp.end(), 0);
      std::fill(s_.slot_stamp.begin(), s_.slot_stamp.end(), 0);
      s_.epoch = 1;
    }
    s_.stack.clear();
  }

  // Flying node f's DOP at the pose, tumbled when first visited (the check inline, the work
  // not: it runs for a few percent of the calls).
  const float* fly_bounds(std::uint32_t f) {
    float* out = s_.tumbled.data() + std::size_t{f} * Shape::floats;
    if (s_.tumble_stamp[f] != s_.epoch) tumble(f, out);
    return out;
  }

  [[gnu::noinline]] void tumble(std::uint32_t f, float* out) {
    s_.tumble_stamp[f] = s_.epoch;
    ++result_.stats.n_u;
    if (f == 0) {
      tumble_root<simd::ScalarArch>(fly_, frame_, out);
    } else {
      tumble_node<TumbleArch>(fly_, frame_, f, out);
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

  // Flying slot fs at the pose, moved by apply_pose (the coordinates the oracle sees), with its
  // edges, plane slab and DOP; once per slot and pose.
  const ProximitySlot& slot(std::uint32_t fs) {
    ProximitySlot& m = s_.slots[fs];
    if (s_.slot_stamp[fs] != s_.epoch) {
      s_.slot_stamp[fs] = s_.epoch;
      const LeafTriangles& tris = fly_.tree.triangles;
      Vec3* corner[3] = {&m.t.p0, &m.t.p1, &m.t.p2};
      for (int c = 0; c < 3; ++c) {
        *corner[c] = apply_pose(pose_, Vec3{tris.x(c)[fs], tris.y(c)[fs], tris.z(c)[fs]});
      }
      m.e[0] = m.t.p1 - m.t.p0;
      m.e[1] = m.t.p2 - m.t.p1;
      m.e[2] = m.t.p0 - m.t.p2;
      const PlaneSlab p = plane_slab(m.t, magnitude_);
      m.n = p.n;
      m.n_lo = p.lo;
      m.n_hi = p.hi;
      m.margin = p.margin;
      m.inv_norm = p.inv_norm;
      // The triangle's own DOP, so a leaf's triangles are bounded one by one with the node
      // bound before anything else. Widened without branches: by twice project()'s error, and
      // by 2^-22 of the value and 2^-140 before rounding to float, which moves it by at most
      // 2^-24 of itself and 2^-150.
      float* out = s_.slot_bounds.data() + std::size_t{fs} * Shape::floats;
      const double err = 2 * projection_error_bound(3 * magnitude_) + 0x1p-140;
      for_each_slab<K>([&](auto jc) {
        constexpr Direction n = Shape::directions()[decltype(jc)::value];
        const double d0 = project(n, m.t.p0.x, m.t.p0.y, m.t.p0.z);
        const double d1 = project(n, m.t.p1.x, m.t.p1.y, m.t.p1.z);
        const double d2 = project(n, m.t.p2.x, m.t.p2.y, m.t.p2.z);
        const double lo = std::min({d0, d1, d2}), hi = std::max({d0, d1, d2});
        out[decltype(jc)::value] = static_cast<float>(lo - (err + std::fabs(lo) * 0x1p-22));
        out[Shape::lanes + decltype(jc)::value] =
            static_cast<float>(hi + (err + std::fabs(hi) * 0x1p-22));
      });
      for (int j = Shape::slabs; j < Shape::lanes; ++j) {
        out[j] = -std::numeric_limits<float>::infinity();
        out[Shape::lanes + j] = std::numeric_limits<float>::infinity();
      }
    }
    return m;
  }

  const float* slot_bounds(std::uint32_t fs) const {
    return s_.slot_bounds.data() + std::size_t{fs} * Shape::floats;
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
      const Triangle from = slot(fs).t;
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
        if (box_distance(e_lo, e_hi, lo, hi) > thr_) continue;
        ++result_.stats.n_p;
        const ContactPair pair{env_.triangles.original[es], tris.original[fs]};
        if (search_ == Search::sweep_nearest) {
          const double d = sweep_distance(te, from, to);
          if (d > limit_ || d >= result_.distance) continue;
          result_.distance = d;
          set_limit(d);
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

  // Every triangle pair of two leaves; true to stop (nearest: an intersecting pair). A pair is
  // measured only if four lower bounds of its distance stay under the threshold: the slabs of
  // the triangles' DOPs, of either triangle's plane, and of the 9 edge-edge axes. On the bench
  // flights (torus / swept) they leave 1 in 11 / 1 in 64 of the pairs of near leaves, where the
  // DOPs alone left 1 in 2.3 (and nine tenths of those measured were farther than the best).
  bool leaf_pair(std::uint32_t e, std::uint32_t f) {
    if (search_ == Search::sweep || search_ == Search::sweep_nearest) return sweep_leaf_pair(e, f);
    const TreeTopology& et = env_.topology;
    const TreeTopology& ft = fly_.tree.topology;
    const std::uint32_t e_first = et.child_or_first[e], e_end = e_first + et.leaf_count[e];
    const std::uint32_t f_first = ft.child_or_first[f], f_end = f_first + ft.leaf_count[f];
    const float* e_bounds = env_.node_bounds(e);
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const Triangle te = env_.triangles.triangle(es);
      const Vec3 ee[3] = {te.p1 - te.p0, te.p2 - te.p1, te.p0 - te.p2};
      PlaneSlab pe;
      bool have_pe = false;  // the environment triangle's slab, made when first needed
      for (std::uint32_t fs = f_first; fs < f_end; ++fs) {
        // Cheapest and most selective first: the triangles' DOPs (in a leaf of one environment
        // triangle the leaf's own; k-DOP environments default to leaves of 3), the flying plane
        // (cached), the environment plane, the edge axes.
        const ProximitySlot& sf = slot(fs);
        if (node_bound<K>(e_bounds, slot_bounds(fs)) > thr_) continue;
        if (plane_bound(sf.n, sf.n_lo, sf.n_hi, sf.margin, sf.inv_norm, te) > thr_) continue;
        if (!have_pe) {
          pe = plane_slab(te, magnitude_);
          have_pe = true;
        }
        if (plane_bound(pe.n, pe.lo, pe.hi, pe.margin, pe.inv_norm, sf.t) > thr_) continue;
        if (edge_axes_exceed(te, ee, sf.t, sf.e, edge_t2_)) continue;
        ++result_.stats.n_p;
        const Triangle& tf = sf.t;
        double d = triangle_distance(te, tf).distance;
        const bool touching = d == 0 && triangles_intersect(te, tf);
        // A separated pair whose distance underflowed to 0 is still separated.
        if (d == 0 && !touching) d = std::numeric_limits<double>::denorm_min();
        if (search_ == Search::within && limit_ > 0 && !touching &&
            std::fabs(d - limit_) <= slack_) {
          // Too close to the clearance for the double distance to say on which side it is.
          const ExactDistanceSide exact = exact_distance_side(te, tf, limit_);
          if (exact.side > 0) {
            result_.least_beyond = std::min(result_.least_beyond, exact.distance);
            continue;
          }
          d = exact.distance;
        } else if (d > limit_) {
          continue;
        }
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
          set_limit(d);
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
  Search search_ = Search::nearest;
  double magnitude_ = 0;  // the largest |coordinate| of any triangle of the query
  double slack_ = 0;      // triangle_distance's error at that magnitude
  double limit_ = 0, thr_ = 0;
  double edge_t2_ = 0;  // edge_axes_exceed's squared threshold
};

void reset(ProximityResult& result) {
  result.distance = std::numeric_limits<double>::infinity();
  result.intersecting = false;
  result.nearest = {};
  result.pairs.clear();
  result.pair_distances.clear();
  result.stats = {};
  result.error_bound = 0;
  result.least_beyond = std::numeric_limits<double>::infinity();
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
KDOP_PROXIMITY_INSTANTIATE(32)
#undef KDOP_PROXIMITY_INSTANTIATE

}  // namespace kdop
