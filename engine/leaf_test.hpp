#pragma once
// The leaf test every hierarchy type shares: one environment triangle against all triangles of a
// flying leaf through the SIMD prefilter (simd/triangle_prefilter.hpp), then the survivors
// decided exactly on the pose-transformed double coordinates.
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
// Templated on the ISA tag like the queries that inline it (engine/isa/).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "builders/leaf_floats.hpp"
#include "builders/leaf_triangles.hpp"
#include "builders/tree_topology.hpp"
#include "engine/double_lanes.hpp"
#include "engine/query.hpp"
#include "geometry/dop.hpp"
#include "geometry/pose.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/triangle_edge_axes.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

// The inverse of a pose, for moving environment triangles into the object's frame:
// e = R^-1 (p - t), with R^-1 = adj(R) / det(R) (not R^T: a --matrix pose may be orthonormal
// only to 1e-6).
struct ObjectFrame {
  double inv[9];
  double t[3];
  double t_max;
  double radius;  // the object's corner_radius
};

template <class Arch>
ObjectFrame make_object_frame(double corner_radius, const Pose& pose) {
  const auto& r = pose.r;
  const double c00 = r[4] * r[8] - r[5] * r[7], c01 = r[5] * r[6] - r[3] * r[8],
               c02 = r[3] * r[7] - r[4] * r[6];
  const double det = r[0] * c00 + r[1] * c01 + r[2] * c02;
  ObjectFrame f{{c00 / det, (r[2] * r[7] - r[1] * r[8]) / det, (r[1] * r[5] - r[2] * r[4]) / det,
                 c01 / det, (r[0] * r[8] - r[2] * r[6]) / det, (r[2] * r[3] - r[0] * r[5]) / det,
                 c02 / det, (r[1] * r[6] - r[0] * r[7]) / det, (r[0] * r[4] - r[1] * r[3]) / det},
                {pose.t[0], pose.t[1], pose.t[2]},
                translation_max(pose),
                corner_radius};
  return f;
}

// Environment triangle `te` moved into the object's frame: its corners, the largest world
// coordinate |p| of them, and the bound err_d on the double-level errors (see above).
// Always inlined: returned through memory, its scalar stores then read as vectors by key_corners
// stalled store forwarding, a fifth of cached_key's samples on the torus flight.
struct MovedCorners {
  Vec3 e[3];
  double e_max = 0;  // world
  double e_obj = 0;  // object frame
  double err_d = 0;
};

template <class Arch>
[[gnu::always_inline]] inline MovedCorners move_to_object_frame(const ObjectFrame& f,
                                                                const Triangle& te) {
  MovedCorners m;
  const Vec3 p[3] = {te.p0, te.p1, te.p2};
  for (int k = 0; k < 3; ++k) {
    const double dx = p[k].x - f.t[0], dy = p[k].y - f.t[1], dz = p[k].z - f.t[2];
    m.e[k] = {(f.inv[0] * dx + f.inv[1] * dy) + f.inv[2] * dz,
              (f.inv[3] * dx + f.inv[4] * dy) + f.inv[5] * dz,
              (f.inv[6] * dx + f.inv[7] * dy) + f.inv[8] * dz};
    m.e_max = std::max({m.e_max, std::fabs(p[k].x), std::fabs(p[k].y), std::fabs(p[k].z)});
    m.e_obj = std::max({m.e_obj, std::fabs(m.e[k].x), std::fabs(m.e[k].y), std::fabs(m.e[k].z)});
  }
  m.err_d = 0x1p-46 * (m.e_max + f.t_max + f.radius);
  return m;
}

