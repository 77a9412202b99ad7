#include "builders/triangle_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/dop.hpp"

namespace kdop {

TriangleBounds triangle_bounds(const LeafTriangles& t) {
  TriangleBounds out;
  out.data.resize(std::size_t{t.size()} * TriangleBounds::stride, 0.0f);
  for (std::uint32_t s = 0; s < t.size(); ++s) {
    float* b = out.data.data() + std::size_t{s} * TriangleBounds::stride;
    const Triangle tri = t.triangle(s);
    const Vec3 p[3] = {tri.p0, tri.p1, tri.p2};
    b[0] = float_below(std::min({p[0].x, p[1].x, p[2].x}));
    b[1] = float_below(std::min({p[0].y, p[1].y, p[2].y}));
    b[2] = float_below(std::min({p[0].z, p[1].z, p[2].z}));
    b[3] = float_above(std::max({p[0].x, p[1].x, p[2].x}));
    b[4] = float_above(std::max({p[0].y, p[1].y, p[2].y}));
    b[5] = float_above(std::max({p[0].z, p[1].z, p[2].z}));
    // Any direction gives a valid slab; the (rounded) normal gives a thin one.
    const Vec3 c = cross(p[1] - p[0], p[2] - p[0]);
    const double len = norm(c);
    const Vec3 n = len > 0 && std::isfinite(len) ? (1.0 / len) * c : Vec3{0, 0, 0};
    b[6] = static_cast<float>(n.x);
    b[7] = static_cast<float>(n.y);
    b[8] = static_cast<float>(n.z);
    // n_f . p in double: three products and two sums, each off by at most 2^-53 of a value
    // <= sum |n_i p_i|; widened by twice that.
    double lo = INFINITY, hi = -INFINITY;
    for (const Vec3& q : p) {
      const double d = (double{b[6]} * q.x + double{b[7]} * q.y) + double{b[8]} * q.z;
      const double err =
          0x1p-51 * (std::fabs(b[6] * q.x) + std::fabs(b[7] * q.y) + std::fabs(b[8] * q.z));
      lo = std::min(lo, d - err);
      hi = std::max(hi, d + err);
    }
    b[9] = float_below(lo);
    b[10] = float_above(hi);
  }
  return out;
}

}  // namespace kdop
