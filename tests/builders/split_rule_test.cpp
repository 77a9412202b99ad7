#include "builders/split_rule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "geometry/convex_hull.hpp"
#include "geometry/dop_vertices.hpp"
#include "geometry/shapes.hpp"
#include "tests/support/dop_of_points.hpp"

namespace kdop {
namespace {

// Oracle: the exact k-DOP of a set of triangles measured by qhull on its enumerated vertices
// (independent of builders/dop_volume.cpp); zero for a flat one.
template <int K>
HullMeasure oracle_measure(const Mesh& m, const std::vector<std::uint32_t>& tris) {
  std::vector<Vec3> corners;
  for (std::uint32_t t : tris) {
    for (std::uint32_t v : {m.a[t], m.b[t], m.c[t]}) corners.push_back({m.x[v], m.y[v], m.z[v]});
  }
  double lo[DopShape<K>::slabs], hi[DopShape<K>::slabs];
  test::dop_of_points<K>(corners, lo, hi);
  return convex_hull_measure(dop_vertices<K>(lo, hi).points).value_or(HullMeasure{});
}

template <int K>
double oracle_cost(SplitRule rule, const Mesh& m, const std::vector<std::uint32_t>& l,
                   const std::vector<std::uint32_t>& r) {
  const HullMeasure a = oracle_measure<K>(m, l), b = oracle_measure<K>(m, r);
  if (rule == SplitRule::min_max) return std::max(a.volume, b.volume);
  if (rule == SplitRule::surface_area) return a.area * l.size() + b.area * r.size();
  return a.volume + b.volume;
}

// The candidates a volume rule must choose among, enumerated here independently: per direction,
// the plane at the mean centroid, or the boundaries between `bins` equal bins of centroids.
template <int K>
std::vector<std::vector<std::uint32_t>> candidate_left_sets(const Mesh& m, const BuildConfig& c) {
  constexpr auto dirs = DopShape<K>::directions();
  const int directions = c.all_directions ? DopShape<K>::slabs : 3;
  const std::uint32_t n = static_cast<std::uint32_t>(m.triangle_count());
  std::vector<std::vector<std::uint32_t>> sets;
  for (int d = 0; d < directions; ++d) {
    std::vector<double> key(n);
    for (std::uint32_t t = 0; t < n; ++t) {
      key[t] =
          project(dirs[d], m.x[m.a[t]] + m.x[m.b[t]] + m.x[m.c[t]],
                  m.y[m.a[t]] + m.y[m.b[t]] + m.y[m.c[t]], m.z[m.a[t]] + m.z[m.b[t]] + m.z[m.c[t]]);
    }
    const auto [lo, hi] = std::minmax_element(key.begin(), key.end());
    std::vector<double> planes;
    if (c.split_point == SplitPoint::mean) {
      double sum = 0;
      for (double k : key) sum += k;
      planes.push_back(sum / n);
    } else {
      for (std::uint32_t b = 1; b < c.candidates; ++b) {
        planes.push_back(*lo + (*hi - *lo) * b / c.candidates);
      }
    }
    for (double plane : planes) {
      std::vector<std::uint32_t> left;
      for (std::uint32_t t = 0; t < n; ++t) {
        if (key[t] < plane) left.push_back(t);
      }
      if (!left.empty() && left.size() < n) sets.push_back(left);
    }
  }
  return sets;
}

std::vector<std::uint32_t> complement(const std::vector<std::uint32_t>& s, std::uint32_t n) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t t = 0; t < n; ++t) {
    if (!std::binary_search(s.begin(), s.end(), t)) out.push_back(t);
  }
  return out;
}

TEST(SplitRule, VolumeRulesChooseTheCheapestCandidateByQhull) {
  std::uint64_t rng = 11;
  int checked = 0;
  for (int trial = 0; trial < 6; ++trial) {
    Mesh m;
    for (int i = 0; i < 24; ++i) {
      const Vec3 c{4 * next_uniform(rng), 2 * next_uniform(rng), next_uniform(rng)};
      const std::uint32_t a = m.add_vertex(c.x, c.y, c.z);
      for (int k = 0; k < 2; ++k) {
        m.add_vertex(c.x + 0.5 * next_uniform(rng), c.y + 0.5 * next_uniform(rng),
                     c.z + 0.5 * next_uniform(rng));
      }
      m.add_triangle(a, a + 1, a + 2);
    }
    const Centroids cen = centroids_of(m);
    const auto n = static_cast<std::uint32_t>(m.triangle_count());
    for (SplitRule rule : {SplitRule::min_sum, SplitRule::min_max, SplitRule::surface_area}) {
      for (SplitPoint point : {SplitPoint::mean, SplitPoint::binned}) {
        for (bool all : {false, true}) {
          SCOPED_TRACE(std::string(to_string(rule)) + " " + to_string(point) + " all " +
                       std::to_string(all) + " trial " + std::to_string(trial));
          BuildConfig c{rule, point, 1};
          c.all_directions = all;
          std::vector<std::uint32_t> tris(n);
          for (std::uint32_t t = 0; t < n; ++t) tris[t] = t;
          const std::uint32_t left = split_node<14>(m, cen, c, tris.data(), n);
          std::vector<std::uint32_t> l(tris.begin(), tris.begin() + left);
          std::sort(l.begin(), l.end());
          const double chosen = oracle_cost<14>(rule, m, l, complement(l, n));
          double best = std::numeric_limits<double>::infinity();
          bool is_candidate = false;
          for (const auto& cand : candidate_left_sets<14>(m, c)) {
            best = std::min(best, oracle_cost<14>(rule, m, cand, complement(cand, n)));
            is_candidate = is_candidate || cand == l;
          }
          EXPECT_TRUE(is_candidate);
          EXPECT_LE(chosen, best * (1 + 1e-9));
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 72);
}

}  // namespace
}  // namespace kdop
