#pragma once
// Re-aligning ("tumbling") a flying k-DOP hierarchy to the environment's directions for one
// pose (Klosowski et al. 1998, section 4.1). The root gets the exact k-DOP of its corners by
// hill-climbing over their convex hull (method I); every other visited node gets the k-DOP of
// its transformed stored DOP vertices (method II, an outer approximation).
//
// Both are computed in float and widened so they contain the triangles' corners transformed by
// apply_pose in double (the coordinates the exact triangle test decides on):
//   widen_j = |m_j|_1 * vertex_error + 16 eps_f (|m_j|_1 * vertex_extent + |n_j|_1 |t|_max)
// covers the stored-vertex error, every float rounding of m_j, c_j, the products and sums, and
// the double rounding of apply_pose (all a few eps of the operands' magnitudes, which the two
// terms in parentheses bound; 16 leaves a wide margin).
//
// Every function takes the architecture tag (simd/arch.hpp) as its first template parameter,
// even where it does no SIMD: the query is compiled once per ISA, and distinct instantiations
// keep the linker from merging an AVX-512 copy into code that runs on an older CPU.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "builders/dop_tree.hpp"
#include "engine/double_lanes.hpp"
#include "engine/query.hpp"
#include "geometry/dop_normal_fan.hpp"
#include "geometry/pose.hpp"
#include "simd/arch.hpp"
#include "simd/tumble_affine.hpp"
#include "simd/tumble_vertices.hpp"

namespace kdop {

template <int K>
struct TumbleFrame {
  using Shape = DopShape<K>;
  // Arrays over the padded lanes (the first k/2 are the slabs): a vector ISA fills them a batch of
  // lanes at a time (frame_lanes). Left uninitialized: make_tumble_frame writes every lane that is
  // read (the slabs, and widen's padding lanes), and a frame is made for every pose that passes the
  // sphere test.
  static constexpr int padded = simd::SlabFrame<Shape::lanes>::padded;
  simd::SlabFrame<Shape::lanes> slabs;
  alignas(64) double m_x[padded], m_y[padded], m_z[padded], c[padded];  // in double, for the root
  alignas(64) float widen[padded];
  double t_max = 0;  // |t|_inf of the pose, for the bounds that scale with the translation
  alignas(64) double root_widen[padded];
  // Affine method (simd/tumble_affine.hpp): per output slab, the node offsets picked, their
  // weights, c_j and the widening; filled by add_affine_frame when the method is used.
  simd::AffineFrame<Shape::lanes> affine;
};

// The DOP directions' components as doubles, a lane per slab over the frame's padded lanes (zero
// in the padding lanes), and |n_j|_1: make_tumble_frame's constants on a vector ISA.
template <int K>
struct DirectionLanes {
  static constexpr int padded = TumbleFrame<K>::padded;
  alignas(64) double x[padded] = {}, y[padded] = {}, z[padded] = {}, l1[padded] = {};
};

template <int K>
constexpr DirectionLanes<K> direction_lanes() {
  DirectionLanes<K> d;
  constexpr auto dirs = DopShape<K>::directions();
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    d.x[j] = dirs[j].x;
    d.y[j] = dirs[j].y;
    d.z[j] = dirs[j].z;
    d.l1[j] = l1_norm(dirs[j]);
  }
  return d;
}

