#include "builders/topdown_builder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kdop {
namespace {

// Three times the centroid of every triangle, per axis (the factor 3 changes no decision).
struct Centroids {
  std::array<std::vector<double>, 3> axis;
};

void validate(const Mesh& mesh) {
  if (mesh.triangle_count() == 0) throw std::invalid_argument("mesh has no triangles");
  if (mesh.triangle_count() > 0xFFFFFFFEu)
    throw std::invalid_argument("mesh has too many triangles");
  const std::size_t nv = mesh.vertex_count();
  for (std::size_t i = 0; i < nv; ++i) {
    if (!std::isfinite(mesh.x[i]) || !std::isfinite(mesh.y[i]) || !std::isfinite(mesh.z[i])) {
      throw std::invalid_argument("vertex " + std::to_string(i) + " has a non-finite coordinate");
    }
  }
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    if (mesh.a[t] >= nv || mesh.b[t] >= nv || mesh.c[t] >= nv) {
      throw std::invalid_argument("triangle " + std::to_string(t) +
                                  " has a corner index out of range");
    }
  }
}

Centroids centroids_of(const Mesh& m) {
  Centroids c;
  const std::size_t n = m.triangle_count();
  for (auto& v : c.axis) v.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    c.axis[0][t] = m.x[m.a[t]] + m.x[m.b[t]] + m.x[m.c[t]];
    c.axis[1][t] = m.y[m.a[t]] + m.y[m.b[t]] + m.y[m.c[t]];
    c.axis[2][t] = m.z[m.a[t]] + m.z[m.b[t]] + m.z[m.c[t]];
  }
  return c;
}

// Longest side: the axis along which the node's bounding box (the axis slabs of its k-DOP) is
// longest.
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
    if (hi - lo > best_extent) {
      best_extent = hi - lo;
      best = axis;
    }
  }
  return best;
}

double mean_of(const std::vector<double>& c, const std::uint32_t* tris, std::uint32_t count) {
  double sum = 0;
  for (std::uint32_t i = 0; i < count; ++i) sum += c[tris[i]];
  return sum / count;
}

// Splatter: the axis of largest centroid variance (two passes, for accuracy).
int splatter_axis(const Centroids& c, const std::uint32_t* tris, std::uint32_t count) {
  int best = 0;
  double best_variance = -1;
  for (int axis = 0; axis < 3; ++axis) {
    const std::vector<double>& v = c.axis[axis];
    const double mean = mean_of(v, tris, count);
    double sum_sq = 0;
    for (std::uint32_t i = 0; i < count; ++i) sum_sq += (v[tris[i]] - mean) * (v[tris[i]] - mean);
    if (sum_sq > best_variance) {
      best_variance = sum_sq;
      best = axis;
    }
  }
  return best;
}

// Partitions tris[0, count) so the first count/2 have the smallest centroids (ties by index, so
// the split is the same on every platform); returns count/2.
std::uint32_t split_at_median(const std::vector<double>& c, std::uint32_t* tris,
                              std::uint32_t count) {
  const std::uint32_t half = count / 2;
  std::nth_element(tris, tris + half, tris + count, [&](std::uint32_t s, std::uint32_t t) {
    return c[s] < c[t] || (c[s] == c[t] && s < t);
  });
  return half;
}

// Partitions around the mean centroid; returns the size of the left side (possibly 0 or count).
std::uint32_t split_at_mean(const std::vector<double>& c, std::uint32_t* tris,
                            std::uint32_t count) {
  const double mean = mean_of(c, tris, count);
  std::uint32_t* middle =
      std::stable_partition(tris, tris + count, [&](std::uint32_t t) { return c[t] < mean; });
  return static_cast<std::uint32_t>(middle - tris);
}

struct PendingNode {
  std::uint32_t begin, count;
  std::uint32_t parent;  // for a right child: whose `right` to set; ~0u otherwise
};

}  // namespace

BuildTree build_topdown(const Mesh& mesh, const BuildConfig& config) {
  validate(mesh);
  const std::uint32_t tau = std::max<std::uint32_t>(config.leaf_size, 1);
  const auto n = static_cast<std::uint32_t>(mesh.triangle_count());
  const Centroids centroids = centroids_of(mesh);

  BuildTree tree;
  tree.order.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) tree.order[i] = i;
  tree.nodes.reserve(2 * static_cast<std::size_t>((n + tau - 1) / tau));

  // An explicit stack, so a degenerate input (a chain of lopsided mean splits) cannot overflow
  // the call stack. Pushing the right child before the left gives pre-order numbering.
  std::vector<PendingNode> stack{{0, n, ~0u}};
  while (!stack.empty()) {
    const PendingNode p = stack.back();
    stack.pop_back();
    const auto index = static_cast<std::uint32_t>(tree.nodes.size());
    if (p.parent != ~0u) tree.nodes[p.parent].right = index;
    tree.nodes.push_back({p.begin, p.count, 0});
    if (p.count <= tau) continue;

    std::uint32_t* tris = tree.order.data() + p.begin;
    const int axis = config.rule != SplitRule::longest_side
                         ? splatter_axis(centroids, tris, p.count)
                         : longest_side_axis(mesh, tris, p.count);
    const std::vector<double>& c = centroids.axis[axis];
    std::uint32_t left = config.split_point == SplitPoint::mean ? split_at_mean(c, tris, p.count)
                                                                : split_at_median(c, tris, p.count);
    if (left == 0 || left == p.count) left = split_at_median(c, tris, p.count);

    stack.push_back({p.begin + left, p.count - left, index});
    stack.push_back({p.begin, left, ~0u});
  }
  return tree;
}

}  // namespace kdop
