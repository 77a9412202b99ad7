#include "builders/split_rule.hpp"
#include "engine/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "builders/dop_volume.hpp"
#include "builders/obb_fit.hpp"
#include "geometry/dop.hpp"
#include "geometry/populated_vector.hpp"

namespace kdop {
namespace {

double centroid_key(const Centroids& c, const Direction& d, std::uint32_t t) {
  return project(d, c.axis[0][t], c.axis[1][t], c.axis[2][t]);
}

// The coordinate axis d is (0, 1, 2), or -1 for a diagonal: axis keys read one array.
int axis_of(const Direction& d) {
  if (d.y == 0 && d.z == 0) return 0;
  if (d.x == 0 && d.z == 0) return 1;
  if (d.x == 0 && d.y == 0) return 2;
  return -1;
}

// A growing set of triangles: its k-DOP (corners projected in double, no widening: this only
// ranks candidate splits), the sum of its 3x centroids (their mean lies inside the k-DOP, the
// point dop_measure needs) and its size.
template <int K>
struct TriangleSet {
  static constexpr int S = DopShape<K>::slabs;
  std::array<double, S> lo, hi;
  Vec3 centroid3_sum{};
  std::uint32_t count = 0;

  TriangleSet() {
    lo.fill(std::numeric_limits<double>::infinity());
    hi.fill(-std::numeric_limits<double>::infinity());
  }

  void add(const Mesh& m, const Centroids& c, std::uint32_t t) {
    constexpr auto dirs = DopShape<K>::directions();
    for (const std::uint32_t v : {m.a[t], m.b[t], m.c[t]}) {
      for (int j = 0; j < S; ++j) {
        const double p = project(dirs[j], m.x[v], m.y[v], m.z[v]);
        lo[j] = std::min(lo[j], p);
        hi[j] = std::max(hi[j], p);
      }
    }
    centroid3_sum = centroid3_sum + Vec3{c.axis[0][t], c.axis[1][t], c.axis[2][t]};
    ++count;
  }

  void merge(const TriangleSet& o) {
    for (int j = 0; j < S; ++j) {
      lo[j] = std::min(lo[j], o.lo[j]);
      hi[j] = std::max(hi[j], o.hi[j]);
    }
    centroid3_sum = centroid3_sum + o.centroid3_sum;
    count += o.count;
  }

  // Sum of slab widths (hi - lo) / |n_j|: how much the set spreads, cheap.
  double width_sum() const { return width_sum_with(*this); }

  // The same for the union with o, without forming it.
  double width_sum_with(const TriangleSet& o) const {
    constexpr auto dirs = DopShape<K>::directions();
    double w = 0;
    for (int j = 0; j < S; ++j) {
      w += (std::max(hi[j], o.hi[j]) - std::min(lo[j], o.lo[j])) / norm(dirs[j]);
    }
    return w;
  }