// The first part of a key: the corners in float and their slab margin, enough to test the
// triangle against a flying node's plate (and the 8-DOP's DOP, simd/triangle_dop.hpp) before the
// rest is worth computing.
template <class Arch>
void key_corners(const MovedCorners& m, simd::PrefilterTriangle& key) {
  for (int k = 0; k < 3; ++k) {
    key.x[k] = static_cast<float>(m.e[k].x);
    key.y[k] = static_cast<float>(m.e[k].y);
    key.z[k] = static_cast<float>(m.e[k].z);
  }
  // The corners in float are off from the exact ones by both frames' double errors (2 err_d, as
  // for the box) and their rounding to float (2^-24 e_obj); a float projection on a direction n
  // (the DOP's integer ones, or a node plate's float normal, builders/node_plate.hpp) adds at most
  // three product and two sum roundings of values up to |n|_1 e_obj; 2^-20 e_obj (16 units of
  // 2^-24) covers all of them with room.
  // Beyond 1e36 a corner or a projection may overflow float (a NaN projection would silently
  // drop its corner from the range): an infinite margin, then, never rejects.
  key.slab_margin = m.e_obj <= 1e36
                        ? float_above_fast(2 * m.err_d + 0x1p-20 * m.e_obj + kFloatUnderflowFloor)
                        : std::numeric_limits<float>::infinity();
}

