#pragma once
// Bounding-volume types a user can choose at run time (--bv). Each maps to a compile-time
// instantiation of the builders and the traversal.
#include <optional>
#include <string>

namespace kdop {

enum class BvType { kdop6, kdop14, kdop18, kdop26 };

// Accepts "kdop6".."kdop26" and the bare k ("6", "14", "18", "26").
std::optional<BvType> parse_bv_type(const std::string& name);
const char* to_string(BvType bv);

}  // namespace kdop
