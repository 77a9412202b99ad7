#pragma once
// Triangle pairs and clearances that the double distance (geometry/triangle_distance.hpp) puts
// on the wrong side of the clearance, both ways, for tests of the exact clearance decision: the
// clearance is a pair's double distance or one of its neighbours, and the truth is
// exact_distance_side's (itself tested against an exact face-pair oracle in
// tests/geometry/exact_distance_test.cpp). Found by a deterministic search.
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/exact_distance.hpp"
#include "geometry/shapes.hpp"
#include "geometry/triangle_distance.hpp"

namespace kdop::test {

struct ClearanceCase {
  Triangle a, b;
  double clearance;
  bool within;  // the exact answer; the double distance says the opposite
};

// `each` cases of each kind (within though the double says beyond, and the reverse), from
// random triangles of size about 1 near each other at an offset of up to `offset`.
inline std::vector<ClearanceCase> wrong_side_clearances(int each, double offset,
                                                        std::uint64_t seed) {
  std::uint64_t rng = seed;
  const auto point = [&] {
    return Vec3{2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1};
  };
  std::vector<ClearanceCase> out;
  int found[2] = {0, 0};  // [0]: within, [1]: beyond
  for (int n = 0; n < 100000 && (found[0] < each || found[1] < each); ++n) {
    const Vec3 o = offset * point();
    const Triangle a{point() + o, point() + o, point() + o};
    const Vec3 shift = 1.5 * point() + o;
    const Triangle b{point() + shift, point() + shift, point() + shift};
    const double d = triangle_distance(a, b).distance;
    if (d == 0) continue;
    for (const double clearance : {std::nextafter(d, 0.0), d, std::nextafter(d, 1.0)}) {
      const bool within = exact_distance_side(a, b, clearance).side <= 0;
      if (within == (d <= clearance) || found[within ? 0 : 1] >= each) continue;
      ++found[within ? 0 : 1];
      out.push_back({a, b, clearance, within});
    }
  }
  return out;
}

}  // namespace kdop::test
