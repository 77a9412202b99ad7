// Exact closed triangle-triangle intersection from orientation predicates (see tri_tri.hpp).
#include "geometry/tri_tri.hpp"

#include <algorithm>
#include <utility>

#include "geometry/predicates.hpp"

namespace kdop {
namespace {

struct Point2 {
  double u, v;
};

// Drops coordinate `axis` (0 = x, 1 = y, 2 = z).
Point2 project(const Vec3& p, int axis) {
  if (axis == 0) return {p.y, p.z};
  if (axis == 1) return {p.x, p.z};
  return {p.x, p.y};
}

int orient(Point2 a, Point2 b, Point2 c) {
  return orient2d(a.u, a.v, b.u, b.v, c.u, c.v);
}

// An axis whose projection keeps a, b, c non-collinear (so it is injective on their plane), or
// -1 if the three points are collinear in 3D.
int injective_axis(const Vec3& a, const Vec3& b, const Vec3& c) {
  for (int axis = 0; axis < 3; ++axis) {
    if (orient(project(a, axis), project(b, axis), project(c, axis)) != 0) return axis;
  }
  return -1;
}

// p is known to be collinear with a and b: is it between them?
bool in_box(Point2 p, Point2 a, Point2 b) {
  return std::min(a.u, b.u) <= p.u && p.u <= std::max(a.u, b.u) && std::min(a.v, b.v) <= p.v &&
         p.v <= std::max(a.v, b.v);
}

// Closed segments in the plane; either may be a single point.
bool segments_intersect_2d(Point2 p, Point2 q, Point2 a, Point2 b) {
  const int o1 = orient(p, q, a), o2 = orient(p, q, b);
  const int o3 = orient(a, b, p), o4 = orient(a, b, q);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && in_box(a, p, q)) || (o2 == 0 && in_box(b, p, q)) ||
         (o3 == 0 && in_box(p, a, b)) || (o4 == 0 && in_box(q, a, b));
}

// Closed, non-degenerate triangle abc in the plane.
bool point_in_triangle_2d(Point2 x, Point2 a, Point2 b, Point2 c) {
  const int o1 = orient(a, b, x), o2 = orient(b, c, x), o3 = orient(c, a, x);
  const bool has_negative = o1 < 0 || o2 < 0 || o3 < 0;
  const bool has_positive = o1 > 0 || o2 > 0 || o3 > 0;
  return !(has_negative && has_positive);
}

bool segment_triangle_2d(Point2 p, Point2 q, Point2 a, Point2 b, Point2 c) {
  return point_in_triangle_2d(p, a, b, c) || point_in_triangle_2d(q, a, b, c) ||
         segments_intersect_2d(p, q, a, b) || segments_intersect_2d(p, q, b, c) ||
         segments_intersect_2d(p, q, c, a);
}

// Closed segments in 3D; either may be a single point.
bool segments_intersect_3d(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b) {
  if (orient3d(p, q, a, b) != 0) return false;
  // Coplanar: find a projection that is injective on the common plane.
  for (int axis = 0; axis < 3; ++axis) {
    const Point2 p2 = project(p, axis), q2 = project(q, axis);
    const Point2 a2 = project(a, axis), b2 = project(b, axis);
    if (orient(p2, q2, a2) != 0 || orient(p2, q2, b2) != 0 || orient(p2, a2, b2) != 0 ||
        orient(q2, a2, b2) != 0) {
      return segments_intersect_2d(p2, q2, a2, b2);
    }
  }
  // All four points on one line: compare intervals along an axis the line is not orthogonal to.
  for (int axis = 0; axis < 3; ++axis) {
    const double cp = coord(p, axis), cq = coord(q, axis), ca = coord(a, axis), cb = coord(b, axis);
    if (cp == cq && cq == ca && ca == cb) continue;
    return std::max(std::min(cp, cq), std::min(ca, cb)) <=
           std::min(std::max(cp, cq), std::max(ca, cb));
  }
  return true;  // four equal points
}

// A triangle with the facts every edge test needs, computed once.
struct PreparedTriangle {
  const Triangle& t;
  int axis;  // injective projection axis, -1 when degenerate (collinear corners)
};

// Closed segment [p, q] against a prepared triangle; sp, sq are orient3d(t, p) and
// orient3d(t, q) (zero when t is degenerate).
bool segment_meets(const Vec3& p, const Vec3& q, int sp, int sq, const PreparedTriangle& pt) {
  const Triangle& t = pt.t;
  if (pt.axis < 0) {  // a degenerate triangle is the union of its edges
    return segments_intersect_3d(p, q, t.p0, t.p1) || segments_intersect_3d(p, q, t.p1, t.p2) ||
           segments_intersect_3d(p, q, t.p2, t.p0);
  }
  if (sp == 0 && sq == 0) {
    const int axis = pt.axis;
    return segment_triangle_2d(project(p, axis), project(q, axis), project(t.p0, axis),
                               project(t.p1, axis), project(t.p2, axis));
  }
  if (sp * sq > 0) return false;
  // The segment meets the plane in one point: it lies in the triangle iff the line pq passes
  // on the same side of (or through) all three edges.
  const int o1 = orient3d(p, q, t.p0, t.p1);
  const int o2 = orient3d(p, q, t.p1, t.p2);
  const int o3 = orient3d(p, q, t.p2, t.p0);
  const bool has_negative = o1 < 0 || o2 < 0 || o3 < 0;
  const bool has_positive = o1 > 0 || o2 > 0 || o3 > 0;
  return !(has_negative && has_positive);
}

bool boxes_disjoint(const Triangle& t1, const Triangle& t2) {
  for (int axis = 0; axis < 3; ++axis) {
    const double a0 = coord(t1.p0, axis), a1 = coord(t1.p1, axis), a2 = coord(t1.p2, axis);
    const double b0 = coord(t2.p0, axis), b1 = coord(t2.p1, axis), b2 = coord(t2.p2, axis);
    if (std::max({a0, a1, a2}) < std::min({b0, b1, b2})) return true;
    if (std::max({b0, b1, b2}) < std::min({a0, a1, a2})) return true;
  }
  return false;
}

bool strictly_one_side(int s0, int s1, int s2) {
  return (s0 > 0 && s1 > 0 && s2 > 0) || (s0 < 0 && s1 < 0 && s2 < 0);
}

bool any_zero(const int s[3]) {
  return s[0] == 0 || s[1] == 0 || s[2] == 0;
}

// The corner alone on its side of the other plane; the signs are non-zero and not all equal.
int lone_corner(const int s[3]) {
  if (s[1] == s[2]) return 0;
  return s[0] == s[2] ? 1 : 2;
}

// Two triangles that cross each other's planes with no corner on the other plane (Guigue and
// Devillers 2003, "Fast and robust triangle-triangle overlap test using orientation
// predicates", section 3). Each triangle meets the line L = plane1 ∩ plane2 in a segment; they
// intersect iff the segments overlap, and two more orientations decide that. Relabel so p1 is
// the corner of t1 alone on the positive side of plane(p2, q2, r2), and p2 the corner of t2
// alone on the positive side of plane(p1, q1, r1): a cyclic rotation keeps a plane's
// orientation, swapping the other two corners flips it. Then the segments are [i, j] (i on
// p1q1, j on p1r1) and [k, l] (k on p2q2, l on p2r2), ordered the same way along L, and
// orient3d(p1, q1, p2, q2) <= 0 iff i <= k, orient3d(p1, r1, r2, p2) <= 0 iff l <= j.
bool crossing_triangles_intersect(const Triangle& t1, const int s1[3], const Triangle& t2,
                                  const int s2[3]) {
  const Vec3 a[3] = {t1.p0, t1.p1, t1.p2};
  const Vec3 b[3] = {t2.p0, t2.p1, t2.p2};
  const int i = lone_corner(s1), j = lone_corner(s2);
  const Vec3& p1 = a[i];
  const Vec3* q1 = &a[(i + 1) % 3];
  const Vec3* r1 = &a[(i + 2) % 3];
  const Vec3& p2 = b[j];
  const Vec3* q2 = &b[(j + 1) % 3];
  const Vec3* r2 = &b[(j + 2) % 3];
  if (s1[i] < 0) std::swap(q2, r2);  // flips plane 2: p1 is now on its positive side
  if (s2[j] < 0) std::swap(q1, r1);  // flips plane 1: p2 is now on its positive side
  return orient3d(p1, *q1, p2, *q2) <= 0 && orient3d(p1, *r1, *r2, p2) <= 0;
}

// The general case (touching, coplanar, degenerate): an edge of one meets the other (see
// tri_tri.hpp). s1: t1's corners against t2's plane; s2: t2's corners against t1's plane.
bool edges_meet_triangles(const Triangle& t1, const int s1[3], const Triangle& t2,
                          const int s2[3]) {
  const PreparedTriangle pt1{t1, injective_axis(t1.p0, t1.p1, t1.p2)};
  const PreparedTriangle pt2{t2, injective_axis(t2.p0, t2.p1, t2.p2)};
  return segment_meets(t1.p0, t1.p1, s1[0], s1[1], pt2) ||
         segment_meets(t1.p1, t1.p2, s1[1], s1[2], pt2) ||
         segment_meets(t1.p2, t1.p0, s1[2], s1[0], pt2) ||
         segment_meets(t2.p0, t2.p1, s2[0], s2[1], pt1) ||
         segment_meets(t2.p1, t2.p2, s2[1], s2[2], pt1) ||
         segment_meets(t2.p2, t2.p0, s2[2], s2[0], pt1);
}

// Signs of each triangle's corners against the other's plane (all zero if that one is
// degenerate); false when the pair is already known to be disjoint.
bool plane_signs(const Triangle& t1, const Triangle& t2, int s1[3], int s2[3]) {
  if (boxes_disjoint(t1, t2)) return false;
  s1[0] = orient3d(t2.p0, t2.p1, t2.p2, t1.p0);
  s1[1] = orient3d(t2.p0, t2.p1, t2.p2, t1.p1);
  s1[2] = orient3d(t2.p0, t2.p1, t2.p2, t1.p2);
  if (strictly_one_side(s1[0], s1[1], s1[2])) return false;
  s2[0] = orient3d(t1.p0, t1.p1, t1.p2, t2.p0);
  s2[1] = orient3d(t1.p0, t1.p1, t1.p2, t2.p1);
  s2[2] = orient3d(t1.p0, t1.p1, t1.p2, t2.p2);
  return !strictly_one_side(s2[0], s2[1], s2[2]);
}

}  // namespace

bool segment_triangle_intersect(const Vec3& p, const Vec3& q, const Triangle& t) {
  const PreparedTriangle pt{t, injective_axis(t.p0, t.p1, t.p2)};
  const int sp = orient3d(t.p0, t.p1, t.p2, p);
  const int sq = orient3d(t.p0, t.p1, t.p2, q);
  return segment_meets(p, q, sp, sq, pt);
}

bool triangles_intersect(const Triangle& t1, const Triangle& t2) {
  int s1[3], s2[3];
  if (!plane_signs(t1, t2, s1, s2)) return false;
  // The common case: both cross, no corner on the other plane (so neither is degenerate).
  if (!any_zero(s1) && !any_zero(s2)) return crossing_triangles_intersect(t1, s1, t2, s2);
  return edges_meet_triangles(t1, s1, t2, s2);
}

bool triangles_intersect_by_edges(const Triangle& t1, const Triangle& t2) {
  int s1[3], s2[3];
  return plane_signs(t1, t2, s1, s2) && edges_meet_triangles(t1, s1, t2, s2);
}

}  // namespace kdop
