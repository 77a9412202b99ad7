#pragma once
// The SIMD kernels as array-level functions, one set per ISA (simd/isa/kernels_*.cpp, each
// compiled with its ISA's flags), for the tests that check every ISA against the scalar
// reference and for the per-ISA micro-benchmarks. The engine does not call through this table:
// its whole query is compiled per ISA (engine/isa/) so the kernels inline into the traversal.
#include <cstddef>
#include <cstdint>

#include "simd/box_against_dop.hpp"
#include "simd/isa.hpp"
#include "simd/triangle_dop.hpp"
#include "simd/triangle_edge_axes.hpp"
#include "simd/triangle_prefilter.hpp"
#include "simd/tumble_affine.hpp"
#include "simd/tumble_vertices.hpp"

namespace kdop::simd {

template <int Lanes>
struct KernelTable {
  // out[i] = slab_overlap(a_i, b_i), where pair i is the 4 * Lanes floats at
  // pairs + 4 * Lanes * i (DOP a_i, then DOP b_i).
  void (*slab_overlap_pairs)(const float* pairs, std::size_t count, std::uint8_t* out);
  // For node i: tumble_vertices over vertices [first[i], first[i] + count[i]) into
  // out + 2 * Lanes * i.
  void (*tumble_nodes)(const SlabFrame<Lanes>& frame, const float* vx, const float* vy,
                       const float* vz, const std::uint32_t* first, const std::uint32_t* count,
                       std::size_t nodes, float* out);
  // The wide layout (simd/slab_overlap_wide.hpp) with W = 8: out[i] = the mask of block i's 8
  // environment DOPs against flying DOP i (flying DOPs: 2 * Lanes floats each; blocks:
  // 16 * (k/2) floats each).
  void (*slab_overlap_wide8)(const float* fly, const float* blocks, std::size_t count,
                             std::uint32_t* out);
  // out[i] = triangle_may_meet_dop(directions, DOP i (2 * Lanes floats at dops + 2 Lanes i),
  // triangle i's corners, triangle i's slab_margin).
  void (*triangle_dop_many)(const SlabDirections<Lanes>& directions, const float* dops,
                            const PrefilterTriangle* triangles, std::size_t n, std::uint8_t* out);
  // out[i] = prefilter(triangles[i], slots, first[i], count[i]).
  void (*prefilter_many)(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                         const std::uint32_t* first, const std::uint32_t* count, std::size_t n,
                         std::uint64_t* out);
  // out[i] = box_may_meet_dop(frame, box i (lo x, y, z, then hi x, y, z: 6 floats at
  // boxes + 6 i), DOP i (2 * Lanes floats at dops + 2 Lanes i)).
  void (*box_dop_many)(const BoxDopFrame<Lanes>& frame, const float* boxes, const float* dops,
                       std::size_t n, std::uint8_t* out);
  // out[i] = world_triangle_may_meet_dop(frame, triangle i's corners (x, y, z of corner 0, 1,
  // 2: 9 floats at corners + 9 i), DOP i (2 * Lanes floats at dops + 2 Lanes i)).
  void (*world_triangle_dop_many)(const BoxDopFrame<Lanes>& frame, const float* corners,
                                  const float* dops, std::size_t n, std::uint8_t* out);
  // For node i (2 * Lanes floats at nodes + 2 Lanes i): tumble_affine into out + 2 Lanes i.
  void (*tumble_affine_many)(const AffineFrame<Lanes>& frame, const float* nodes, std::size_t n,
                             float* out);
};

// out[i] = boxes_separated (simd/box_separation.hpp) of box i, 15 doubles at boxes + 15 i
// (centre, axes, half extents), against the box of centre centres + 3 i and block
// blocks + 16 i, as 0 overlapping, 1 separated, 2 undecided.
using BoxSeparationMany = void (*)(const double* boxes, const double* centres, const float* blocks,
                                   std::size_t n, std::uint8_t* out);

// out[i] = edge_axes_separate(triangles[i], slots, slot[i]).
using EdgeAxesMany = void (*)(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                              const std::uint32_t* slot, std::size_t n, std::uint8_t* out);

// One ISA's tables for every padded slab count (K = 6, 14, 18, 26), the box test and the edge
// axes' test.
struct KernelTables {
  KernelTable<4> lanes4;
  KernelTable<8> lanes8;
  KernelTable<12> lanes12;
  KernelTable<16> lanes16;
  BoxSeparationMany box_separation_many;
  EdgeAxesMany edge_axes_many;
};

BoxSeparationMany box_separation_table(Isa isa);
EdgeAxesMany edge_axes_table(Isa isa);

// Lanes: 4, 8, 12 or 16.
template <int Lanes>
KernelTable<Lanes> kernel_table(Isa isa);

extern template KernelTable<4> kernel_table<4>(Isa);
extern template KernelTable<8> kernel_table<8>(Isa);
extern template KernelTable<12> kernel_table<12>(Isa);
extern template KernelTable<16> kernel_table<16>(Isa);

// The loops behind the table, templated on the architecture tag.
template <class Arch, int Lanes>
void slab_overlap_pairs(const float* pairs, std::size_t count, std::uint8_t* out);
template <class Arch, int Lanes>
void tumble_nodes(const SlabFrame<Lanes>& frame, const float* vx, const float* vy, const float* vz,
                  const std::uint32_t* first, const std::uint32_t* count, std::size_t nodes,
                  float* out);
template <class Arch, int Lanes>
void triangle_dop_many(const SlabDirections<Lanes>& directions, const float* dops,
                       const PrefilterTriangle* triangles, std::size_t n, std::uint8_t* out);
template <class Arch>
void box_separation_many(const double* boxes, const double* centres, const float* blocks,
                         std::size_t n, std::uint8_t* out);
template <class Arch, int Lanes>
void box_dop_many(const BoxDopFrame<Lanes>& frame, const float* boxes, const float* dops,
                  std::size_t n, std::uint8_t* out);
template <class Arch, int Lanes>
void world_triangle_dop_many(const BoxDopFrame<Lanes>& frame, const float* corners,
                             const float* dops, std::size_t n, std::uint8_t* out);
template <class Arch>
void edge_axes_many(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                    const std::uint32_t* slot, std::size_t n, std::uint8_t* out);
template <class Arch>
void prefilter_many(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                    const std::uint32_t* first, const std::uint32_t* count, std::size_t n,
                    std::uint64_t* out);

}  // namespace kdop::simd
