#include "builders/node_plate.hpp"

#include <cmath>
#include <limits>

#include "engine/parallel.hpp"
#include "geometry/dop.hpp"

namespace kdop {
namespace {

constexpr std::uint32_t kPlateTriangles = 4096;

// Node n's plate into v (stride floats).
void fill_plate(const LeafTriangles& t, const std::vector<SlotRange>& ranges, std::uint32_t n,
                float* v) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  v[4] = -inf;
  v[5] = inf;
  const std::uint32_t first = ranges[n].first, count = ranges[n].count;
  // Each node scans its triangles twice (normal, then range), so a slot is read twice per node
  // above it: nodes of more than kPlateTriangles (whose plates are thick anyway on a curved
  // surface) get none, which keeps that to about 2 log2(kPlateTriangles / leaf size) per slot.
  if (count > kPlateTriangles) return;
  // The area-weighted mean normal: for a patch of a smooth surface, the thinnest direction.
  Vec3 sum{0, 0, 0};
  for (std::uint32_t i = first; i < first + count; ++i) {
    const Triangle tri = t.triangle(i);
    sum = sum + cross(tri.p1 - tri.p0, tri.p2 - tri.p0);
  }
  const double len = std::sqrt(dot(sum, sum));
  if (!(len > 0) || !std::isfinite(len)) return;
  // Any direction gives a valid plate; the float direction is taken as exact from here on.
  const float nx = static_cast<float>(sum.x / len), ny = static_cast<float>(sum.y / len),
              nz = static_cast<float>(sum.z / len);
  const double l1 = std::fabs(double{nx}) + std::fabs(double{ny}) + std::fabs(double{nz});
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, extent = 0;
  for (std::uint32_t i = first; i < first + count; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double px = t.x(c)[i], py = t.y(c)[i], pz = t.z(c)[i];
      const double d = (double{nx} * px + double{ny} * py) + double{nz} * pz;
      lo = d < lo ? d : lo;
      hi = d > hi ? d : hi;
      extent = std::fmax(extent, std::fmax(std::fabs(px), std::fmax(std::fabs(py), std::fabs(pz))));
    }
  }
  // Each projection is off by at most 5 roundings (3 products, 2 sums) of values up to
  // l1 * extent, less than 2^-50 of it.
  const double err = 0x1p-50 * l1 * extent;
  if (!std::isfinite(lo - err) || !std::isfinite(hi + err)) return;
  v[0] = nx;
  v[1] = ny;
  v[2] = nz;
  v[3] = float_above(l1);
  v[4] = float_below(lo - err);
  v[5] = float_above(hi + err);
}

}  // namespace

NodePlates node_plates(const TreeTopology& topology, const LeafTriangles& t) {
  const std::uint32_t nodes = topology.node_count();
  const std::vector<SlotRange> ranges = slot_ranges(topology);
  NodePlates s;
  s.values.assign(std::size_t{nodes} * NodePlates::stride, 0.0f);
  // Nodes are independent: in parallel, and the same result for any thread count.
  parallel_for_ranges(0, nodes, 64, [&](std::size_t first, std::size_t last) {
    for (std::size_t n = first; n < last; ++n) {
      fill_plate(t, ranges, static_cast<std::uint32_t>(n),
                 s.values.data() + n * NodePlates::stride);
    }
  });
  return s;
}

}  // namespace kdop