// The rest: the box, E's plane range and the margin of the test against F's planes.
template <class Arch>
void key_rest(const ObjectFrame& f, const MovedCorners& m, simd::PrefilterTriangle& key) {
  const Vec3* e = m.e;
  const double err_d = m.err_d;
  const double ex[3] = {e[0].x, e[1].x, e[2].x}, ey[3] = {e[0].y, e[1].y, e[2].y},
               ez[3] = {e[0].z, e[1].z, e[2].z};
  const double* axis[3] = {ex, ey, ez};
  for (int a = 0; a < 3; ++a) {
    const double* v = axis[a];
    const double lo = v[0] < v[1] ? (v[0] < v[2] ? v[0] : v[2]) : (v[1] < v[2] ? v[1] : v[2]);
    const double hi = v[0] > v[1] ? (v[0] > v[2] ? v[0] : v[2]) : (v[1] > v[2] ? v[1] : v[2]);
    key.lo[a] = float_below_fast(lo - 2 * err_d);
    key.hi[a] = float_above_fast(hi + 2 * err_d);
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
  const double margin = 0x1p-50 * n1 * (m.e_max + f.t_max + f.radius) + 2 * n1 * err_d +
                        5 * 0x1p-24 * n1 * f.radius + kFloatUnderflowFloor;
  key.lower = float_below_fast(lo - margin);
  key.upper = float_above_fast(hi + margin);
  // The test against F's planes: n_F . e_k in float, n_F a float unit normal (|n_F|_1 <= 1.7321
  // plus rounding), e_k rounded to float. Errors: rounding e_k (2^-24 |e|) and the three
  // products and two sums (3.0001 * 2^-24 |n|_1 |e|), both frames' double errors (2 err_d each
  // side), and rounding d_hi + margin in float (2^-24 of values <= 1.7321 (|e| + r) + margin).
  const double e_obj = m.e_obj;
  const double f_margin = 1.7322 * (4.0002 * 0x1p-24 * e_obj + 4 * err_d) + kFloatUnderflowFloor;
  key.margin = float_above_fast(f_margin + 2 * 0x1p-24 * (1.7322 * (e_obj + f.radius) + f_margin));
  // The edge-pair axes' test (simd/triangle_edge_axes.hpp): E's corners as for the slabs
  // (slab_margin, with room: it spends about 5 of its 16 units of 2^-24 e_obj, and the float sum
  // of the widened range one more), F's float corners and projections (at most about 5 units of
  // 2^-24 r; 16 are used), and 0.1% for rounding |a|_1 and the product. Up to 1e9 no axis or
  // projection can overflow (|a|_1 <= 2.4e19, projections <= 2.4e28); beyond, it never separates.
  // Nor for objects below 2^-30: their axes' projections (about r^3) fall to the 2^-120 floor and
  // into float's subnormals, where every operation is a slow microcode assist (the 1e-30 meshes
  // of the oracle tests ran 1.9 times longer: 50 s against 26 s). An infinite margin skips it.
  key.edge_margin = e_obj <= 1e9 && f.radius <= 1e9 && f.radius >= 0x1p-30
                        ? float_above_fast(1.001 * (double{key.slab_margin} + 0x1p-20 * f.radius))
                        : std::numeric_limits<float>::infinity();
}

// The prefilter's view of environment triangle `te`, moved into the object's frame.
template <class Arch>
simd::PrefilterTriangle object_frame_key(const ObjectFrame& f, const Triangle& te) {
  const MovedCorners m = move_to_object_frame<Arch>(f, te);
  simd::PrefilterTriangle key;
  key_corners<Arch>(m, key);
  key_rest<Arch>(f, m, key);
  return key;
}

// The slots of a group of environment keys computed at once (object_frame_keys): one per lane of
// the ISA's double batch (2 with SSE4, 4 with AVX2, 8 with AVX-512), from the tag's register width
// so that code compiled without the ISA's flags may ask.
template <class Arch>
inline constexpr std::uint32_t key_group_size = [] {
  if constexpr (simd::is_scalar<Arch>) {
    return 1u;
  } else {
    return static_cast<std::uint32_t>(Arch::alignment() / sizeof(double));
  }
}();

template <class Arch>
void object_frame_keys(const ObjectFrame& f, const LeafTriangles& t, std::uint32_t first,
                       simd::PrefilterTriangle* out) {
  static_assert(!simd::is_scalar<Arch>, "the scalar ISA computes one key at a time");
  using B = xsimd::batch<double, Arch>;
  constexpr std::uint32_t G = B::size;
  static_assert(G == key_group_size<Arch>);
  // float_below_fast / float_above_fast up to their final conversion: below_fast_lanes and
  // above_fast_lanes (engine/double_lanes.hpp), rounded to float per lane below.
  // Minima and maxima by compare and select, as the scalar key's ternaries (GCC 12 warns on
  // its own AVX-512 max intrinsic).
  const auto min_of = [](B p, B q) { return xsimd::select(p < q, p, q); };
  const auto max_of = [](B p, B q) { return xsimd::select(p > q, p, q); };
  const B infinite(std::numeric_limits<double>::infinity());
  // move_to_object_frame
  B ex[3], ey[3], ez[3];
  B e_max(0.0), e_obj(0.0);
  for (int k = 0; k < 3; ++k) {
    const B px = B::load_unaligned(t.x(k) + first), py = B::load_unaligned(t.y(k) + first),
            pz = B::load_unaligned(t.z(k) + first);
    const B dx = px - B(f.t[0]), dy = py - B(f.t[1]), dz = pz - B(f.t[2]);
    ex[k] = (B(f.inv[0]) * dx + B(f.inv[1]) * dy) + B(f.inv[2]) * dz;
    ey[k] = (B(f.inv[3]) * dx + B(f.inv[4]) * dy) + B(f.inv[5]) * dz;
    ez[k] = (B(f.inv[6]) * dx + B(f.inv[7]) * dy) + B(f.inv[8]) * dz;
    // std::max({m, a, b, c}): each value in turn replaces the largest so far if larger (so a
    // NaN never does).
    for (const B& x : {xsimd::abs(px), xsimd::abs(py), xsimd::abs(pz)}) e_max = max_of(x, e_max);
    for (const B& x : {xsimd::abs(ex[k]), xsimd::abs(ey[k]), xsimd::abs(ez[k])})
      e_obj = max_of(x, e_obj);
  }
  const B err_d = B(0x1p-46) * ((e_max + B(f.t_max)) + B(f.radius));
  // key_corners
  const B slab_margin = xsimd::select(
      e_obj <= B(1e36),
      above_fast_lanes((B(2.0) * err_d + B(0x1p-20) * e_obj) + B(kFloatUnderflowFloor)), infinite);
  // key_rest: the box
  B lo[3], hi[3];
  const B* axis[3] = {ex, ey, ez};
  for (int a = 0; a < 3; ++a) {
    const B* v = axis[a];
    lo[a] = below_fast_lanes(min_of(min_of(v[0], v[1]), v[2]) - B(2.0) * err_d);
    hi[a] = above_fast_lanes(max_of(max_of(v[0], v[1]), v[2]) + B(2.0) * err_d);
  }
  // The normal
  const B ux = ex[1] - ex[0], uy = ey[1] - ey[0], uz = ez[1] - ez[0];
  const B vx = ex[2] - ex[0], vy = ey[2] - ey[0], vz = ez[2] - ez[0];
  const B cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const B len2 = (cx * cx + cy * cy) + cz * cz;
  // flat: !(len2 > 0) || !(len2 < inf), NaN included.
  const auto flat = !((len2 > B(0.0)) & (len2 < infinite));
  B root = xsimd::sqrt(len2);
#if XSIMD_WITH_AVX512F
  // (Zero-masked: see through_float.)
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>) root = B(_mm512_maskz_sqrt_pd(0xFF, len2));
#endif
  const B inv_len = xsimd::select(flat, B(0.0), B(1.0) / root);
  // The normal rounded to float, and |n|_1 summed in float, as key_rest does.
  const B n0 = through_float(cx * inv_len), n1v = through_float(cy * inv_len),
          n2 = through_float(cz * inv_len);
  const B n1 = float_l1(n0, n1v, n2);
  B d_lo = infinite, d_hi = -infinite;
  for (int k = 0; k < 3; ++k) {
    const B d = (n0 * ex[k] + n1v * ey[k]) + n2 * ez[k];
    d_lo = min_of(d, d_lo);
    d_hi = max_of(d, d_hi);
  }
  const B r(f.radius);
  const B margin = ((B(0x1p-50) * n1 * ((e_max + B(f.t_max)) + r) + B(2.0) * n1 * err_d) +
                    B(5 * 0x1p-24) * n1 * r) +
                   B(kFloatUnderflowFloor);
  const B lower = below_fast_lanes(d_lo - margin), upper = above_fast_lanes(d_hi + margin);
  const B f_margin =
      B(1.7322) * (B(4.0002 * 0x1p-24) * e_obj + B(4.0) * err_d) + B(kFloatUnderflowFloor);
  const B key_margin =
      above_fast_lanes(f_margin + B(2 * 0x1p-24) * (B(1.7322) * (e_obj + r) + f_margin));
  const B edge_margin =
      f.radius <= 1e9 && f.radius >= 0x1p-30
          ? xsimd::select(
                e_obj <= B(1e9),
                above_fast_lanes(B(1.001) * (through_float(slab_margin) + B(0x1p-20) * r)),
                infinite)
          : infinite;
  // Written per lane, each value rounded to float as the scalar key does.
  alignas(64) double v[3][3][G], box[6][G], rest[5][G], n_d[3][G];
  n0.store_aligned(n_d[0]);
  n1v.store_aligned(n_d[1]);
  n2.store_aligned(n_d[2]);
  for (int k = 0; k < 3; ++k) {
    ex[k].store_aligned(v[0][k]);
    ey[k].store_aligned(v[1][k]);
    ez[k].store_aligned(v[2][k]);
  }
  for (int a = 0; a < 3; ++a) {
    lo[a].store_aligned(box[a]);
    hi[a].store_aligned(box[3 + a]);
  }
  lower.store_aligned(rest[0]);
  upper.store_aligned(rest[1]);
  key_margin.store_aligned(rest[2]);
  edge_margin.store_aligned(rest[3]);
  slab_margin.store_aligned(rest[4]);
  for (std::uint32_t i = 0; i < G; ++i) {
    simd::PrefilterTriangle& key = out[i];
    for (int k = 0; k < 3; ++k) {
      key.x[k] = static_cast<float>(v[0][k][i]);
      key.y[k] = static_cast<float>(v[1][k][i]);
      key.z[k] = static_cast<float>(v[2][k][i]);
      key.n[k] = static_cast<float>(n_d[k][i]);
    }
    for (int a = 0; a < 3; ++a) {
      key.lo[a] = static_cast<float>(box[a][i]);
      key.hi[a] = static_cast<float>(box[3 + a][i]);
    }
    key.lower = static_cast<float>(rest[0][i]);
    key.upper = static_cast<float>(rest[1][i]);
    key.margin = static_cast<float>(rest[2][i]);
    key.edge_margin = static_cast<float>(rest[3][i]);
    key.slab_margin = static_cast<float>(rest[4][i]);
  }
}

