#pragma once
// What the engine needs of a bounding-volume type, by its tag (builders/bv_tag.hpp): its two
// hierarchies, how to build them, its per-thread query state and its query for an ISA. Code that
// runs any type (CollisionPair, BatchQuery) is written once against these.
#include "builders/dop_tree.hpp"
#include "builders/oriented_tree.hpp"
#include "engine/bv_type.hpp"
#include "engine/dop_dispatch.hpp"
#include "engine/oriented_dispatch.hpp"

namespace kdop {

template <int K>
constexpr BvType bv_type_for() {
  if constexpr (K == 6) return BvType::kdop6;
  if constexpr (K == 8) return BvType::dop8;
  if constexpr (K == 14) return BvType::kdop14;
  if constexpr (K == 18) return BvType::kdop18;
  if constexpr (K == 32) return BvType::kdop32;
  return BvType::kdop26;
}

template <class Bv>
struct BvTraits;

template <int K>
struct BvTraits<DopBv<K>> {
  using Environment = DopTree<K>;
  using Object = FlyingDopTree<K>;
  using Scratch = DopQueryScratch<K>;
  using QueryFn = DopQueryFn<K>;
  static constexpr BvType type = bv_type_for<K>();
  static Environment build_environment(const Mesh& m, const BuildConfig& c) {
    return build_dop_tree<K>(m, c);
  }
  static Object build_object(const Mesh& m, const BuildConfig& c) {
    return build_flying_dop_tree<K>(m, c);
  }
  static QueryFn query_for(simd::Isa isa) { return dop_query_for<K>(isa); }
};

template <class Bv>
struct OrientedTraits {
  using Environment = OrientedTree<Bv>;
  using Object = FlyingOrientedTree<Bv>;
  using Scratch = OrientedQueryScratch<Bv>;
  using QueryFn = OrientedQueryFn<Bv>;
  static Environment build_environment(const Mesh& m, const BuildConfig& c) {
    return build_oriented_tree<Bv>(m, c);
  }
  static Object build_object(const Mesh& m, const BuildConfig& c) {
    return build_flying_oriented_tree<Bv>(m, c);
  }
  static QueryFn query_for(simd::Isa isa) { return oriented_query_for<Bv>(isa); }
};

template <>
struct BvTraits<ObbBv> : OrientedTraits<ObbBv> {
  static constexpr BvType type = BvType::obb;
};
template <>
struct BvTraits<RssBv> : OrientedTraits<RssBv> {
  static constexpr BvType type = BvType::rss;
};

// The BV type of a hierarchy (DopTree, FlyingOrientedTree, ...).
template <class Hierarchy>
constexpr BvType bv_type_of() {
  return BvTraits<typename Hierarchy::Bv>::type;
}

}  // namespace kdop