  DopMeasure measure() const {
    return dop_measure<K>(lo.data(), hi.data(), (1.0 / (3.0 * count)) * centroid3_sum);
  }
};

// What a volume rule minimizes. Flat meshes give flat k-DOPs (volume and area 0) for every
// candidate, so ties are broken by the same combination of slab width sums.
struct Cost {
  double primary = std::numeric_limits<double>::infinity();
  double secondary = std::numeric_limits<double>::infinity();
  bool operator<(const Cost& o) const {
    return primary < o.primary || (primary == o.primary && secondary < o.secondary);
  }
};

template <int K>
Cost split_cost(SplitRule rule, const TriangleSet<K>& l, const TriangleSet<K>& r) {
  const DopMeasure ml = l.measure(), mr = r.measure();
  const double wl = l.width_sum(), wr = r.width_sum();
  switch (rule) {
    case SplitRule::min_max:
      return {std::max(ml.volume, mr.volume), std::max(wl, wr)};
    case SplitRule::surface_area:
      return {ml.area * l.count + mr.area * r.count, wl * l.count + wr * r.count};
    default:
      return {ml.volume + mr.volume, wl + wr};
  }
}

// A candidate split: along direction `dir`, either a threshold on the centroid key (mean), the
// first half in (key, index) order (median), or the bins below `bin` of `bins` evenly spaced
// ones over [key_lo, key_hi] (binned).
struct Candidate {
  int dir = -1;
  SplitPoint point = SplitPoint::mean;
  double threshold = 0;
  std::uint32_t bin = 0, bins = 0;
  double key_lo = 0, key_hi = 0;
};

std::uint32_t bin_of(double key, const Candidate& c) {
  const double scaled = (key - c.key_lo) * (c.bins / (c.key_hi - c.key_lo));
  return std::min<std::uint32_t>(c.bins - 1, static_cast<std::uint32_t>(std::max(0.0, scaled)));
}

// Nodes of at least this many triangles are partitioned in parallel (the top levels).
constexpr std::uint32_t kParallelPartition = 16384;

// std::stable_partition's result, computed in parallel for a large node: fixed chunks (the same
// for any thread count) count their left elements, a prefix sum places each chunk, and each
// chunk scatters its elements in order into a buffer that is copied back.
template <class Pred>
std::uint32_t stable_partition_parallel(std::uint32_t* tris, std::uint32_t count, Pred left_of) {
  if (count < kParallelPartition) {
    return static_cast<std::uint32_t>(std::stable_partition(tris, tris + count, left_of) - tris);
  }
  constexpr std::uint32_t chunk = 4096;
  const std::uint32_t chunks = (count + chunk - 1) / chunk;
  std::vector<std::uint8_t> is_left(count);
  std::vector<std::uint32_t> left_in(chunks + 1, 0);
  parallel_for_indices(chunks, [&](std::size_t chunk_index) {
    const auto c = static_cast<std::uint32_t>(chunk_index);
    std::uint32_t n = 0;
    for (std::uint32_t i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i) {
      is_left[i] = left_of(tris[i]);
      n += is_left[i];
    }
    left_in[c + 1] = n;
  });
  for (std::uint32_t c = 0; c < chunks; ++c) left_in[c + 1] += left_in[c];
  const std::uint32_t lefts = left_in[chunks];
  std::vector<std::uint32_t> out(count);
  parallel_for_indices(chunks, [&](std::size_t chunk_index) {
    const auto c = static_cast<std::uint32_t>(chunk_index);
    const std::uint32_t first = c * chunk;
    std::uint32_t l = left_in[c], r = lefts + (first - left_in[c]);
    for (std::uint32_t i = first; i < std::min(count, first + chunk); ++i) {
      out[is_left[i] ? l++ : r++] = tris[i];
    }
  });
  std::copy(out.begin(), out.end(), tris);
  return lefts;
}

// Partitions tris by the candidate; returns the left count.
std::uint32_t apply(const Candidate& c, const Direction& d, const Centroids& cen,
                    std::uint32_t* tris, std::uint32_t count) {
  if (c.point == SplitPoint::median) {
    const std::uint32_t half = count / 2;
    std::nth_element(tris, tris + half, tris + count, [&](std::uint32_t s, std::uint32_t t) {
      const double ks = centroid_key(cen, d, s), kt = centroid_key(cen, d, t);
      return ks < kt || (ks == kt && s < t);
    });
    return half;
  }
  const int axis = axis_of(d);
  if (c.point == SplitPoint::mean && axis >= 0 && d.x + d.y + d.z > 0) {
    const std::vector<double>& key = cen.axis[axis];
    return stable_partition_parallel(tris, count,
                                     [&](std::uint32_t t) { return key[t] < c.threshold; });
  }
  return stable_partition_parallel(tris, count, [&](std::uint32_t t) {
    const double k = centroid_key(cen, d, t);
    return c.point == SplitPoint::mean ? k < c.threshold : bin_of(k, c) < c.bin;
  });
}

// The best candidate along one direction (dir < 0 in the result when there is none).
struct DirectionBest {
  Cost cost;
  Candidate candidate;
};

template <int K>
DirectionBest best_along(const Mesh& m, const Centroids& cen, const BuildConfig& config,
                         const std::uint32_t* tris, std::uint32_t count, int dir) {
  constexpr auto dirs = DopShape<K>::directions();
  const Direction& d = dirs[dir];
  DirectionBest best;
  Candidate c;
  c.dir = dir;
  c.point = config.split_point;
  if (c.point == SplitPoint::mean) {
    double sum = 0;
    for (std::uint32_t i = 0; i < count; ++i) sum += centroid_key(cen, d, tris[i]);
    c.threshold = sum / count;
    TriangleSet<K> l, r;
    for (std::uint32_t i = 0; i < count; ++i) {
      (centroid_key(cen, d, tris[i]) < c.threshold ? l : r).add(m, cen, tris[i]);
    }
    if (l.count > 0 && r.count > 0) best = {split_cost<K>(config.rule, l, r), c};
  } else if (c.point == SplitPoint::median) {
    std::vector<std::uint32_t> sorted(tris, tris + count);
    const std::uint32_t half = apply(c, d, cen, sorted.data(), count);
    TriangleSet<K> l, r;
    for (std::uint32_t i = 0; i < count; ++i) (i < half ? l : r).add(m, cen, sorted[i]);
    best = {split_cost<K>(config.rule, l, r), c};
  } else {
    c.key_lo = std::numeric_limits<double>::infinity();
    c.key_hi = -c.key_lo;
    for (std::uint32_t i = 0; i < count; ++i) {
      const double k = centroid_key(cen, d, tris[i]);
      c.key_lo = std::min(c.key_lo, k);
      c.key_hi = std::max(c.key_hi, k);
    }
    if (!(c.key_hi > c.key_lo)) return best;
    c.bins = std::max<std::uint32_t>(2, std::min(config.candidates, count));
    std::vector<TriangleSet<K>> bin(c.bins);
    for (std::uint32_t i = 0; i < count; ++i) {
      bin[bin_of(centroid_key(cen, d, tris[i]), c)].add(m, cen, tris[i]);
    }
    // Suffix unions, then a sweep from the left.
    std::vector<TriangleSet<K>> right(c.bins + 1);
    for (std::uint32_t b = c.bins; b-- > 0;) {
      right[b] = right[b + 1];
      right[b].merge(bin[b]);
    }
    TriangleSet<K> left;
    for (std::uint32_t b = 1; b < c.bins; ++b) {
      left.merge(bin[b - 1]);
      if (left.count == 0 || right[b].count == 0) continue;
      const Cost cost = split_cost<K>(config.rule, left, right[b]);
      if (cost < best.cost) {
        best = {cost, c};
        best.candidate.bin = b;
      }
    }
  }
  return best;
}

// Nodes of at least this many triangles evaluate their directions as parallel tasks (the top
// levels, where subtree tasks do not yet fill the cores).
constexpr std::uint32_t kParallelDirections = 16384;

// min-sum, min-max, surface-area: the best candidate over the directions tried. Each direction
// is evaluated whole by one task and the least cost wins, ties to the lower direction, so the
// choice does not depend on the thread count.
template <int K>
std::uint32_t split_by_cost(const Mesh& m, const Centroids& cen, const BuildConfig& config,
                            std::uint32_t* tris, std::uint32_t count) {
  const int directions = config.all_directions ? DopShape<K>::slabs : 3;
  std::array<DirectionBest, DopShape<K>::slabs> per_direction;
  auto evaluate = [&](int dir) {
    per_direction[dir] = best_along<K>(m, cen, config, tris, count, dir);
  };
  if (count >= kParallelDirections) {
    parallel_for_indices(static_cast<std::size_t>(directions),
                         [&](std::size_t dir) { evaluate(static_cast<int>(dir)); });
  } else {
    for (int dir = 0; dir < directions; ++dir) evaluate(dir);
  }
  DirectionBest best;
  for (int dir = 0; dir < directions; ++dir) {
    if (per_direction[dir].candidate.dir >= 0 && per_direction[dir].cost < best.cost) {
      best = per_direction[dir];
    }
  }
  if (best.candidate.dir < 0) return 0;  // every centroid coincides along every direction
  constexpr auto dirs = DopShape<K>::directions();
  return apply(best.candidate, dirs[best.candidate.dir], cen, tris, count);
}

// Zachmann 1998, section 4.2.
template <int K>
std::uint32_t split_zachmann(const Mesh& m, const Centroids& cen, std::uint32_t* tris,
                             std::uint32_t count) {
  constexpr auto dirs = DopShape<K>::directions();
  auto centroid = [&](std::uint32_t t) {
    return Vec3{cen.axis[0][t], cen.axis[1][t], cen.axis[2][t]};
  };
  // A near-farthest pair in O(n): the farthest from the first, then the farthest from that.
  auto farthest_from = [&](const Vec3& p) {
    std::uint32_t best = 0;
    double best_d = -1;
    for (std::uint32_t i = 0; i < count; ++i) {
      const Vec3 q = centroid(tris[i]) - p;
      if (dot(q, q) > best_d) best_d = dot(q, q), best = i;
    }
    return best;
  };
  const std::uint32_t i = farthest_from(centroid(tris[0]));
  const std::uint32_t j = farthest_from(centroid(tris[i]));
  const Vec3 u = centroid(tris[j]) - centroid(tris[i]);
  if (dot(u, u) == 0) return 0;
  // The orientation most parallel to the pair.
  int dir = 0;
  double best_cos = -1;
  for (int k = 0; k < DopShape<K>::slabs; ++k) {
    const Direction& d = dirs[k];
    const double c = std::fabs(project(d, u.x, u.y, u.z)) / norm(d);
    if (c > best_cos) best_cos = c, dir = k;
  }
  const std::uint32_t seed_l = tris[i], seed_r = tris[j];
  std::vector<std::uint32_t> rest;
  rest.reserve(count - 2);
  for (std::uint32_t k = 0; k < count; ++k) {
    if (k != i && k != j) rest.push_back(tris[k]);
  }
  std::sort(rest.begin(), rest.end(), [&](std::uint32_t s, std::uint32_t t) {
    const double ks = centroid_key(cen, dirs[dir], s), kt = centroid_key(cen, dirs[dir], t);
    return ks < kt || (ks == kt && s < t);
  });
  // The sorted triangles are taken alternately from both ends, so each set grows from its seed
  // inwards. (Taken from one end, the first set grows in small steps along the sweep and
  // swallows nearly everything: splits of n - 1 and 1, trees thousands of levels deep.)
  const bool seed_l_low =
      centroid_key(cen, dirs[dir], seed_l) <= centroid_key(cen, dirs[dir], seed_r);
  TriangleSet<K> l, r;
  l.add(m, cen, seed_l);
  r.add(m, cen, seed_r);
  double width_l = l.width_sum(), width_r = r.width_sum();
  std::vector<std::uint32_t> left{seed_l}, right{seed_r};
  std::size_t lo = 0, hi = rest.size();
  for (std::size_t step = 0; lo < hi; ++step) {
    const bool from_low = step % 2 == 0;
    const std::uint32_t t = from_low ? rest[lo++] : rest[--hi];
    TriangleSet<K> one;
    one.add(m, cen, t);
    const double grown_l = l.width_sum_with(one), grown_r = r.width_sum_with(one);
    const double grow_l = grown_l - width_l, grow_r = grown_r - width_r;
    bool to_left = grow_l < grow_r;
    if (grow_l == grow_r) {
      // Equal growth: the set with fewer triangles; equal counts: the seed on t's side.
      to_left = l.count != r.count ? l.count < r.count : from_low == seed_l_low;
    }
    (to_left ? l : r).merge(one);
    (to_left ? width_l : width_r) = to_left ? grown_l : grown_r;
    (to_left ? left : right).push_back(t);
  }
  std::copy(left.begin(), left.end(), tris);
  std::copy(right.begin(), right.end(), tris + left.size());
  return static_cast<std::uint32_t>(left.size());
}

// The paper's cheap rules: a coordinate axis by a statistic, then the mean or median plane.
int longest_side_axis(const Mesh& m, const std::uint32_t* tris, std::uint32_t count) {
  const std::vector<double>* coords[3] = {&m.x, &m.y, &m.z};
  int best = 0;
  double best_extent = -1;
  for (int axis = 0; axis < 3; ++axis) {
    const std::vector<double>& v = *coords[axis];
    double lo = INFINITY, hi = -INFINITY;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t t = tris[i];
      lo = std::min({lo, v[m.a[t]], v[m.b[t]], v[m.c[t]]});
      hi = std::max({hi, v[m.a[t]], v[m.b[t]], v[m.c[t]]});
    }
    if (hi - lo > best_extent) best_extent = hi - lo, best = axis;
  }
  return best;
}

double mean_of(const std::vector<double>& c, const std::uint32_t* tris, std::uint32_t count) {
  double sum = 0;
  for (std::uint32_t i = 0; i < count; ++i) sum += c[tris[i]];
  return sum / count;
}

// Splatter: the axis of largest centroid variance, in one pass over all three axes. Sums are
// taken about the first centroid (a shift that keeps sum(d^2) - sum(d)^2 / n accurate when the
// node is far from the origin).
int splatter_axis(const Centroids& c, const std::uint32_t* tris, std::uint32_t count) {
  const double shift[3] = {c.axis[0][tris[0]], c.axis[1][tris[0]], c.axis[2][tris[0]]};
  double sum[3] = {0, 0, 0}, sum_sq[3] = {0, 0, 0};
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t t = tris[i];
    for (int a = 0; a < 3; ++a) {
      const double d = c.axis[a][t] - shift[a];
      sum[a] += d;
      sum_sq[a] += d * d;
    }
  }
  int best = 0;
  double best_variance = -1;
  for (int a = 0; a < 3; ++a) {
    const double spread = sum_sq[a] - sum[a] * sum[a] / count;
    if (spread > best_variance) best_variance = spread, best = a;
  }
  return best;
}

