#pragma once
// Compile-time names of the bounding-volume types, one empty type each: hierarchies carry theirs
// as `Bv`, and the engine's per-type parts (engine/bv_traits.hpp) are looked up by it.
namespace kdop {

template <int K>
struct DopBv {
  static constexpr int k = K;
};

// Oriented volumes keep 15 doubles per node (builders/oriented_tree.hpp).
struct ObbBv {
  static constexpr int doubles = 15;
};
struct RssBv {
  static constexpr int doubles = 15;
};

template <class Bv>
inline constexpr bool is_dop_tag = false;
template <int K>
inline constexpr bool is_dop_tag<DopBv<K>> = true;

}  // namespace kdop