// The per-slab part of make_tumble_frame on a vector ISA: the same operations in the same order,
// a slab per lane (the products by the directions' components, 0, +-1 or +-2, are exact, so the
// sums are project's up to a zero's sign). Lanes past the slabs hold a zero direction's values.
template <class Arch, int K>
void frame_lanes(const FlyingDopTree<K>& fly, const Pose& pose, double t_max, TumbleFrame<K>& f) {
  using D = xsimd::batch<double, Arch>;
  constexpr int end = (DopShape<K>::lanes + D::size - 1) / D::size * D::size;
  static_assert(end <= TumbleFrame<K>::padded);
  static constexpr DirectionLanes<K> n = direction_lanes<K>();
  const auto& r = pose.r;
  const D eps16(16 * 0x1p-24), floor(kFloatUnderflowFloor), extent(fly.vertex_extent),
      error(fly.vertex_error), outside(fly.root_hull.outside_bound), t(t_max);
  for (int b = 0; b < end; b += D::size) {
    const D nx = D::load_aligned(n.x + b), ny = D::load_aligned(n.y + b),
            nz = D::load_aligned(n.z + b);
    const D x = (nx * D(r[0]) + ny * D(r[3])) + nz * D(r[6]);
    const D y = (nx * D(r[1]) + ny * D(r[4])) + nz * D(r[7]);
    const D z = (nx * D(r[2]) + ny * D(r[5])) + nz * D(r[8]);
    const D c = (nx * D(pose.t[0]) + ny * D(pose.t[1])) + nz * D(pose.t[2]);
    x.store_aligned(f.m_x + b);
    y.store_aligned(f.m_y + b);
    z.store_aligned(f.m_z + b);
    c.store_aligned(f.c + b);
    store_as_floats(x, f.slabs.mx + b);
    store_as_floats(y, f.slabs.my + b);
    store_as_floats(z, f.slabs.mz + b);
    store_as_floats(c, f.slabs.c + b);
    const D m1 = (xsimd::abs(x) + xsimd::abs(y)) + xsimd::abs(z);
    const D rounding = eps16 * (m1 * extent + D::load_aligned(n.l1 + b) * t) + floor;
    const D w = m1 * error + rounding;
    store_as_floats(above_fast_lanes(w), f.widen + b);  // float_above_fast
    (m1 * outside + rounding).store_aligned(f.root_widen + b);
  }
}

template <class Arch = simd::ScalarArch, int K>
TumbleFrame<K> make_tumble_frame(const FlyingDopTree<K>& fly, const Pose& pose) {
  using Shape = DopShape<K>;
  constexpr double eps_f = 0x1p-24;
  TumbleFrame<K> f;  // the slabs' floats and the affine part zeroed by their initializers
  const auto& r = pose.r;
  const double t_max = translation_max(pose);
  f.t_max = t_max;
  if constexpr (!std::is_same_v<Arch, simd::ScalarArch>) {
    frame_lanes<Arch>(fly, pose, t_max, f);
  } else {
    // Unrolled over the slabs: with n_j a constant, each product below is the one to three signed
    // additions it needs (project), once per pose for every query.
    for_each_slab<K>([&](auto jc) {
      constexpr int j = decltype(jc)::value;
      constexpr Direction n = Shape::directions()[j];
      constexpr double n1 = l1_norm(n);
      // m_j = R^T n_j, c_j = n_j . t
      const double mx = project(n, r[0], r[3], r[6]);
      const double my = project(n, r[1], r[4], r[7]);
      const double mz = project(n, r[2], r[5], r[8]);
      const double c = project(n, pose.t[0], pose.t[1], pose.t[2]);
      f.m_x[j] = mx;
      f.m_y[j] = my;
      f.m_z[j] = mz;
      f.c[j] = c;
      f.slabs.mx[j] = static_cast<float>(mx);
      f.slabs.my[j] = static_cast<float>(my);
      f.slabs.mz[j] = static_cast<float>(mz);
      f.slabs.c[j] = static_cast<float>(c);
      const double m1 = std::fabs(mx) + std::fabs(my) + std::fabs(mz);
      const double rounding =
          16 * eps_f * (m1 * fly.vertex_extent + n1 * t_max) + kFloatUnderflowFloor;
      f.widen[j] = float_above_fast(m1 * fly.vertex_error + rounding);
      f.root_widen[j] = m1 * fly.root_hull.outside_bound + rounding;
    });
  }
  // Padding lanes: a zero direction (the frame starts zeroed), widened to [-inf, inf].
  for (int j = Shape::slabs; j < Shape::lanes; ++j) {
    f.widen[j] = std::numeric_limits<float>::infinity();
  }
  return f;
}