constexpr Direction kAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

// Gottschalk et al. 1996, section 4: the node's OBB, cut by the plane orthogonal to its longest
// axis through the mean (or median) of the centroids; when every centroid falls on one side, the
// next longest axis. 0 when none of the three splits. Only the axes matter here, so the box is
// fitted to the covariance of the node's own triangles, as RAPID's builder does, without a hull
// per node (the tree's boxes are fitted to hulls: builders/oriented_tree.cpp). For the demo's
// 120,000 triangles that took the split from 1.9 s to 0.07 s (the boxes: 0.7 s).
std::uint32_t split_obb_axis(const Mesh& m, const Centroids& cen, const BuildConfig& config,
                             std::uint32_t* tris, std::uint32_t count) {
  std::vector<Vec3> corners;
  corners.reserve(3 * std::size_t{count});
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t t = tris[i];
    for (const std::uint32_t v : {m.a[t], m.b[t], m.c[t]})
      corners.push_back({m.x[v], m.y[v], m.z[v]});
  }
  std::vector<std::array<Vec3, 3>> surface;
  surface.reserve(count);
  for (std::size_t i = 0; i < corners.size(); i += 3) {
    surface.push_back({corners[i], corners[i + 1], corners[i + 2]});
  }
  const Obb box = fit_obb(corners, surface);
  std::array<int, 3> by_length{0, 1, 2};
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](int a, int b) { return box.half[a] > box.half[b]; });
  std::vector<double> key(count);
  std::vector<std::uint32_t> position(count);
  for (const int a : by_length) {
    const Vec3& u = box.axis[a];
    double sum = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t t = tris[i];
      key[i] = u.x * cen.axis[0][t] + u.y * cen.axis[1][t] + u.z * cen.axis[2][t];
      sum += key[i];
      position[i] = i;
    }
    std::uint32_t left = 0;
    if (config.split_point == SplitPoint::median) {
      left = count / 2;
      std::nth_element(position.begin(), position.begin() + left, position.end(),
                       [&](std::uint32_t p, std::uint32_t q) {
                         return key[p] < key[q] || (key[p] == key[q] && tris[p] < tris[q]);
                       });
    } else {
      const double mean = sum / count;
      left = static_cast<std::uint32_t>(
          std::stable_partition(position.begin(), position.end(),
                                [&](std::uint32_t p) { return key[p] < mean; }) -
          position.begin());
    }
    if (left == 0 || left == count) continue;
    std::vector<std::uint32_t> reordered(count);
    for (std::uint32_t i = 0; i < count; ++i) reordered[i] = tris[position[i]];
    std::copy(reordered.begin(), reordered.end(), tris);
    return left;
  }
  return 0;
}

}  // namespace