// Environment triangles' prefilter keys for the current pose, direct-mapped by slot: in one query
// a triangle of an environment leaf meets several flying leaves, and its key costs about 50 ns
// (a fifth of a torus-flight query with K = 26 before this cache). An entry is valid for the pose
// whose epoch it carries; its key is whole when `whole` says so, else only key_corners' part
// (enough for the plate test and the 8-DOP's DOP test). Sized once (engine/dop_query.cpp,
// oriented_query.cpp).
struct alignas(64) PrefilterKeyCache {  // a cache line of its own: one per thread in a split
  static constexpr std::uint32_t query_entries = 4096;  // the size of a whole query's cache
  std::uint32_t mask = 0;                               // entries - 1, entries a power of two
  std::vector<std::uint32_t> slot, epoch;               // per entry; epoch 0: empty
  std::vector<std::uint8_t> whole;
  std::vector<simd::PrefilterTriangle> keys;
  // The moved corners behind the last key filled with its corners only: a triangle that passes
  // the flying leaf's DOP and plate asks for the rest of its key next, which needs them again.
  MovedCorners last_moved;
  std::uint32_t last_slot = 0, last_epoch = 0;

  // Sized on first use, then kept (the scratch's prepare calls it for every pose).
  void size_once(std::uint32_t entries) {
    if (!slot.empty()) return;
    entries = std::bit_ceil(entries);  // a power of two: cached_key's groups rely on the mask
    mask = entries - 1;
    slot.assign(entries, 0);
    epoch.assign(entries, 0);
    whole.assign(entries, 0);
    keys.resize(entries);
  }
  // Every entry empty: when the owner's epochs start again (new hierarchies, or wrapped).
  void forget() {
    std::fill(epoch.begin(), epoch.end(), 0);
    last_epoch = 0;
  }
};