// Fills the affine method's part of a frame (only when the method is used), from the frame's own
// m_j = R^T n_j and c_j. The direction u = m_j lies in a cone of the generic DOP's normal fan,
// found through its cube map (geometry/dop_normal_fan.hpp), so u = sum_k l_k g_k with l >= 0 and
// the node's support along n_j in the world is at most sum_k l_k off(g_k) + c_j. The generic DOP
// is symmetric about its centre, so -u lies in the negated cone with the same l: the lower
// offset comes from the same cone, each g_k replaced by -g_k (hi_g and -lo_g swap places).
// The widening covers every rounding: the weights rounded to float, the float sums and the final
// addition of the pad (10 units of 2^-24 of sum |l| times the largest stored offset plus |c|),
// and apply_pose's double rounding (2^-50 |n_j|_1 (extent + |t|_max)). The cones are looked up
// one by one; the widenings are computed after them, in one loop over the lanes.
// `hints` (k/2 cone indices, or NormalFan::no_cone), if given, are tried first and receive this
// pose's cones: along a path the cones change rarely. Any cone holding u gives a valid bound, so
// the hints change at most which of two cones a boundary direction takes.
template <class Arch = simd::ScalarArch, int K>
void add_affine_frame(const FlyingDopTree<K>& fly, TumbleFrame<K>& f,
                      std::uint16_t* hints = nullptr) {
  constexpr auto dirs = DopShape<K>::directions();
  constexpr int S = DopShape<K>::slabs, L = DopShape<K>::lanes;
  const NormalFan& fan = normal_fan<K>();
  simd::AffineFrame<L>& a = f.affine;
  double l1[S];  // sum of the cone's l
  for (int j = 0; j < S; ++j) {
    const Vec3 u{f.m_x[j], f.m_y[j], f.m_z[j]};
    double l[3];
    const bool hinted =
        hints != nullptr && hints[j] != NormalFan::no_cone && cone_holds(fan.cones[hints[j]], u, l);
    const FanCone& cone = hinted ? fan.cones[hints[j]] : find_cone(fan, u, l);
    if (hints != nullptr) hints[j] = static_cast<std::uint16_t>(&cone - fan.cones.data());
    for (int k = 0; k < 3; ++k) {
      const int g = cone.g[k];
      const auto weight = static_cast<float>(l[k]);
      // off(+n_g) = hi_g at lane L + g; off(-n_g) = -lo_g at lane g - S, hence the signs. The
      // lower offset takes -g: +n_g becomes -n_g (lane g), -n_g becomes +n_g (lane L + g - S).
      a.hi_at[k][j] = g < S ? L + g : g - S;
      a.hi_w[k][j] = g < S ? weight : -weight;
      a.lo_at[k][j] = g < S ? g : L + g - S;
      a.lo_w[k][j] = g < S ? -weight : weight;
    }
    l1[j] = (l[0] + l[1]) + l[2];  // l >= 0
  }
  for (int j = 0; j < S; ++j) {
    const double c = f.c[j];
    const double pad = 10 * 0x1p-24 * (l1[j] * fly.bound_extent + std::fabs(c)) +
                       0x1p-50 * l1_norm(dirs[j]) * (fly.bound_extent + f.t_max) +
                       kFloatUnderflowFloor;
    a.c[j] = static_cast<float>(c);
    a.hi_pad[j] = a.lo_pad[j] = float_above_fast(pad);
  }
  // Padding lanes: weight 0 at index 0 (a real slab's finite offset), an infinite pad.
  for (int j = S; j < L; ++j) {
    a.hi_pad[j] = std::numeric_limits<float>::infinity();
    a.lo_pad[j] = std::numeric_limits<float>::infinity();
  }
}

