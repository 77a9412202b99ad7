#pragma once
// Definitions of the array-level kernel loops (simd/kernel_table.hpp); included only by the
// per-ISA translation units in simd/isa/.
#include "simd/box_against_dop.hpp"
#include "simd/box_separation.hpp"
#include "simd/kernel_table.hpp"
#include "simd/slab_overlap.hpp"
#include "simd/slab_overlap_wide.hpp"
#include "simd/triangle_dop.hpp"

namespace kdop::simd {

template <class Arch, int Lanes>
void slab_overlap_pairs(const float* pairs, std::size_t count, std::uint8_t* out) {
  for (std::size_t i = 0; i < count; ++i, pairs += 4 * Lanes) {
    out[i] = slab_overlap<Arch, Lanes>(pairs, pairs + 2 * Lanes);
  }
}

// Lanes 4, 8, 12, 16 hold 3, 7, 9, 13 slabs (K = 6, 14, 18, 26). These tables serve the kernel
// tests and the cost-model benchmark; the 8-DOP (4 slabs in 4 lanes) reaches the same kernels
// through the query's templates, not through a table.
template <int Lanes>
inline constexpr int slabs_of = Lanes == 4    ? 3
                                : Lanes == 8  ? 7
                                : Lanes == 12 ? 9
                                              : 13;

template <class Arch, int Lanes>
void slab_overlap_wide8(const float* fly, const float* blocks, std::size_t count,
                        std::uint32_t* out) {
  constexpr int S = slabs_of<Lanes>;
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = slab_overlap_wide<Arch, S, 8>(fly + 2 * Lanes * i, Lanes, blocks + 16 * S * i);
  }
}

template <class Arch, int Lanes>
void tumble_nodes(const SlabFrame<Lanes>& frame, const float* vx, const float* vy, const float* vz,
                  const std::uint32_t* first, const std::uint32_t* count, std::size_t nodes,
                  float* out) {
  for (std::size_t i = 0; i < nodes; ++i) {
    tumble_vertices<Arch, Lanes>(frame, vx + first[i], vy + first[i], vz + first[i], count[i],
                                 out + 2 * Lanes * i);
  }
}

template <class Arch>
void prefilter_many(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                    const std::uint32_t* first, const std::uint32_t* count, std::size_t n,
                    std::uint64_t* out) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = prefilter<Arch>(triangles[i], slots, first[i], count[i]);
}

template <class Arch>
void edge_axes_many(const PrefilterTriangle* triangles, const PrefilterSlots& slots,
                    const std::uint32_t* slot, std::size_t n, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<std::uint8_t>(edge_axes_separate<Arch>(triangles[i], slots, slot[i]));
}

template <class Arch>
void box_separation_many(const double* boxes, const double* centres, const float* blocks,
                         std::size_t n, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const double* box = boxes + 15 * i;
    out[i] = static_cast<std::uint8_t>(
        boxes_separated<Arch>(box, box + 3, centres + 3 * i, blocks + 16 * i));
  }
}

template <class Arch, int Lanes>
void triangle_dop_many(const SlabDirections<Lanes>& directions, const float* dops,
                       const PrefilterTriangle* triangles, std::size_t n, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const PrefilterTriangle& t = triangles[i];
    out[i] = triangle_may_meet_dop<Arch, Lanes>(directions, dops + 2 * Lanes * i, t.x, t.y, t.z,
                                                t.slab_margin);
  }
}

template <class Arch, int Lanes>
void box_dop_many(const BoxDopFrame<Lanes>& frame, const float* boxes, const float* dops,
                  std::size_t n, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = box_may_meet_dop<Arch, Lanes>(frame, boxes + 6 * i, boxes + 6 * i + 3,
                                           dops + 2 * Lanes * i);
  }
}

template <class Arch, int Lanes>
void world_triangle_dop_many(const BoxDopFrame<Lanes>& frame, const float* corners,
                             const float* dops, std::size_t n, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* c = corners + 9 * i;
    const float x[3] = {c[0], c[3], c[6]}, y[3] = {c[1], c[4], c[7]}, z[3] = {c[2], c[5], c[8]};
    out[i] = world_triangle_may_meet_dop<Arch, Lanes>(frame, x, y, z, dops + 2 * Lanes * i);
  }
}

template <class Arch, int Lanes>
void tumble_affine_many(const AffineFrame<Lanes>& frame, const float* nodes, std::size_t n,
                        float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    tumble_affine<Arch, Lanes>(frame, nodes + 2 * Lanes * i, out + 2 * Lanes * i);
  }
}

template <class Arch, int Lanes>
KernelTable<Lanes> make_kernel_table() {
  return {&slab_overlap_pairs<Arch, Lanes>,
          &tumble_nodes<Arch, Lanes>,
          &slab_overlap_wide8<Arch, Lanes>,
          &triangle_dop_many<Arch, Lanes>,
          &prefilter_many<Arch>,
          &box_dop_many<Arch, Lanes>,
          &world_triangle_dop_many<Arch, Lanes>,
          &tumble_affine_many<Arch, Lanes>};
}

template <class Arch>
KernelTables make_kernel_tables() {
  return {make_kernel_table<Arch, 4>(),  make_kernel_table<Arch, 8>(),
          make_kernel_table<Arch, 12>(), make_kernel_table<Arch, 16>(),
          &box_separation_many<Arch>,    &edge_axes_many<Arch>};
}

}  // namespace kdop::simd