// The key of environment slot `es` of `tris` for this pose, from the cache or computed into it:
// its corners only (`whole` false) or all of it. The triangle's corners are read only to compute
// (most asks are hits, and its nine coordinates lie in nine arrays). Not for concurrent tasks
// (they compute their own).
template <class Arch>
const simd::PrefilterTriangle& cached_key(PrefilterKeyCache& cache, std::uint32_t epoch,
                                          const ObjectFrame& frame, const LeafTriangles& tris,
                                          std::uint32_t es, bool whole = true) {
  const std::uint32_t i = es & cache.mask;
  const bool present = cache.epoch[i] == epoch && cache.slot[i] == es;
  if (present && (cache.whole[i] || !whole)) return cache.keys[i];
  // A whole key on a vector ISA: the keys of its whole aligned group of slots at once, into
  // their consecutive entries (the environment's leaves are runs of consecutive slots, so the
  // neighbours' keys are mostly asked for next). Only with G distinct entries for the group, and
  // G slots to read.
  constexpr std::uint32_t G = key_group_size<Arch>;
  if constexpr (G > 1) {
    const std::uint32_t group = es & ~(G - 1);
    if (whole && cache.mask >= G - 1 && group + G <= tris.size()) {
      const std::uint32_t at = group & cache.mask;
      object_frame_keys<Arch>(frame, tris, group, &cache.keys[at]);
      for (std::uint32_t g = 0; g < G; ++g) {
        cache.slot[at + g] = group + g;
        cache.epoch[at + g] = epoch;
        cache.whole[at + g] = 1;
      }
      return cache.keys[i];
    }
  }
  const bool kept = present && cache.last_slot == es && cache.last_epoch == epoch;
  const MovedCorners m =
      kept ? cache.last_moved : move_to_object_frame<Arch>(frame, tris.triangle<Arch>(es));
  if (!present) {
    key_corners<Arch>(m, cache.keys[i]);
    cache.slot[i] = es;
    cache.epoch[i] = epoch;
    cache.whole[i] = 0;
  }
  if (whole) {
    key_rest<Arch>(frame, m, cache.keys[i]);
    cache.whole[i] = 1;
  } else {
    cache.last_moved = m;
    cache.last_slot = es;
    cache.last_epoch = epoch;
  }
  return cache.keys[i];
}

