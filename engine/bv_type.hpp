#pragma once
// Bounding-volume types a user can choose at run time (--bv). Each maps to a compile-time
// instantiation of the builders and the traversal.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "builders/build_config.hpp"
#include "builders/bv_tag.hpp"

namespace kdop {

// dop8 is Zachmann's octahedron (zachmann1998-dop-trees.txt), kdop32 the 26-DOP's directions and
// three more (geometry/dop.hpp), the other DOPs the k-DOP paper's;
// obb the OBBTree's boxes (gottschalk1996-obbtree.txt), rss rounded oriented boxes
// (oriented-rounded-bv.txt). The order is the hierarchy files' BV code (io/hierarchy_file.hpp):
// append, never reorder.
enum class BvType { kdop6, kdop14, kdop18, kdop26, dop8, obb, rss, kdop32 };
// How many there are (tables indexed by BvType): the last one's code + 1.
inline constexpr std::size_t kBvTypeCount = static_cast<std::size_t>(BvType::kdop32) + 1;

inline bool is_dop(BvType bv) {
  return bv != BvType::obb && bv != BvType::rss;
}

// Accepts "kdop6".."kdop32", "dop8" (also "kdop8"), the bare k ("6", "8", "14", "18", "26",
// "32"), "obb" and "rss".
std::optional<BvType> parse_bv_type(const std::string& name);
const char* to_string(BvType bv);

// The split rule a BV type is built with unless told otherwise: the k-DOP paper's splatter, or
// Gottschalk's longest OBB axis for the oriented volumes.
inline SplitRule default_split_rule(BvType bv) {
  return is_dop(bv) ? SplitRule::splatter : SplitRule::obb_axis;
}

// The flying hierarchy's leaf size tau unless told otherwise: the k-DOP paper's 40 for k-DOPs
// (their tumbling costs more than a leaf's prefiltered triangles), 8 for the oriented volumes,
// whose nodes are placed at a pose for a few multiply-adds: measured with kdop-bench (obb, first
// contact), leaves of 8 against 40 answer nested 20,000-triangle spheres 1% apart in 2.1 against
// 7.2 ms and the tori at distance 0.7 in 33 against 41 us, and the flights within 6-13%.
inline std::uint32_t default_object_leaf(BvType bv) {
  return is_dop(bv) ? 40 : 8;
}

// The environment hierarchy's leaf size tau unless told otherwise: 3 for k-DOPs (the paper's
// Algorithm 1 has 1), 1 for the oriented volumes. Measured side by side with kdop-bench (K = 14
// and 26, 40 poses, alternating runs; docs/design-notes.md, "Environment leaves of three"):
// leaves of 3 against 1 answer the 54 scene/mode pairs 1.07x faster in the geometric mean, the
// deep nested spheres 1.06-1.29x and the torus flight 1.07-1.13x. OBB leaves of two or more
// triangles fit worse and lose on the torus flight 4x (leaves of 2: 9.6 -> 41 us).
inline std::uint32_t default_env_leaf(BvType bv) {
  return is_dop(bv) ? 3 : 1;
}

// Calls f.template operator()<K>() with the K of a k-DOP type (is_dop(bv)). Every branch must
// return the same type.
template <class F>
decltype(auto) with_dop_k(BvType bv, F&& f) {
  switch (bv) {
    case BvType::kdop6:
      return f.template operator()<6>();
    case BvType::kdop14:
      return f.template operator()<14>();
    case BvType::kdop18:
      return f.template operator()<18>();
    case BvType::dop8:
      return f.template operator()<8>();
    case BvType::kdop32:
      return f.template operator()<32>();
    default:
      break;
  }
  return f.template operator()<26>();
}

// Calls f.template operator()<Bv>() with the tag of `bv` (builders/bv_tag.hpp): the one place a
// run-time BV type becomes a compile-time one. Every branch must return the same type.
template <class F>
decltype(auto) with_bv(BvType bv, F&& f) {
  switch (bv) {
    case BvType::obb:
      return f.template operator()<ObbBv>();
    case BvType::rss:
      return f.template operator()<RssBv>();
    default:
      break;
  }
  return with_dop_k(bv,
                    [&]<int K>() -> decltype(auto) { return f.template operator()<DopBv<K>>(); });
}

// k of a k-DOP type (6, 8, 14, 18, 26, 32); 0 for the oriented ones.
inline int dop_k(BvType bv) {
  return is_dop(bv) ? with_dop_k(bv, []<int K>() { return K; }) : 0;
}

}  // namespace kdop
