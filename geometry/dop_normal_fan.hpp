#pragma once
// The normal fan of the generic k-DOP, cut into simplicial cones: what Zachmann's affine
// re-alignment needs (zachmann1998-dop-trees.txt, section 4.1). Any direction u lies in the
// normal cone of some vertex of the generic DOP, so u = l_a g_a + l_b g_b + l_c g_c with l >= 0
// for three of the k signed directions g (+n_j, -n_j); the support function of any convex set
// inside a DOP with offsets d then satisfies h(u) <= l_a d_a + l_b d_b + l_c d_c (support
// functions are sublinear), which bounds a rotated node's offsets with 3 multiply-adds each.
//
// Signed direction g: g < k/2 is +n_g (offset hi_g), g >= k/2 is -n_{g - k/2} (offset -lo).
#include <array>
#include <cstdint>
#include <vector>

#include "geometry/dop.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct FanCone {
  std::uint8_t g[3];  // signed directions spanning the cone
  double inverse[9];  // rows: l = inverse * u, for the integer matrix [g_a g_b g_c] (columns)
};

struct NormalFan {
  std::vector<Vec3> vertices;             // of the generic DOP (every plane at distance 1)
  std::vector<std::uint32_t> cone_first;  // vertex v's cones: cones[cone_first[v], [v+1])
  std::vector<FanCone> cones;
  // A cube map over directions: the cones met by each cell of a face (6 faces of
  // cube_map_side^2 cells), most often met first, up to cell_capacity of them; unused entries
  // hold no_cone. find_cone tries them before it searches.
  static constexpr int cube_map_side = 16, cell_capacity = 4;
  static constexpr std::uint16_t no_cone = 0xFFFF;
  std::vector<std::array<std::uint16_t, cell_capacity>> cell_cones;
};

// Built once per K on first use (immutable afterwards).
template <int K>
const NormalFan& normal_fan();

extern template const NormalFan& normal_fan<6>();
extern template const NormalFan& normal_fan<8>();
extern template const NormalFan& normal_fan<14>();
extern template const NormalFan& normal_fan<18>();
extern template const NormalFan& normal_fan<26>();
extern template const NormalFan& normal_fan<32>();

// The cone containing direction u: the cones of the generic vertex maximizing u . v, of which
// the one whose smallest coefficient is largest (so rounding cannot push u outside); `l`
// receives the coefficients.
const FanCone& containing_cone(const NormalFan& fan, const Vec3& u, double l[3]);

// Whether `cone` holds u: its coefficients l (written either way) are all >= 0 as computed.
inline bool cone_holds(const FanCone& cone, const Vec3& u, double l[3]) {
  const double* m = cone.inverse;
  l[0] = m[0] * u.x + m[1] * u.y + m[2] * u.z;
  l[1] = m[3] * u.x + m[4] * u.y + m[5] * u.z;
  l[2] = m[6] * u.x + m[7] * u.y + m[8] * u.z;
  return l[0] >= 0 && l[1] >= 0 && l[2] >= 0;
}

// A cone containing u (every coefficient l >= 0 as computed), found through the cube map: the
// first of u's cell's cones that contains it, else containing_cone's search (a cell's cones are
// found by sampling it, so a sliver may be missed). Any cone containing u bounds the support
// function by sublinearity; on a boundary two cones hold u and either serves. Meant for once per
// pose and slab: a search over the generic DOP's vertices costs 30-40 ns for K = 26 and 32.
const FanCone& find_cone(const NormalFan& fan, const Vec3& u, double l[3]);

}  // namespace kdop