// One environment triangle's key at a time, without a cache, for concurrent tasks (they share
// no PrefilterKeyCache): the corners when the triangle comes, the rest only if it passes the
// flying leaf's DOP and plate, from the same moved corners.
struct UncachedKey {
  simd::PrefilterTriangle key;
  MovedCorners moved;
  std::uint32_t slot = ~0u;
  bool whole = false;
};

template <class Arch>
const simd::PrefilterTriangle& uncached_key(UncachedKey& k, const ObjectFrame& frame,
                                            const LeafTriangles& tris, std::uint32_t es,
                                            bool whole) {
  if (k.slot != es) {
    k.moved = move_to_object_frame<Arch>(frame, tris.triangle<Arch>(es));
    key_corners<Arch>(k.moved, k.key);
    k.slot = es;
    k.whole = false;
  }
  if (whole && !k.whole) {
    key_rest<Arch>(frame, k.moved, k.key);
    k.whole = true;
  }
  return k.key;
}

// The moved corners of flying slots, in the leaf triangles' layout (x of corner c in array c, y
// in 3 + c, z in 6 + c), once per slot and pose: the exact test's input. apply_pose's arithmetic
// written out (the same operations in the same order, and no contraction into FMAs anywhere:
// -ffp-contract=off), so the same doubles as apply_pose and the oracle; inline, where three calls
// to apply_pose (compiled once, out of line) took a tenth of the torus flight's exact tests.
// Tested against apply_pose bit for bit (tests/engine/leaf_key_test.cpp).
template <class Arch>
void move_slot(const Pose& pose, const LeafTriangles& t, std::uint32_t fs, double* const* moved) {
  const auto& r = pose.r;
  for (int c = 0; c < 3; ++c) {
    const double x = t.x(c)[fs], y = t.y(c)[fs], z = t.z(c)[fs];
    moved[c][fs] = ((r[0] * x + r[1] * y) + r[2] * z) + pose.t[0];
    moved[3 + c][fs] = ((r[3] * x + r[4] * y) + r[5] * z) + pose.t[1];
    moved[6 + c][fs] = ((r[6] * x + r[7] * y) + r[8] * z) + pose.t[2];
  }
}

template <class Arch>
Triangle moved_triangle(const double* const* moved, std::uint32_t fs) {
  return Triangle{{moved[0][fs], moved[3][fs], moved[6][fs]},
                  {moved[1][fs], moved[4][fs], moved[7][fs]},
                  {moved[2][fs], moved[5][fs], moved[8][fs]}};
}

// Where a first_contact query found its witness: the two triangles' slots. The next pose of a
// chain tests that pair before anything else (engine/dop_query.hpp, "The previous witness").
struct WitnessSlots {
  std::uint32_t env = 0;
  std::uint32_t fly = 0;
};

// A scratch's record of its previous pose's witness: valid only if that pose found it in a single
// traversal (a split query's tasks record none) of the same trees in the same chain.
struct PreviousWitness {
  WitnessSlots slots;
  bool valid = false;
};

// The previous pose's witness at this pose (first_contact, hot start). Close poses of a path
// often stay in contact through the same pair, which then answers the pose with one exact test
// instead of a descent from the roots. The test is the leaf test's own (triangles_intersect on
// apply_pose's coordinates), so a pair it accepts does intersect at this pose: the answer is the
// pose's true one, and only the witness may differ from a cold query's first pair in traversal
// order. False without a test when there is no valid witness or its slots are not these trees'
// (other trees may have taken the previous ones' addresses); else counts the pair in n_p and
// n_exact whether it holds or not.
template <class Arch>
bool previous_witness_holds(const LeafTriangles& env_tris, const LeafTriangles& fly_tris,
                            const Pose& pose, const PreviousWitness& previous,
                            QueryResult& result) {
  const WitnessSlots w = previous.slots;
  if (!previous.valid || w.env >= env_tris.size() || w.fly >= fly_tris.size()) return false;
  ++result.stats.n_p;
  ++result.stats.n_exact;
  Vec3 q[3];
  for (int c = 0; c < 3; ++c) {
    q[c] = apply_pose(pose, Vec3{fly_tris.x(c)[w.fly], fly_tris.y(c)[w.fly], fly_tris.z(c)[w.fly]});
  }
  if (!triangles_intersect(env_tris.template triangle<Arch>(w.env), Triangle{q[0], q[1], q[2]}))
    return false;
  result.collides = true;
  result.contacts = 1;
  append_contact(result.pairs, {env_tris.original[w.env], fly_tris.original[w.fly]});
  return true;
}