// Affine method (Zachmann 1998, section 4.1): out receives Lanes lo then Lanes hi floats.
template <class Arch = simd::ScalarArch, int K>
void tumble_node_affine(const FlyingDopTree<K>& fly, const TumbleFrame<K>& f, std::uint32_t node,
                        float* out) {
  simd::tumble_affine<Arch, DopShape<K>::lanes>(f.affine, fly.tree.node_bounds(node), out);
}

// Approximation method: out receives Lanes lo then Lanes hi floats.
template <class Arch = simd::ScalarArch, int K>
void tumble_node(const FlyingDopTree<K>& fly, const TumbleFrame<K>& frame, std::uint32_t node,
                 float* out) {
  constexpr int L = DopShape<K>::lanes;
  const std::uint32_t first = fly.vertex_first[node];
  const std::uint32_t count = fly.vertex_first[node + 1] - first;
  simd::tumble_vertices<Arch, L>(frame.slabs, fly.vx.data() + first, fly.vy.data() + first,
                                 fly.vz.data() + first, count, out);
  for (int j = 0; j < L; ++j) {
    out[j] -= frame.widen[j];
    out[L + j] += frame.widen[j];
  }
}

// Cube-map starts for tumble_root's hints (2 per slab: top, bottom).
template <class Arch = simd::ScalarArch, int K>
void seed_root_hints(const FlyingDopTree<K>& fly, const TumbleFrame<K>& frame,
                     std::uint32_t* hints) {
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    const Vec3 m{frame.m_x[j], frame.m_y[j], frame.m_z[j]};
    hints[2 * j] = climb_start(fly.root_starts, m);
    hints[2 * j + 1] = climb_start(fly.root_starts, Vec3{-m.x, -m.y, -m.z});
  }
}

// Exact method at the root: hill-climb each of the k directions over the hull, in double. Each
// walk starts from the better (higher along the direction) of hints[2 j] (top) or
// hints[2 j + 1] (bottom), the previous pose's extreme vertices (the paper's method I:
// step-to-step coherence), and the cube map's start: along a path the hint is already there,
// after a jump (random poses) the cube map is a few steps away where the hint may be a hundred
// (a 20,000-triangle sphere's root took 35-84 us from stale hints). The hints then receive this
// pose's extremes. The result does not depend on the start.
template <class Arch = simd::ScalarArch, int K>
void tumble_root(const FlyingDopTree<K>& fly, const TumbleFrame<K>& frame, float* out,
                 std::uint32_t* hints = nullptr) {
  using Shape = DopShape<K>;
  constexpr int L = Shape::lanes;
  const HullGraph& hull = fly.root_hull;
  for (int j = 0; j < L; ++j) {
    if (j >= Shape::slabs) {
      out[j] = -std::numeric_limits<float>::infinity();
      out[L + j] = std::numeric_limits<float>::infinity();
      continue;
    }
    const Vec3 m{frame.m_x[j], frame.m_y[j], frame.m_z[j]};
    const Vec3 minus_m{-m.x, -m.y, -m.z};
    auto start = [&](const Vec3& d, std::uint32_t hint) {
      const std::uint32_t seed = climb_start(fly.root_starts, d);
      if (hints == nullptr) return seed;
      return dot(d, hull.points[seed]) > dot(d, hull.points[hint]) ? seed : hint;
    };
    const std::uint32_t top_start = start(m, hints ? hints[2 * j] : 0);
    const std::uint32_t bottom_start = start(minus_m, hints ? hints[2 * j + 1] : 0);
    const std::uint32_t top = hill_climb(hull, m, top_start);
    const std::uint32_t bottom = hill_climb(hull, minus_m, bottom_start);
    if (hints) {
      hints[2 * j] = top;
      hints[2 * j + 1] = bottom;
    }
    const double hi = dot(m, hull.points[top]) + frame.c[j];
    const double lo = dot(m, hull.points[bottom]) + frame.c[j];
    out[j] = float_below(lo - frame.root_widen[j]);
    out[L + j] = float_above(hi + frame.root_widen[j]);
  }
}

}  // namespace kdop
