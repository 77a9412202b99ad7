#pragma once
// Bounding-volume types a user can choose at run time (--bv). Each maps to a compile-time
// instantiation of the builders and the traversal.
#include <optional>
#include <string>

namespace kdop {

// dop8 is Zachmann's octahedron (zachmann1998-dop-trees.txt), the others the k-DOP paper's.
// The order is the hierarchy files' BV code (io/hierarchy_file.hpp): append, never reorder.
enum class BvType { kdop6, kdop14, kdop18, kdop26, dop8 };

// Accepts "kdop6".."kdop26", "dop8" (also "kdop8") and the bare k ("6", "8", "14", "18", "26").
std::optional<BvType> parse_bv_type(const std::string& name);
const char* to_string(BvType bv);

// Calls f.template operator()<K>() with the K of `bv`: the one place a run-time BV type becomes
// a compile-time K. Every branch must return the same type.
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
    case BvType::kdop26:
      break;
  }
  return f.template operator()<26>();
}

// k of a BV type (6, 8, 14, 18, 26).
inline int dop_k(BvType bv) {
  return with_dop_k(bv, []<int K>() { return K; });
}

}  // namespace kdop
