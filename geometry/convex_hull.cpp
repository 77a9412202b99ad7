#include "geometry/convex_hull.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/qhull_session.hpp"

namespace kdop {
namespace {

HullGraph exhaustive_hull(const std::vector<Vec3>& input) {
  HullGraph g;
  g.points = input;
  g.exhaustive = true;
  g.first_edge.assign(input.size() + 1, 0);
  return g;
}

}  // namespace

std::optional<HullMeasure> convex_hull_measure(const std::vector<Vec3>& points) {
  if (points.size() < 4) return std::nullopt;
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Vec3& p : points) coords.insert(coords.end(), {p.x, p.y, p.z});
  char options[] = "qhull FA";
  QhullSession run(3, static_cast<int>(points.size()), coords.data(), options);
  if (!run.ok()) return std::nullopt;
  return HullMeasure{run.qh()->totvol, run.qh()->totarea};
}

std::vector<std::array<Vec3, 3>> convex_hull_triangles(const std::vector<Vec3>& points) {
  std::vector<std::array<Vec3, 3>> out;
  if (points.size() < 4) return out;
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Vec3& p : points) coords.insert(coords.end(), {p.x, p.y, p.z});
  char options[] = "qhull Qt";
  QhullSession run(3, static_cast<int>(points.size()), coords.data(), options);
  if (!run.ok()) return out;
  qhT* qh = run.qh();
  facetT* facet;
  FORALLfacets {
    std::array<Vec3, 3> t;
    int n = 0;
    vertexT* vertex;
    vertexT** vertexp;
    FOREACHvertex_(facet->vertices) {
      if (n < 3) t[n] = points[qh_pointid(qh, vertex->point)];
      ++n;
    }
    if (n == 3) out.push_back(t);  // 'Qt' triangulates every facet
  }
  return out;
}

HullGraph convex_hull_graph(const std::vector<Vec3>& input) {
  if (input.size() < 4) return exhaustive_hull(input);
  std::vector<coordT> coords;
  coords.reserve(3 * input.size());
  double scale = 0;
  for (const Vec3& p : input) {
    coords.insert(coords.end(), {p.x, p.y, p.z});
    scale = std::max({scale, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  }
  char options[] = "qhull Qt";
  QhullSession run(3, static_cast<int>(input.size()), coords.data(), options);
  qhT* qh = run.qh();
  HullGraph g;
  if (run.ok()) {
    std::vector<int> hull_index(input.size(), -1);
    vertexT* vertex;
    FORALLvertices {
      const int id = qh_pointid(qh, vertex->point);
      hull_index[id] = static_cast<int>(g.points.size());
      g.points.push_back(input[id]);
    }
    std::vector<std::vector<std::uint32_t>> adjacency(g.points.size());
    facetT* facet;
    FORALLfacets {
      std::uint32_t corner[3];
      int n = 0;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (n < 3)
          corner[n] = static_cast<std::uint32_t>(hull_index[qh_pointid(qh, vertex->point)]);
        ++n;
      }
      for (int i = 0; i < n && i < 3; ++i) {
        for (int j = 0; j < n && j < 3; ++j) {
          if (i != j) adjacency[corner[i]].push_back(corner[j]);
        }
      }
    }
    g.first_edge.push_back(0);
    for (auto& list : adjacency) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      g.edges.insert(g.edges.end(), list.begin(), list.end());
      g.first_edge.push_back(static_cast<std::uint32_t>(g.edges.size()));
    }
    // qhull guarantees every input point lies below its "computed outer plane", max_outside +
    // 2 DISTround above each facet (qhull's documentation of qh.max_outside; the final
    // qh_check_maxout pass establishes it). A point a distance d above facet planes can be
    // farther from the hull near a sharp vertex (d / sin of half the vertex angle): 1e3 covers
    // tips sharper than 0.1 degree; the relative term covers the distance evaluation itself.
    const double worst_outside = std::max(0.0, qh->max_outside) + 2 * qh->DISTround;
    g.outside_bound = 1e3 * worst_outside + 0x1p-40 * scale;
  }
  if (!run.ok() || g.points.size() < 4) return exhaustive_hull(input);
  return g;
}

