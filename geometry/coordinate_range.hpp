#pragma once
// The coordinates kdop accepts: magnitudes up to 1e30, for mesh vertices and pose translations
// alike. The readers refuse larger ones, naming the file and the place. World coordinates then
// stay below about 2e30 (|R p + t| <= |p| (1 + 1e-6) + |t|), far inside what the float bounding
// volumes (float overflows at 3.4e38, and their margins give up above 1e36) and the double OBB
// and RSS tests (squares of extents) hold. A hostile probe (2026-11-27) found false negatives
// beyond it: from 3.4e38 with every BV type, from 1e78 with RSS. No mesh is that large: 1e30 mm
// is 10^11 light years.
// A mesh must also reach 1e-30 (its largest coordinate magnitude at least that, or every
// coordinate 0): the bounding volumes' margins are relative to the magnitudes they bound, and
// products that underflow break them. Another probe (2026-11-27) found false negatives for whole
// meshes of 1e-155 and below (OBB, RSS, 26-DOP, 8-DOP: products of three or four coordinates) and
// of subnormal size (every type); meshes at 2^-99 (1.6e-30) answer exactly as at 1. Single tiny
// coordinates in a mesh of ordinary size are common (3.5e-32 from a sphere's sin(pi)) and fine:
// only a whole mesh smaller than 1e-30 mm (10^-15 of a proton) is refused.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace kdop {

inline constexpr double kMaxCoordinate = 1e30, kMinMeshScale = 1e-30;

inline bool coordinate_in_range(double v) {
  return std::fabs(v) <= kMaxCoordinate;
}

// What a reader says after naming the value: "... is beyond +-1e30 (kdop's coordinate range)".
inline constexpr const char* kBeyondCoordinateRange = "is beyond +-1e30 (kdop's coordinate range)";

// `what` = v, in the shortest digits that read back to v (1.0000001e+30, not %g's 1e+30, which
// would look within the range; a binary file's float as a float: 2e+38, not
// 1.9999999360571385e+38), beyond the range: "coordinate 4e+38 is beyond +-1e30 (...)".
inline std::string beyond_range(const std::string& what, double v) {
  char text[40];
  const bool is_float = std::fabs(v) <= std::numeric_limits<float>::max() &&
                        static_cast<double>(static_cast<float>(v)) == v;
  const auto end = is_float ? std::to_chars(text, text + sizeof text, static_cast<float>(v)).ptr
                            : std::to_chars(text, text + sizeof text, v).ptr;
  return what + std::string(text, end) + " " + kBeyondCoordinateRange;
}

// For binary files (text ones quote the token as written).
inline std::string beyond_coordinate_range(double v) {
  return beyond_range("coordinate ", v);
}

// Whether a mesh whose largest coordinate magnitude is `largest` is large enough.
inline bool mesh_scale_in_range(double largest) {
  return largest >= kMinMeshScale || largest == 0;
}

// What a reader says of a mesh below that scale.
inline std::string mesh_below_scale(double largest) {
  char text[40];
  std::snprintf(text, sizeof text, "%g", largest);
  return std::string("every coordinate is below 1e-30 in magnitude (the largest is ") + text +
         "): kdop reads meshes that reach at least 1e-30 (scale the model up)";
}

// Throws std::invalid_argument naming the first translation component beyond the range.
inline void check_translation_range(double tx, double ty, double tz) {
  const double t[3] = {tx, ty, tz};
  for (int k = 0; k < 3; ++k) {
    if (!coordinate_in_range(t[k])) {
      throw std::invalid_argument(
          beyond_range(std::string("translation t") + "xyz"[k] + " = ", t[k]));
    }
  }
}

}  // namespace kdop