// Whether the float prefilter (and its edge axes) is worth running for an object of this corner
// radius: not below 2^-100 (8e-31, smaller than the readers accept), where its projections reach
// float's subnormals, each operation a microcode assist (on the Intel Xeons of these VMs the
// oracle tests' 1e-39 meshes took 6 minutes), and the 2^-120 underflow floor of its margins lets
// nearly every pair through anyway. Skipping it only sends more pairs to the exact test.
// (Arch, unused here, keeps each ISA's copy apart: see engine/isa/.)
template <class Arch>
bool prefilter_pays(double corner_radius) {
  return corner_radius >= 0x1p-100;
}

// Every environment triangle of leaf `e` against every flying triangle of leaf `f`: counts n_p
// and n_exact, and adds intersecting pairs to `result` as `mode` asks. `moved_slot(fs)` gives
// apply_pose's coordinates of flying slot fs, `key_of(es, whole)` the prefilter key of
// environment slot es (object_frame_key, perhaps cached; its corners only unless `whole`), and
// `misses_leaf(es)` may prove that environment triangle es misses the flying leaf as a whole
// (then its pairs are not counted in n_p). Without `prefilter` (prefilter_pays), every pair that
// misses_leaf lets through goes to the exact test.
// Returns true to stop (first_contact, a contact), with the pair's slots in `witness` if given.
template <class Arch, class MovedSlot, class KeyOf, class MissesLeaf>
bool test_leaf_pair(const LeafTriangles& env_tris, const TreeTopology& env_topo, std::uint32_t e,
                    const LeafTriangles& fly_tris, const TreeTopology& fly_topo, std::uint32_t f,
                    const simd::PrefilterSlots& slots, bool prefilter, QueryMode mode,
                    MovedSlot&& moved_slot, KeyOf&& key_of, MissesLeaf&& misses_leaf,
                    QueryResult& result, WitnessSlots* witness = nullptr) {
  const std::uint32_t f_first = fly_topo.child_or_first[f], f_count = fly_topo.leaf_count[f];
  const std::uint32_t e_first = env_topo.child_or_first[e];
  const std::uint32_t e_end = e_first + env_topo.leaf_count[e];
  for (std::uint32_t es = e_first; es < e_end; ++es) {
    if (misses_leaf(es)) continue;
    const simd::PrefilterTriangle& key = key_of(es, true);
    result.stats.n_p += f_count;
    for (std::uint32_t done = 0; done < f_count; done += 64) {
      const std::uint32_t chunk = f_count - done < 64 ? f_count - done : 64;
      std::uint64_t bits = prefilter     ? simd::prefilter<Arch>(key, slots, f_first + done, chunk)
                           : chunk == 64 ? ~std::uint64_t{0}
                                         : (std::uint64_t{1} << chunk) - 1;  // every slot
      if (bits == 0) continue;
      const Triangle te = env_tris.template triangle<Arch>(es);  // only for survivors
      for (; bits != 0; bits &= bits - 1) {
        const std::uint32_t fs =
            f_first + done + static_cast<std::uint32_t>(std::countr_zero(bits));
        // (An infinite margin never separates: skip the test. key_rest makes it infinite for
        // objects below 2^-30, so also wherever prefilter_pays says no.)
        if (key.edge_margin < INFINITY && simd::edge_axes_separate<Arch>(key, slots, fs)) continue;
        ++result.stats.n_exact;
        if (!triangles_intersect(te, moved_slot(fs))) continue;
        result.collides = true;
        ++result.contacts;
        if (mode == QueryMode::count_contacts) continue;
        append_contact(result.pairs, {env_tris.original[es], fly_tris.original[fs]});
        if (mode == QueryMode::first_contact) {
          if (witness != nullptr) *witness = {es, fs};
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace kdop
