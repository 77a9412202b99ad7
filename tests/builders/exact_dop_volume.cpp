#include "tests/builders/exact_dop_volume.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <vector>

#include "geometry/dop.hpp"

namespace kdop::test {
namespace {

struct RationalPoint {
  mpq_class x, y, z;
};

// Explicit return types: gmpxx's expression templates must not outlive their operands.
RationalPoint cross(const RationalPoint& a, const RationalPoint& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
mpq_class dot(const RationalPoint& a, const RationalPoint& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
RationalPoint minus(const RationalPoint& a, const RationalPoint& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
RationalPoint mean(const std::vector<RationalPoint>& points) {
  RationalPoint m{0, 0, 0};
  for (const RationalPoint& p : points) m = {m.x + p.x, m.y + p.y, m.z + p.z};
  const mpq_class n(static_cast<long>(points.size()));
  return {m.x / n, m.y / n, m.z / n};
}

// Halfspace normal . x <= offset.
struct Halfspace {
  RationalPoint normal;
  mpq_class offset;
};

}  // namespace

template <int K>
double exact_dop_volume(const double* lo, const double* hi) {
  constexpr auto dirs = DopShape<K>::directions();
  std::vector<Halfspace> planes;
  for (int j = 0; j < DopShape<K>::slabs; ++j) {
    const RationalPoint n{dirs[j].x, dirs[j].y, dirs[j].z};
    planes.push_back({n, mpq_class(hi[j])});
    planes.push_back({{-n.x, -n.y, -n.z}, -mpq_class(lo[j])});
  }
  const auto inside = [&](const RationalPoint& p) {
    for (const Halfspace& h : planes) {
      if (dot(h.normal, p) > h.offset) return false;
    }
    return true;
  };
  std::vector<RationalPoint> vertices;
  const std::size_t n = planes.size();
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      for (std::size_t c = b + 1; c < n; ++c) {
        // Cramer's rule on the rows normal_a, normal_b, normal_c.
        const RationalPoint bc = cross(planes[b].normal, planes[c].normal);
        const mpq_class det = dot(planes[a].normal, bc);
        if (det == 0) continue;
        const RationalPoint ca = cross(planes[c].normal, planes[a].normal);
        const RationalPoint ab = cross(planes[a].normal, planes[b].normal);
        const RationalPoint p{
            (planes[a].offset * bc.x + planes[b].offset * ca.x + planes[c].offset * ab.x) / det,
            (planes[a].offset * bc.y + planes[b].offset * ca.y + planes[c].offset * ab.y) / det,
            (planes[a].offset * bc.z + planes[b].offset * ca.z + planes[c].offset * ab.z) / det};
        if (!inside(p)) continue;
        const bool seen = std::any_of(vertices.begin(), vertices.end(), [&](const auto& v) {
          return v.x == p.x && v.y == p.y && v.z == p.z;
        });
        if (!seen) vertices.push_back(p);
      }
    }
  }
  if (vertices.size() < 4) return 0;
  const RationalPoint center = mean(vertices);
  mpq_class volume = 0;
  for (const Halfspace& h : planes) {
    std::vector<RationalPoint> face;
    for (const RationalPoint& v : vertices) {
      if (dot(h.normal, v) == h.offset) face.push_back(v);
    }
    if (face.size() < 3) continue;
    const RationalPoint f = mean(face);
    const RationalPoint r = minus(face[0], f);
    // Angle order around the face's normal: the half-plane left of r first, then by turn.
    const auto half = [&](const RationalPoint& v) {
      const RationalPoint d = minus(v, f);
      const mpq_class s = dot(h.normal, cross(r, d));
      if (s != 0) return s > 0 ? 0 : 1;
      return dot(r, d) > 0 ? 0 : 1;
    };
    std::sort(face.begin(), face.end(), [&](const RationalPoint& a, const RationalPoint& b) {
      const int ha = half(a), hb = half(b);
      if (ha != hb) return ha < hb;
      return dot(h.normal, cross(minus(a, f), minus(b, f))) > 0;
    });
    for (std::size_t i = 0; i < face.size(); ++i) {
      const RationalPoint& a = face[i];
      const RationalPoint& b = face[(i + 1) % face.size()];
      mpq_class six = dot(minus(f, center), cross(minus(a, center), minus(b, center)));
      volume += abs(six) / 6;
    }
  }
  return volume.get_d();
}

template double exact_dop_volume<6>(const double*, const double*);
template double exact_dop_volume<8>(const double*, const double*);
template double exact_dop_volume<14>(const double*, const double*);
template double exact_dop_volume<18>(const double*, const double*);
template double exact_dop_volume<26>(const double*, const double*);
template double exact_dop_volume<32>(const double*, const double*);

}  // namespace kdop::test