namespace {

int cube_cell(double u, int grid) {
  const int i = static_cast<int>((u + 1) * 0.5 * grid);
  return i < 0 ? 0 : (i >= grid ? grid - 1 : i);
}

// Where cell (iu, iv) of a face sits in ClimbStarts::vertex.
std::size_t cell_index(int face, int iu, int iv, int grid) {
  return (std::size_t(face) * grid + iu) * grid + iv;
}

// The centre direction of cell (iu, iv) of a cube map's face (axis face / 2, sign by face % 2).
Vec3 cell_direction(int face, int iu, int iv, int grid) {
  double c[3];
  const int a = face / 2;
  c[a] = face % 2 ? -1.0 : 1.0;
  c[(a + 1) % 3] = (iu + 0.5) / grid * 2 - 1;
  c[(a + 2) % 3] = (iv + 0.5) / grid * 2 - 1;
  return {c[0], c[1], c[2]};
}

}  // namespace

int climb_grid(std::size_t vertices) {
  int g = ClimbStarts::min_grid;
  while (g < ClimbStarts::max_grid && 6 * std::size_t(g) * std::size_t(g) < vertices) g *= 2;
  return g;
}

int climb_grid_of(std::size_t entries) {
  for (int g = ClimbStarts::min_grid; g <= ClimbStarts::max_grid; g *= 2)
    if (entries == 6 * std::size_t(g) * std::size_t(g)) return g;
  return 0;
}

std::uint32_t climb_start(const ClimbStarts& starts, const Vec3& d) {
  const int g = starts.grid;
  const double c[3] = {d.x, d.y, d.z};
  int a = 0;
  if (std::fabs(c[1]) > std::fabs(c[a])) a = 1;
  if (std::fabs(c[2]) > std::fabs(c[a])) a = 2;
  const double major = std::fabs(c[a]);
  if (!(major > 0)) return starts.vertex[0];
  const int face = 2 * a + (c[a] < 0 ? 1 : 0);
  const int iu = cube_cell(c[(a + 1) % 3] / major, g), iv = cube_cell(c[(a + 2) % 3] / major, g);
  return starts.vertex[cell_index(face, iu, iv, g)];
}

ClimbStarts climb_starts(const HullGraph& hull) {
  ClimbStarts s;
  // An exhaustive hull (flat or tiny) is scanned whole by every climb, here as in a query: the
  // smallest map then, or a large flat object's build would scan it 6,144 times.
  s.grid = hull.exhaustive ? ClimbStarts::min_grid : climb_grid(hull.points.size());
  const int g = s.grid;
  s.vertex.resize(6 * std::size_t(g) * std::size_t(g));
  std::uint32_t previous = 0;
  for (int face = 0; face < 6; ++face) {
    for (int iu = 0; iu < g; ++iu) {
      for (int iv = 0; iv < g; ++iv) {
        previous = hill_climb(hull, cell_direction(face, iu, iv, g), previous);
        s.vertex[cell_index(face, iu, iv, g)] = previous;
      }
    }
  }
  return s;
}

InnerPoints inner_points(const HullGraph& hull, const ClimbStarts& starts, int per_face) {
  InnerPoints p;
  const int g = starts.grid, step = std::max(1, g / per_face);
  std::vector<bool> taken(hull.points.size(), false);
  for (int face = 0; face < 6; ++face) {
    for (int iu = step / 2; iu < g; iu += step) {
      for (int iv = step / 2; iv < g; iv += step) {
        const std::uint32_t v = starts.vertex[cell_index(face, iu, iv, g)];
        if (taken[v]) continue;
        taken[v] = true;
        p.x.push_back(static_cast<float>(hull.points[v].x));
        p.y.push_back(static_cast<float>(hull.points[v].y));
        p.z.push_back(static_cast<float>(hull.points[v].z));
      }
    }
  }
  return p;
}

std::uint32_t hill_climb(const HullGraph& hull, const Vec3& d, std::uint32_t start) {
  if (hull.exhaustive) {
    std::uint32_t best = 0;
    double best_value = dot(d, hull.points[0]);
    for (std::uint32_t i = 1; i < hull.points.size(); ++i) {
      const double v = dot(d, hull.points[i]);
      if (v > best_value) {
        best_value = v;
        best = i;
      }
    }
    return best;
  }
  std::uint32_t current = start;
  double value = dot(d, hull.points[current]);
  for (;;) {
    std::uint32_t next = current;
    double next_value = value;
    for (std::uint32_t e = hull.first_edge[current]; e < hull.first_edge[current + 1]; ++e) {
      const double v = dot(d, hull.points[hull.edges[e]]);
      if (v > next_value) {
        next_value = v;
        next = hull.edges[e];
      }
    }
    if (next == current) return current;
    current = next;
    value = next_value;
  }
}

}  // namespace kdop
