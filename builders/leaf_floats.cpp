#include "builders/leaf_floats.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/dop.hpp"

namespace kdop {

LeafFloats leaf_floats(const LeafTriangles& t) {
  LeafFloats f;
  f.arrays.assign(LeafFloats::array_count, t.size(), LeafFloats::padding, 0.0f);
  for (std::uint32_t s = 0; s < t.size(); ++s) {
    for (int a = 0; a < 3; ++a) {
      const double* coord[3] = {t.corners[3 * a], t.corners[3 * a + 1], t.corners[3 * a + 2]};
      f.lo(a)[s] = float_below(std::min({coord[0][s], coord[1][s], coord[2][s]}));
      f.hi(a)[s] = float_above(std::max({coord[0][s], coord[1][s], coord[2][s]}));
    }
    for (int c = 0; c < 3; ++c) {
      f.x(c)[s] = static_cast<float>(t.x(c)[s]);
      f.y(c)[s] = static_cast<float>(t.y(c)[s]);
      f.z(c)[s] = static_cast<float>(t.z(c)[s]);
    }
    // Any direction gives a valid slab; the (rounded) normal gives a thin one. n_f . p in
    // double: three products and two sums, each off by at most 2^-53 of a value <= sum
    // |n_i p_i|, widened by twice that.
    const Triangle tri = t.triangle(s);
    const Vec3 c = cross(tri.p1 - tri.p0, tri.p2 - tri.p0);
    const double len = norm(c);
    const bool flat = !(len > 0) || !std::isfinite(len);
    const float n[3] = {flat ? 0.0f : static_cast<float>(c.x / len),
                        flat ? 0.0f : static_cast<float>(c.y / len),
                        flat ? 0.0f : static_cast<float>(c.z / len)};
    double lo = INFINITY, hi = -INFINITY;
    for (const Vec3& q : {tri.p0, tri.p1, tri.p2}) {
      const double d = (double{n[0]} * q.x + double{n[1]} * q.y) + double{n[2]} * q.z;
      const double err =
          0x1p-51 * (std::fabs(n[0] * q.x) + std::fabs(n[1] * q.y) + std::fabs(n[2] * q.z));
      lo = std::min(lo, d - err);
      hi = std::max(hi, d + err);
    }
    for (int a = 0; a < 3; ++a) f.n(a)[s] = n[a];
    f.d_lo()[s] = float_below(lo);
    f.d_hi()[s] = float_above(hi);
  }
  return f;
}

}  // namespace kdop
