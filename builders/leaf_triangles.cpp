#include "builders/leaf_triangles.hpp"
#include "engine/parallel.hpp"
#include "geometry/populated_vector.hpp"

#include <algorithm>
#include <array>

namespace kdop {

LeafTriangles gather_leaf_triangles(const Mesh& mesh, const std::vector<std::uint32_t>& order) {
  LeafTriangles out;
  const std::size_t n = order.size();
  out.corners.assign(LeafTriangles::array_count, n, 0, 0.0);
  out.original = order;
  double* corner_arrays[LeafTriangles::array_count];
  for (int a = 0; a < LeafTriangles::array_count; ++a)
    corner_arrays[a] = out.corners.mutable_array(a);
  parallel_for_ranges(0, n, 16384, [&](std::size_t range_first, std::size_t range_last) {
    for (std::size_t s = range_first; s < range_last; ++s) {
      const std::uint32_t t = order[s];
      const std::uint32_t corner[3] = {mesh.a[t], mesh.b[t], mesh.c[t]};
      for (int c = 0; c < 3; ++c) {
        corner_arrays[c][s] = mesh.x[corner[c]];
        corner_arrays[3 + c][s] = mesh.y[corner[c]];
        corner_arrays[6 + c][s] = mesh.z[corner[c]];
      }
    }
  });
  return out;
}

std::vector<float> corner_floats(const LeafTriangles& t) {
  const std::size_t n = t.size();
  std::vector<float> out = populated_vector(n * kCornerFloatsPerSlot, 0.0f);
  parallel_for_ranges(0, n, 16384, [&](std::size_t range_first, std::size_t range_last) {
    for (std::size_t s = range_first; s < range_last; ++s) {
      float* slot = out.data() + s * kCornerFloatsPerSlot;
      for (int a = 0; a < LeafTriangles::array_count; ++a)
        slot[a] = static_cast<float>(t.corners[a][s]);
    }
  });
  return out;
}

void distinct_corners(const LeafTriangles& t, SlotRange range, std::vector<Vec3>& out) {
  out.clear();
  for (std::uint32_t s = range.first; s < range.first + range.count; ++s) {
    for (int c = 0; c < 3; ++c) out.push_back({t.x(c)[s], t.y(c)[s], t.z(c)[s]});
  }
  auto key = [](const Vec3& p) { return std::array<double, 3>{p.x, p.y, p.z}; };
  std::sort(out.begin(), out.end(), [&](const Vec3& a, const Vec3& b) { return key(a) < key(b); });
  out.erase(std::unique(out.begin(), out.end(),
                        [&](const Vec3& a, const Vec3& b) { return key(a) == key(b); }),
            out.end());
}

}  // namespace kdop
