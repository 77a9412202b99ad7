#include "builders/leaf_floats.hpp"

#include <algorithm>

#include "geometry/dop.hpp"

namespace kdop {

LeafFloats leaf_floats(const LeafTriangles& t) {
  LeafFloats f;
  const std::size_t n = std::size_t{t.size()} + LeafFloats::padding;
  for (int c = 0; c < 3; ++c) {
    for (auto* v : {&f.lo[c], &f.hi[c], &f.x[c], &f.y[c], &f.z[c]}) v->assign(n, 0.0f);
  }
  for (std::uint32_t s = 0; s < t.size(); ++s) {
    const std::array<const std::array<std::vector<double>, 3>*, 3> axes = {&t.x, &t.y, &t.z};
    for (int a = 0; a < 3; ++a) {
      const auto& coord = *axes[a];
      f.lo[a][s] = float_below(std::min({coord[0][s], coord[1][s], coord[2][s]}));
      f.hi[a][s] = float_above(std::max({coord[0][s], coord[1][s], coord[2][s]}));
    }
    for (int c = 0; c < 3; ++c) {
      f.x[c][s] = static_cast<float>(t.x[c][s]);
      f.y[c][s] = static_cast<float>(t.y[c][s]);
      f.z[c][s] = static_cast<float>(t.z[c][s]);
    }
  }
  return f;
}

}  // namespace kdop
