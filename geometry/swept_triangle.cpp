#include "geometry/swept_triangle.hpp"

#include <algorithm>
#include <limits>

#include "geometry/triangle_distance.hpp"

namespace kdop {

std::array<Triangle, 8> prism_faces(const Triangle& f, const Triangle& g) {
  return {f,
          g,
          Triangle{f.p0, f.p1, g.p1},
          Triangle{f.p0, g.p1, g.p0},
          Triangle{f.p1, f.p2, g.p2},
          Triangle{f.p1, g.p2, g.p1},
          Triangle{f.p2, f.p0, g.p0},
          Triangle{f.p2, g.p0, g.p2}};
}

namespace {

// e's corner p0 inside the prism: the segment from p0 back by the translation meets f.
bool corner_inside(const Triangle& e, const Triangle& f, const Triangle& g) {
  return segment_triangle_intersect(e.p0 - (g.p0 - f.p0), e.p0, f);
}

}  // namespace

bool triangle_meets_sweep(const Triangle& e, const Triangle& f, const Triangle& g) {
  for (const Triangle& face : prism_faces(f, g)) {
    if (triangles_intersect(e, face)) return true;
  }
  return corner_inside(e, f, g);
}

double sweep_distance(const Triangle& e, const Triangle& f, const Triangle& g) {
  if (corner_inside(e, f, g)) return 0;
  double least = std::numeric_limits<double>::infinity();
  for (const Triangle& face : prism_faces(f, g)) {
    least = std::min(least, triangle_distance(e, face).distance);
  }
  return least;
}

}  // namespace kdop
