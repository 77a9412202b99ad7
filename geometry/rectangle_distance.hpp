#pragma once
// The distance between two rectangles in space: the core of the rounded oriented box (rectangle
// swept sphere) overlap test of oriented-rounded-bv.txt: two such boxes overlap exactly when
// their rectangles are at most r_a + r_b apart.
//
// Rectangle A is {(x, y, 0) : |x| <= a[0], |y| <= a[1]}; rectangle B is, in A's frame,
// {T + s R_0 + t R_1 : |s| <= b[0], |t| <= b[1]} with R_j column j of the rotation R (row-major).
// Of a closest pair of points at least one lies on an edge (or the two rectangles cross, and an
// edge of one meets the other), so the distance is the least distance from one rectangle's four
// edges to the other rectangle; a segment's distance to a rectangle is 0 where it meets it, else
// the least of its end points' and of its distances to the rectangle's four edges.
namespace kdop {

double rectangle_distance(const double a[2], const double b[2], const double R[9],
                          const double T[3]);

// True if the rectangles are at most `limit` apart by rectangle_distance's measure; stops at the
// first edge that comes that close (overlapping volumes usually have one among the first).
bool rectangles_within(const double a[2], const double b[2], const double R[9], const double T[3],
                       double limit);

}  // namespace kdop