Centroids centroids_of(const Mesh& m) {
  Centroids c;
  const std::size_t n = m.triangle_count();
  for (auto& v : c.axis) v = populated_vector(n, 0.0);
  for (std::size_t t = 0; t < n; ++t) {
    c.axis[0][t] = m.x[m.a[t]] + m.x[m.b[t]] + m.x[m.c[t]];
    c.axis[1][t] = m.y[m.a[t]] + m.y[m.b[t]] + m.y[m.c[t]];
    c.axis[2][t] = m.z[m.a[t]] + m.z[m.b[t]] + m.z[m.c[t]];
  }
  return c;
}

template <int K>
std::uint32_t split_node(const Mesh& mesh, const Centroids& centroids, const BuildConfig& config,
                         std::uint32_t* tris, std::uint32_t count) {
  std::uint32_t left = 0;
  if (config.rule == SplitRule::splatter || config.rule == SplitRule::longest_side) {
    const int axis = config.rule == SplitRule::splatter ? splatter_axis(centroids, tris, count)
                                                        : longest_side_axis(mesh, tris, count);
    Candidate c;
    c.point = config.split_point == SplitPoint::median ? SplitPoint::median : SplitPoint::mean;
    if (c.point == SplitPoint::mean) c.threshold = mean_of(centroids.axis[axis], tris, count);
    left = apply(c, kAxes[axis], centroids, tris, count);
    if (left == 0 || left == count) {
      c.point = SplitPoint::median;  // coincident centroids along the axis
      left = apply(c, kAxes[axis], centroids, tris, count);
    }
    return left;
  }
  if (count == 2) {
    return 1;  // the only split there is
  } else if (config.rule == SplitRule::zachmann) {
    left = split_zachmann<K>(mesh, centroids, tris, count);
  } else if (config.rule == SplitRule::obb_axis) {
    left = split_obb_axis(mesh, centroids, config, tris, count);
  } else {
    left = split_by_cost<K>(mesh, centroids, config, tris, count);
  }
  // Coincident centroids leave one side empty: split at the median of the widest axis instead,
  // so every inner node has two non-empty children (ties by index).
  if (left == 0 || left == count) {
    Candidate median;
    median.point = SplitPoint::median;
    left = apply(median, kAxes[splatter_axis(centroids, tris, count)], centroids, tris, count);
  }
  return left;
}

template std::uint32_t split_node<6>(const Mesh&, const Centroids&, const BuildConfig&,
                                     std::uint32_t*, std::uint32_t);
template std::uint32_t split_node<8>(const Mesh&, const Centroids&, const BuildConfig&,
                                     std::uint32_t*, std::uint32_t);
template std::uint32_t split_node<14>(const Mesh&, const Centroids&, const BuildConfig&,
                                      std::uint32_t*, std::uint32_t);
template std::uint32_t split_node<18>(const Mesh&, const Centroids&, const BuildConfig&,
                                      std::uint32_t*, std::uint32_t);
template std::uint32_t split_node<26>(const Mesh&, const Centroids&, const BuildConfig&,
                                      std::uint32_t*, std::uint32_t);
template std::uint32_t split_node<32>(const Mesh&, const Centroids&, const BuildConfig&,
                                      std::uint32_t*, std::uint32_t);

}  // namespace kdop
