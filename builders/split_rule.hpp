#pragma once
// Splitting one node of a top-down build in two (Klosowski et al. 1998, section 3.3.4;
// Zachmann 1998, section 4.2). Every rule partitions a node's triangle indices in place and
// returns how many went left; the recursion around it is builders/topdown_builder.hpp.
//
//   splatter, longest-side   a coordinate axis by a statistic, then the plane at the mean or
//                            median centroid (the paper's cheap rules)
//   min-sum, min-max         candidate planes (per direction: the mean, the median, or
//                            `candidates` evenly spaced bins), each costed by the exact volumes
//                            of the two children's k-DOPs (builders/dop_volume.hpp)
//   surface-area             the same candidates, cost area(L) |L| + area(R) |R|
//   zachmann                 seeds at a near-farthest pair of centroids, the rest sorted along
//                            the direction most parallel to them and taken from both ends, each
//                            to the child whose k-DOP grows less (sum of slab widths, a cheap
//                            stand-in for volume; docs/design-notes.md)
//
// Nodes of 16,384 triangles and more (the top levels) partition in parallel and evaluate the
// volume rules' directions as parallel tasks; the result is the same for any thread count.
#include <array>
#include <cstdint>
#include <vector>

#include "builders/build_config.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

// Three times the centroid of every triangle, per axis (the factor 3 changes no decision).
struct Centroids {
  std::array<std::vector<double>, 3> axis;
};

Centroids centroids_of(const Mesh& mesh);

// Partitions tris[0, count) (count >= 2) and returns the size of the left part, always in
// [1, count - 1]. Deterministic: the same input gives the same partition on every platform.
template <int K>
std::uint32_t split_node(const Mesh& mesh, const Centroids& centroids, const BuildConfig& config,
                         std::uint32_t* tris, std::uint32_t count);

extern template std::uint32_t split_node<6>(const Mesh&, const Centroids&, const BuildConfig&,
                                            std::uint32_t*, std::uint32_t);
extern template std::uint32_t split_node<8>(const Mesh&, const Centroids&, const BuildConfig&,
                                            std::uint32_t*, std::uint32_t);
extern template std::uint32_t split_node<14>(const Mesh&, const Centroids&, const BuildConfig&,
                                             std::uint32_t*, std::uint32_t);
extern template std::uint32_t split_node<18>(const Mesh&, const Centroids&, const BuildConfig&,
                                             std::uint32_t*, std::uint32_t);
extern template std::uint32_t split_node<26>(const Mesh&, const Centroids&, const BuildConfig&,
                                             std::uint32_t*, std::uint32_t);
extern template std::uint32_t split_node<32>(const Mesh&, const Centroids&, const BuildConfig&,
                                             std::uint32_t*, std::uint32_t);

}  // namespace kdop
