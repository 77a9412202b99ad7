#include "geometry/solid_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

#include "geometry/vec3.hpp"

namespace kdop {
namespace {

// For every vertex, the smallest index of a vertex with equal coordinates. Sorting indices by
// coordinates puts equal points next to each other (== treats -0 and +0 as equal, as it should:
// they are one point).
std::vector<std::uint32_t> weld(const Mesh& m) {
  std::vector<std::uint32_t> order(m.vertex_count());
  std::iota(order.begin(), order.end(), 0u);
  const auto less = [&m](std::uint32_t i, std::uint32_t j) {
    if (m.x[i] != m.x[j]) return m.x[i] < m.x[j];
    if (m.y[i] != m.y[j]) return m.y[i] < m.y[j];
    if (m.z[i] != m.z[j]) return m.z[i] < m.z[j];
    return i < j;  // the smallest index first in each run of equal points
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<std::uint32_t> rep(m.vertex_count());
  std::size_t run = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::uint32_t i = order[k], first = order[run];
    if (m.x[i] != m.x[first] || m.y[i] != m.y[first] || m.z[i] != m.z[first]) run = k;
    rep[i] = order[run];
  }
  return rep;
}

// One directed use of an undirected edge: key = lo << 32 | hi of its welded ends, forward when
// it runs lo -> hi.
struct EdgeUse {
  std::uint64_t key;
  std::uint32_t triangle;
  bool forward;
};

MeshEdge edge_of(const EdgeUse& use) {
  return {static_cast<std::uint32_t>(use.key >> 32), static_cast<std::uint32_t>(use.key),
          use.triangle};
}

}  // namespace

SolidCheck check_solid(const Mesh& mesh) {
  SolidCheck check;
  check.triangles = mesh.triangle_count();
  const std::vector<std::uint32_t> rep = weld(mesh);

  std::vector<EdgeUse> uses;
  uses.reserve(3 * mesh.triangle_count());
  const auto point = [&mesh](std::uint32_t i) { return Vec3{mesh.x[i], mesh.y[i], mesh.z[i]}; };
  bool have_origin = false;
  Vec3 o;
  double sum = 0, sum_abs = 0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const std::uint32_t v[3] = {rep[mesh.a[t]], rep[mesh.b[t]], rep[mesh.c[t]]};
    if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) {
      ++check.degenerate_triangles;
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t from = v[k], to = v[(k + 1) % 3];
      const std::uint32_t lo = std::min(from, to), hi = std::max(from, to);
      uses.push_back({std::uint64_t{lo} << 32 | hi, static_cast<std::uint32_t>(t), from == lo});
    }
    // Welded corners, so every triangle sees the same rounded (p - o) for a shared vertex: the
    // sum is then exactly the volume of one closed mesh (the translated one), whatever o is.
    if (!have_origin) {
      o = point(v[0]);
      have_origin = true;
    }
    const Vec3 p = point(v[0]) - o, q = point(v[1]) - o, r = point(v[2]) - o;
    sum += dot(p, cross(q, r));
    // The permanent of |p|, |q|, |r|: bounds every product the determinant adds up.
    const Vec3 ap{std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)};
    const Vec3 aq{std::fabs(q.x), std::fabs(q.y), std::fabs(q.z)};
    const Vec3 ar{std::fabs(r.x), std::fabs(r.y), std::fabs(r.z)};
    sum_abs += ap.x * (aq.y * ar.z + aq.z * ar.y) + ap.y * (aq.z * ar.x + aq.x * ar.z) +
               ap.z * (aq.x * ar.y + aq.y * ar.x);
  }
  // Error sources, each at most a few units of eps times sum_abs: rounding p - o moves each
  // vertex by half an ulp (1.5 eps relative on each triple product), the determinant's own
  // roundings (about 5 eps), and the running sum over n terms ((n - 1) eps). (n + 16) eps covers
  // them with room for the rounding of sum_abs itself.
  const double eps = std::numeric_limits<double>::epsilon();
  const double n = static_cast<double>(mesh.triangle_count());
  check.signed_volume = sum / 6;
  check.volume_error = (n + 16) * eps * sum_abs / 6;

  std::sort(uses.begin(), uses.end(), [](const EdgeUse& u, const EdgeUse& w) {
    return u.key != w.key ? u.key < w.key : u.triangle < w.triangle;
  });
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i, forward = 0;
    for (; j < uses.size() && uses[j].key == uses[i].key; ++j) forward += uses[j].forward ? 1 : 0;
    const std::size_t count = j - i;
    if (count == 1) {
      if (check.boundary_edges++ == 0) check.first_boundary = edge_of(uses[i]);
    } else if (count > 2) {
      if (check.non_manifold_edges++ == 0) check.first_non_manifold = edge_of(uses[i]);
    } else if (forward != 1) {
      if (check.inconsistent_edges++ == 0) check.first_inconsistent = edge_of(uses[i]);
    }
    i = j;
  }
  return check;
}

std::string solid_problem(const SolidCheck& check) {
  if (check.outward_solid()) return {};
  std::ostringstream out;
  out.precision(std::numeric_limits<double>::max_digits10);
  if (check.triangles == check.degenerate_triangles) {
    out << "not a closed solid: no triangles with three distinct corners";
    return out.str();
  }
  if (!check.closed()) {
    out << "not a closed solid: ";
    const char* sep = "";
    const auto part = [&](std::size_t count, const char* what, const MeshEdge& e) {
      if (count == 0) return;
      out << sep << count << ' ' << what << (count == 1 ? " edge" : " edges")
          << " (first: vertices " << e.v0 << '-' << e.v1 << " of triangle " << e.triangle << ')';
      sep = ", ";
    };
    part(check.boundary_edges, "boundary", check.first_boundary);
    part(check.non_manifold_edges, "non-manifold", check.first_non_manifold);
    part(check.inconsistent_edges, "inconsistently oriented", check.first_inconsistent);
    return out.str();
  }
  if (check.signed_volume < -check.volume_error) {
    out << "inside out: the faces point inward (signed volume " << check.signed_volume << ')';
  } else {
    out << "no certain volume: signed volume " << check.signed_volume << " within its error bound "
        << check.volume_error
        << " (a flat or sliver-thin solid, or shells facing opposite ways whose volumes cancel)";
  }
  return out.str();
}

}  // namespace kdop
