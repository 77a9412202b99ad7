#pragma once
// The nine edge-pair axes of the separating axis theorem for two triangles (Gottschalk et al.
// 1996, section 5: two disjoint convex polytopes are apart along a face normal of either or along
// the cross product of an edge of each; for triangles, 2 normals and 9 edge pairs): a = e_i x f_j
// for an edge e_i of the environment triangle E and an edge f_j of a flying triangle F, both in the
// object's frame, in float. The prefilter (simd/triangle_prefilter.hpp) has tried the two normals
// and the box; a pair it passes that does not intersect is, nearly always, apart along one of
// these, so this test decides in float what the exact double test (geometry/tri_tri.hpp, about
// 60 ns) would, for the pairs near each other that the flights and the tori are made of.
//
// Any direction is a valid axis, so the axes need no error bound: only the projections on them
// do. A projection of E's float corners on a is within |a|_1 * slab_margin of the exact corners'
// (engine/leaf_test.hpp, key_corners), one of F's within |a|_1 * 2^-20 r (rounding F's corners to
// float, |f| <= r, and the products and sums); PrefilterTriangle::edge_margin is their sum with
// room for the float sums below, and infinite where coordinates are large enough for a product to
// overflow. E and F are apart along a if the ranges, widened by |a|_1 * edge_margin plus the
// underflow floor, do not meet. A NaN or infinite margin never separates.
//
// Lanes hold the axes as 4 i + j (i, j in 0..2; lanes with i or j = 3 are padding). Every ISA
// computes the same float operations in the same order as the scalar reference.
#include <cmath>
#include <cstdint>

#include "simd/arch.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop::simd {

// Added to every widened range: covers the projections' underflow (each operation's absolute
// error is below 2^-126 even where subnormals flush), as kFloatUnderflowFloor does elsewhere.
inline constexpr float kEdgeAxesFloor = 0x1p-120f;

// A triangle's float corners and its edges: edge j runs from corner j to corner j + 1 (mod 3).
struct EdgeAxesCorners {
  float x[3], y[3], z[3];
  float ex[3], ey[3], ez[3];
};

inline EdgeAxesCorners with_edges(const float* x, const float* y, const float* z) {
  EdgeAxesCorners c;
  for (int k = 0; k < 3; ++k) {
    c.x[k] = x[k];
    c.y[k] = y[k];
    c.z[k] = z[k];
  }
  for (int j = 0; j < 3; ++j) {
    const int n = j == 2 ? 0 : j + 1;
    c.ex[j] = c.x[n] - c.x[j];
    c.ey[j] = c.y[n] - c.y[j];
    c.ez[j] = c.z[n] - c.z[j];
  }
  return c;
}

inline EdgeAxesCorners slot_corners(const PrefilterSlots& f, std::uint32_t s) {
  const float x[3] = {f.x[0][s], f.x[1][s], f.x[2][s]}, y[3] = {f.y[0][s], f.y[1][s], f.y[2][s]},
              z[3] = {f.z[0][s], f.z[1][s], f.z[2][s]};
  return with_edges(x, y, z);
}

// True if some edge-pair axis separates E (key e) from F (flying slot s).
inline bool edge_axes_separate_scalar(const PrefilterTriangle& e, const PrefilterSlots& f,
                                      std::uint32_t s) {
  const EdgeAxesCorners ec = with_edges(e.x, e.y, e.z), fc = slot_corners(f, s);
  bool apart = false;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float ax = ec.ey[i] * fc.ez[j] - ec.ez[i] * fc.ey[j];
      const float ay = ec.ez[i] * fc.ex[j] - ec.ex[i] * fc.ez[j];
      const float az = ec.ex[i] * fc.ey[j] - ec.ey[i] * fc.ex[j];
      float pe[3], pf[3];
      for (int k = 0; k < 3; ++k) {
        pe[k] = (ax * ec.x[k] + ay * ec.y[k]) + az * ec.z[k];
        pf[k] = (ax * fc.x[k] + ay * fc.y[k]) + az * fc.z[k];
      }
      // As minps / maxps: the first operand if it is smaller (larger), else the second.
      const auto lo = [](const float* p) {
        const float m = p[0] < p[1] ? p[0] : p[1];
        return m < p[2] ? m : p[2];
      };
      const auto hi = [](const float* p) {
        const float m = p[0] > p[1] ? p[0] : p[1];
        return m > p[2] ? m : p[2];
      };
      const float l1 = (std::fabs(ax) + std::fabs(ay)) + std::fabs(az);
      const float m = l1 * e.edge_margin + kEdgeAxesFloor;
      apart |= hi(pe) + m < lo(pf);  // both sides tested, without a branch between them
      apart |= hi(pf) + m < lo(pe);
    }
  }
  return apart;
}

template <class Arch>
[[gnu::always_inline]] inline bool edge_axes_separate(const PrefilterTriangle& e,
                                                      const PrefilterSlots& f, std::uint32_t s) {
  if constexpr (is_scalar<Arch>) {
    return edge_axes_separate_scalar(e, f, s);
  } else {
    using B = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(B::size);
    // Lane 4 i + j: E's edge i, F's edge j (3: padding).
    alignas(64) static constexpr float lane_i[16] = {0, 0, 0, 0, 1, 1, 1, 1,
                                                     2, 2, 2, 2, 3, 3, 3, 3};
    alignas(64) static constexpr float lane_j[16] = {0, 1, 2, 3, 0, 1, 2, 3,
                                                     0, 1, 2, 3, 0, 1, 2, 3};
    const EdgeAxesCorners ec = with_edges(e.x, e.y, e.z), fc = slot_corners(f, s);
    const B margin(e.edge_margin), floor(kEdgeAxesFloor);
    auto apart = B(0.0f) != B(0.0f);
    for (int b = 0; b * W < 12; ++b) {
      const B li = B::load_aligned(lane_i + b * W), lj = B::load_aligned(lane_j + b * W);
      const auto i0 = li == B(0.0f), i1 = li == B(1.0f);
      const auto j0 = lj == B(0.0f), j1 = lj == B(1.0f);
      const auto by_i = [&](const float* v) {
        return xsimd::select(i0, B(v[0]), xsimd::select(i1, B(v[1]), B(v[2])));
      };
      const auto by_j = [&](const float* v) {
        return xsimd::select(j0, B(v[0]), xsimd::select(j1, B(v[1]), B(v[2])));
      };
      const B ex = by_i(ec.ex), ey = by_i(ec.ey), ez = by_i(ec.ez);
      const B fx = by_j(fc.ex), fy = by_j(fc.ey), fz = by_j(fc.ez);
      const B ax = ey * fz - ez * fy, ay = ez * fx - ex * fz, az = ex * fy - ey * fx;
      B pe[3], pf[3];
      for (int k = 0; k < 3; ++k) {
        pe[k] = (ax * B(ec.x[k]) + ay * B(ec.y[k])) + az * B(ec.z[k]);
        pf[k] = (ax * B(fc.x[k]) + ay * B(fc.y[k])) + az * B(fc.z[k]);
      }
      const B lo_e = xsimd::min(xsimd::min(pe[0], pe[1]), pe[2]);
      const B hi_e = xsimd::max(xsimd::max(pe[0], pe[1]), pe[2]);
      const B lo_f = xsimd::min(xsimd::min(pf[0], pf[1]), pf[2]);
      const B hi_f = xsimd::max(xsimd::max(pf[0], pf[1]), pf[2]);
      const B l1 = (xsimd::abs(ax) + xsimd::abs(ay)) + xsimd::abs(az);
      const B m = l1 * margin + floor;
      const auto valid = (li < B(3.0f)) & (lj < B(3.0f));
      apart = apart | (valid & (((hi_e + m) < lo_f) | ((hi_f + m) < lo_e)));
    }
    return xsimd::any(apart);
  }
}

}  // namespace kdop::simd
