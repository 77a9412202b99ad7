// Motion checks against constructed cases with known answers and against oracles: thin
// obstacles between free waypoints (translation and rotation), near misses at 1e-6, a
// dense-sampling oracle on random motions (sampling can only miss contacts), and distances
// against brute force over all triangle pairs.
#include "verify/path_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>

#include "engine/brute_force.hpp"
#include "geometry/shapes.hpp"
#include "geometry/triangle_distance.hpp"
#include "io/mesh_writer.hpp"
#include "tests/support/clearance_cases.hpp"
#include "verify/motion.hpp"

namespace kdop {
namespace {

namespace fs = std::filesystem;

Mesh make_box(Vec3 lo, Vec3 hi) {
  Mesh m;
  for (int i = 0; i < 8; ++i) {
    m.add_vertex(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
  }
  const std::uint32_t f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  for (const auto& t : f) m.add_triangle(t[0], t[1], t[2]);
  return m;
}

// The octahedron with corners at +-1 on each axis (exact coordinates).
Mesh make_octahedron() {
  Mesh m;
  m.add_vertex(1, 0, 0);
  m.add_vertex(-1, 0, 0);
  m.add_vertex(0, 1, 0);
  m.add_vertex(0, -1, 0);
  m.add_vertex(0, 0, 1);
  m.add_vertex(0, 0, -1);
  const std::uint32_t f[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                 {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (const auto& t : f) m.add_triangle(t[0], t[1], t[2]);
  return m;
}

// One triangle (a zero-thickness obstacle).
Mesh make_triangle(Vec3 a, Vec3 b, Vec3 c) {
  Mesh m;
  m.add_vertex(a.x, a.y, a.z);
  m.add_vertex(b.x, b.y, b.z);
  m.add_vertex(c.x, c.y, c.z);
  m.add_triangle(0, 1, 2);
  return m;
}

// The least distance between meshes a and b at poses pa and pb over all triangle pairs (0 when
// touching): the oracle for distances.
double brute_force_distance(const Mesh& a, const Pose& pa, const Mesh& b, const Pose& pb) {
  auto triangle = [](const Mesh& m, const Pose& p, std::uint32_t i) {
    auto corner = [&](std::uint32_t v) { return apply_pose(p, Vec3{m.x[v], m.y[v], m.z[v]}); };
    return Triangle{corner(m.a[i]), corner(m.b[i]), corner(m.c[i])};
  };
  double least = std::numeric_limits<double>::infinity();
  for (std::uint32_t i = 0; i < a.triangle_count(); ++i) {
    const Triangle ta = triangle(a, pa, i);
    for (std::uint32_t j = 0; j < b.triangle_count(); ++j) {
      const Triangle tb = triangle(b, pb, j);
      least =
          std::min(least, triangles_intersect(ta, tb) ? 0.0 : triangle_distance(ta, tb).distance);
    }
  }
  return least;
}

class PathCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kdop_path_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string save(const std::string& name, const Mesh& m) {
    const std::string path = (dir_ / (name + ".obj")).string();
    write_file_atomic(path, format_obj(m));
    return path;
  }

  // A unit cube "cube" at the origin and a zero-thickness triangle "plate" in x = 5.
  Scene cube_and_plate() {
    Scene scene;
    scene.file = "scene";
    scene.environment.push_back(
        {"plate", save("plate", make_triangle({5, -3, -3}, {5, 3, -3}, {5, 0, 4})), false, Pose{}});
    scene.objects.push_back(
        {"cube", save("cube", make_box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5})), 0});
    return scene;
  }

  fs::path dir_;
};

Waypoint at(double t, double x, double y, double z, double angle = 0,
            std::array<double, 3> axis = {0, 0, 1}) {
  const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double s = std::sin(angle / 2) / n;
  return {t, {x, y, z}, {std::cos(angle / 2), s * axis[0], s * axis[1], s * axis[2]}, 0};
}

Trajectory one_path(const std::string& object, std::vector<Waypoint> path) {
  Trajectory t;
  t.file = "trajectory";
  t.objects = {object};
  t.paths = {std::move(path)};
  return t;
}

PathCheckOptions options(bool continuous) {
  PathCheckOptions o;
  o.continuous = continuous;
  o.threads = 2;
  o.object.leaf_size = 8;
  return o;
}

// A cube of side 1 flies through a zero-thickness plate at x = 5 between two free waypoints.
TEST_F(PathCheckTest, ThinPlateBetweenFreeWaypointsTranslation) {
  const Scene scene = cube_and_plate();
  const Trajectory path = one_path("cube", {at(0, 0, 0, 0), at(1, 10, 0, 0)});

  const PathReport discrete = *check_path(scene, path, options(false));
  ASSERT_EQ(discrete.segments.size(), 1u);
  EXPECT_EQ(discrete.segments[0].status, SegmentStatus::free);
  EXPECT_EQ(discrete.summary.colliding, 0u);

  PathCheckOptions o = options(true);
  o.time_tolerance = 1e-9;
  const PathReport continuous = *check_path(scene, path, o);
  ASSERT_EQ(continuous.segments.size(), 1u);
  const SegmentReport& s = continuous.segments[0];
  ASSERT_EQ(s.status, SegmentStatus::collides);
  // The leading face x = 0.5 reaches the plate when the centre is at 4.5: t = 0.45.
  EXPECT_NEAR(s.t_hit, 0.45, 1e-9);
  EXPECT_LE(s.t_hit, 0.45 + 1e-15);
  EXPECT_EQ(s.with, "plate");
  ASSERT_TRUE(s.pair.has_value());
  EXPECT_EQ(s.pair->with_triangle, 0u);
  EXPECT_EQ(continuous.summary.first_collision_object, "cube");
  ASSERT_TRUE(continuous.summary.first_collision_t.has_value());
  // The plot's distance curve reaches 0 at the contact: the sweep found it between the two
  // waypoints, which are both clear.
  const std::vector<PathSample> curve = least_distance_curve(continuous, 0);
  const auto contact =
      std::find_if(curve.begin(), curve.end(), [](const PathSample& p) { return p.distance == 0; });
  ASSERT_NE(contact, curve.end());
  EXPECT_EQ(contact->t, s.t_hit);
  EXPECT_TRUE(contact->collides);
}

// A contact a sweep has proved is found to the time tolerance even with one step allowed: the
// bisection is not cut short into "undecided" (the rotating case, with no proof, is).
TEST_F(PathCheckTest, ProvedSweepContactOutlastsMaxSteps) {
  const Scene scene = cube_and_plate();
  PathCheckOptions o = options(true);
  o.time_tolerance = 1e-9;
  o.max_steps = 1;
  const PathReport translated =
      *check_path(scene, one_path("cube", {at(0, 0, 0, 0), at(1, 10, 0, 0)}), o);
  ASSERT_EQ(translated.segments.size(), 1u);
  const SegmentReport& s = translated.segments[0];
  ASSERT_EQ(s.status, SegmentStatus::collides);
  EXPECT_NEAR(s.t_hit, 0.45, 1e-9);
  EXPECT_LE(s.t_hit, 0.45 + 1e-15);
  EXPECT_GT(s.steps, 20u);  // the bisection's sweeps, past max_steps
  EXPECT_EQ(translated.summary.undecided, 0u);
  // Times where double's resolution (1.5e-8 at 1e8) is coarser than the tolerance: the bisection
  // ends there, and the proved contact still collides.
  o.max_steps = 100000;
  const PathReport late =
      *check_path(scene, one_path("cube", {at(1e8, 0, 0, 0), at(1e8 + 1, 10, 0, 0)}), o);
  ASSERT_EQ(late.segments.size(), 1u);
  EXPECT_EQ(late.segments[0].status, SegmentStatus::collides);
  EXPECT_NEAR(late.segments[0].t_hit, 1e8 + 0.45, 1e-7);
  EXPECT_LE(late.segments[0].t_hit, 1e8 + 0.45);
  o.time_tolerance = 1e-300;  // far below the resolution near t = 0.45 too
  const PathReport fine =
      *check_path(scene, one_path("cube", {at(0, 0, 0, 0), at(1, 10, 0, 0)}), o);
  EXPECT_EQ(fine.segments[0].status, SegmentStatus::collides);
  EXPECT_NEAR(fine.segments[0].t_hit, 0.45, 1e-15);
  o.time_tolerance = 1e-9;
  o.max_steps = 1;
  // Translating and turning: conservative advancement, no proof within one step.
  const PathReport turned =
      *check_path(scene, one_path("cube", {at(0, 0, 0, 0), at(1, 10, 0, 0, 1.0, {0, 0, 1})}), o);
  ASSERT_EQ(turned.segments.size(), 1u);
  EXPECT_EQ(turned.segments[0].status, SegmentStatus::undecided);
}

// With a coarse time tolerance t_hit may be up to the tolerance early, where the objects are
// still apart: the segment's least distance 0 is reported where the contact is proved (the
// colliding sample, or the end of the bisection's last interval), not at t_hit (a probe found
// "least distance 0 at t=0" with the cube 49 away).
TEST_F(PathCheckTest, LeastDistanceZeroIsWhereTheContactIsProved) {
  const Scene scene = cube_and_plate();
  const Mesh cube = make_box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5});
  const Mesh plate = make_triangle({5, -3, -3}, {5, 3, -3}, {5, 0, 4});
  for (const double angle : {0.0, 0.3}) {  // a sweep, then conservative advancement
    SCOPED_TRACE(angle);
    const Trajectory path = one_path("cube", {at(0, 0, 0, 0), at(1, 10, 0, 0, angle)});
    PathCheckOptions o = options(true);
    o.time_tolerance = 0.1;
    const SegmentReport s = check_path(scene, path, o)->segments.at(0);
    ASSERT_EQ(s.status, SegmentStatus::collides);
    EXPECT_EQ(s.min_distance, 0.0);
    EXPECT_GE(s.min_distance_t, s.t_hit);
    EXPECT_LE(s.min_distance_t, s.t_hit + o.time_tolerance);
    const Pose proved = to_pose(state_at(path.paths[0], s.min_distance_t));
    EXPECT_FALSE(brute_force_contacts(plate, cube, proved).empty()) << s.min_distance_t;
  }
}

// A bar spinning half a turn about its centre sweeps through a thin plate; both waypoints have
// it along x, clear of the plate. t* from a dense-sampling oracle.
TEST_F(PathCheckTest, ThinPlateBetweenFreeWaypointsRotation) {
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back({"plate",
                               save("plate", make_triangle({0, 1, -1}, {0, 1.8, -1}, {0, 1.4, 1})),
                               false, Pose{}});
  const Mesh bar = make_box({-2, -0.1, -0.1}, {2, 0.1, 0.1});
  scene.objects.push_back({"bar", save("bar", bar), 0});
  const Trajectory path =
      one_path("bar", {at(0, 0, 0, 0), at(1, 0, 0, 0, std::numbers::pi, {0, 0, 1})});

  EXPECT_EQ(check_path(scene, path, options(false))->segments[0].status, SegmentStatus::free);
  const PathReport r = *check_path(scene, path, options(true));
  ASSERT_EQ(r.segments[0].status, SegmentStatus::collides);
  const double t_hit = r.segments[0].t_hit;

  // Dense sampling: the first sampled contact, and no contact before t_hit.
  const Mesh plate = make_triangle({0, 1, -1}, {0, 1.8, -1}, {0, 1.4, 1});
  double first_sampled = std::numeric_limits<double>::infinity();
  constexpr int n = 20000;
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / n;
    const Pose p = to_pose(state_at(path.paths[0], t));
    if (!brute_force_contacts(plate, bar, p).empty()) {
      first_sampled = t;
      break;
    }
  }
  ASSERT_TRUE(std::isfinite(first_sampled));
  EXPECT_LE(t_hit, first_sampled);
  EXPECT_GE(t_hit, first_sampled - 1.0 / n);
  // The pose at t_hit touches (to within the time tolerance).
  const Pose hit = to_pose(state_at(path.paths[0], t_hit + 1e-9));
  EXPECT_FALSE(brute_force_contacts(plate, bar, hit).empty());
}

// An octahedron's corner passes 1e-6 below a plate's corner (translation), and a cube stops
// 1e-6 short of a wall: continuous says free, and the least distance is 1e-6.
TEST_F(PathCheckTest, NearMissesWithinOneMicronAreFree) {
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back(
      {"plate", save("plate", make_triangle({5, 1 + 1e-6, 0}, {5, 2, -1}, {5, 2, 1})), false,
       Pose{}});
  scene.environment.push_back({"wall",
                               save("wall", make_triangle({0, -10, -10}, {0, -10, 10}, {0, 10, 0})),
                               false, Pose{}});
  scene.objects.push_back({"octa", save("octa", make_octahedron()), 0});
  const Trajectory pass = one_path("octa", {at(0, 2, 0, 0), at(1, 8, 0, 0)});
  const PathReport r = *check_path(scene, pass, options(true));
  ASSERT_EQ(r.segments.size(), 1u);
  EXPECT_EQ(r.segments[0].status, SegmentStatus::free);
  // The least distance seen at the check's samples: at least the true least, 1e-6, and near it.
  EXPECT_GE(r.segments[0].min_distance, 1e-6 - 1e-12);
  EXPECT_LE(r.segments[0].min_distance, 3e-6);
  EXPECT_LT(r.segments[0].steps, 200u);

  // Head-on towards the wall at x = 0, stopping with the corner at x = 1e-6.
  const Trajectory stop = one_path("octa", {at(0, 6, 0, 0), at(1, 1 + 1e-6, 0, 0)});
  const PathReport s = *check_path(scene, stop, options(true));
  EXPECT_EQ(s.segments[0].status, SegmentStatus::free);
  // One more micron and it touches.
  const Trajectory touch = one_path("octa", {at(0, 6, 0, 0), at(1, 1 - 1e-6, 0, 0)});
  const PathReport u = *check_path(scene, touch, options(true));
  ASSERT_EQ(u.segments[0].status, SegmentStatus::collides);
  EXPECT_EQ(u.segments[0].with, "wall");
  // Centre from 6 to 1 - 1e-6 in time 1: the corner reaches x = 0 at t = 5 / (5 + 1e-6).
  EXPECT_NEAR(u.segments[0].t_hit, 5 / (5 + 1e-6), 1e-9);
}

// A slow approach under fast rotation: the octahedron spins about z (its lowest corner on the
// axis, so the spin does not move it) while sinking onto a plate at 5e-4 per unit time. Its
// distance stays within the distance's rounding bound for many time tolerances before touching
// at t = 0.5; the check still finds the contact, no later than it.
TEST_F(PathCheckTest, SlowApproachWithinRoundingIsFoundNotUndecided) {
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back(
      {"plate", save("plate", make_triangle({-2, -2, 0}, {2, -2, 0}, {0, 2, 0})), false, Pose{}});
  scene.objects.push_back({"octa", save("octa", make_octahedron()), 0});
  const Trajectory sink = one_path("octa", {at(0, 0, 0, 1 + 2.5e-4), at(1, 0, 0, 1 - 2.5e-4, 0.2)});
  const PathReport r = *check_path(scene, sink, options(true));
  ASSERT_EQ(r.segments[0].status, SegmentStatus::collides);
  EXPECT_LE(r.segments[0].t_hit, 0.5);
  EXPECT_GT(r.segments[0].t_hit, 0.5 - 1e-6);
  EXPECT_EQ(r.segments[0].with, "plate");
  // The same a million seconds later: steps below an ulp of the time (1.2e-10) must not stall.
  const double t0 = 1e6;
  const Trajectory late =
      one_path("octa", {at(t0, 0, 0, 1 + 2.5e-4), at(t0 + 1, 0, 0, 1 - 2.5e-4, 0.2)});
  const PathReport l = *check_path(scene, late, options(true));
  ASSERT_EQ(l.segments[0].status, SegmentStatus::collides)
      << l.segments[0].t_hit - t0 << " " << l.segments[0].steps << " "
      << l.segments[0].min_distance;
  EXPECT_LE(l.segments[0].t_hit, t0 + 0.5 + 1e-9);
  EXPECT_GT(l.segments[0].t_hit, t0 + 0.5 - 1e-6);
  EXPECT_LT(l.segments[0].steps, 20000u);
}

// Staying within the rounding bound of one item proves nothing about the others: a body resting
// 1e-12 above a floor while it turns half a revolution stalls advancement on the floor from the
// start, and its arm swings into a post near t = 0.53. That contact was reported at t = 0 (the
// stall's start) with the post, 5 units away then. Now: undecided (the floor cannot be
// certified), or the post's contact itself, never earlier.
TEST_F(PathCheckTest, StallOnOneItemIsNoContactWithAnother) {
  Scene scene;
  scene.file = "scene";
  const double a = 1.69;
  const Vec3 post{5 * std::cos(a), 5 * std::sin(a), 0};
  scene.environment.push_back(
      {"floor", save("floor", make_box({-20, -20, -1}, {20, 20, 0})), false, Pose{}});
  scene.environment.push_back(
      {"post",
       save("post", make_box({post.x - 0.1, post.y - 0.1, 0}, {post.x + 0.1, post.y + 0.1, 2})),
       false, Pose{}});
  Mesh body = make_box({-0.5, -0.5, 1e-12}, {0.5, 0.5, 1});
  append_mesh(body, make_box({0, -0.05, 0.5}, {10, 0.05, 0.6}));
  scene.objects.push_back({"body", save("body", body), 0});
  const double half_turn = 179 * std::numbers::pi / 180;
  const PathReport r = *check_path(
      scene, one_path("body", {at(0, 0, 0, 0), at(1, 0, 0, 0, half_turn)}), options(true));
  ASSERT_EQ(r.segments.size(), 1u);
  const SegmentReport& s = r.segments[0];
  if (s.status == SegmentStatus::collides) {
    EXPECT_EQ(s.with, "post");
    EXPECT_GT(s.t_hit, 0.5);
  } else {
    EXPECT_EQ(s.status, SegmentStatus::undecided);
  }
  // The arm's edge reaches the post's corner at an angle of about a - 0.03 rad: t ~ 0.531.
  const PathReport d = *check_path(
      scene, one_path("body", {at(0, 0, 0, 0), at(0.5, 0, 0, 0, half_turn / 2)}), options(false));
  EXPECT_EQ(d.summary.colliding, 0u);
}

// Translations are decided by sweeps: a cube sliding 1e-6 above a plate along its whole length
// is free in a few queries (bounding the motion would take a step per micron), and sliding on it
// collides from the start.
TEST_F(PathCheckTest, SlidingTranslationsAreDecidedBySweeps) {
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back(
      {"plate", save("plate", make_box({-1, -2, -1}, {101, 2, 0})), false, Pose{}});
  scene.objects.push_back({"cube", save("cube", make_box({0, 0, 0}, {1, 1, 1})), 0});
  const PathReport above =
      *check_path(scene, one_path("cube", {at(0, 0, 0, 1e-6), at(1, 99, 0, 1e-6)}), options(true));
  EXPECT_EQ(above.segments[0].status, SegmentStatus::free);
  EXPECT_LE(above.segments[0].steps, 4u);
  EXPECT_NEAR(above.segments[0].min_distance, 1e-6, 1e-15);
  const PathReport on =
      *check_path(scene, one_path("cube", {at(0, 0, 0, 0), at(1, 99, 0, 0)}), options(true));
  EXPECT_EQ(on.segments[0].status, SegmentStatus::collides);
  EXPECT_EQ(on.segments[0].t_hit, 0.0);
  // Lowered onto the plate from 1 above: the bottom reaches z = 0 exactly at the end, t = 1.
  const PathReport down =
      *check_path(scene, one_path("cube", {at(0, 5, 0, 1), at(1, 5, 0, 0)}), options(true));
  EXPECT_EQ(down.segments[0].status, SegmentStatus::collides);
  EXPECT_NEAR(down.segments[0].t_hit, 1.0, 1e-9);
  EXPECT_LE(down.segments[0].t_hit, 1.0);
}

// A clearance makes the near miss a collision, and padding acts as clearance.
TEST_F(PathCheckTest, ClearanceAndPaddingTurnNearMissesIntoFindings) {
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back(
      {"plate", save("plate", make_triangle({5, 1.01, 0}, {5, 2, -1}, {5, 2, 1})), false, Pose{}});
  scene.objects.push_back({"octa", save("octa", make_octahedron()), 0});
  const Trajectory pass = one_path("octa", {at(0, 2, 0, 0), at(1, 8, 0, 0)});
  const PathReport free = *check_path(scene, pass, options(true));
  EXPECT_EQ(free.segments[0].status, SegmentStatus::free);
  // Closest when the top corner (x, 1, 0) passes under the plate's corner: 0.01 at x = 5, t = 0.5
  // (for |x - 5| <= 0.01 the corners are nearest, at distance sqrt((x - 5)^2 + 0.01^2)).
  EXPECT_NEAR(free.segments[0].min_distance, 0.01, 1e-12);
  EXPECT_NEAR(free.segments[0].min_distance_t, 0.5, 1e-6);
  EXPECT_EQ(free.segments[0].min_distance_with, "plate");
  EXPECT_EQ(free.summary.worst_clearance, free.segments[0].min_distance);
  EXPECT_EQ(free.summary.worst_clearance_t, free.segments[0].min_distance_t);
  EXPECT_EQ(free.summary.worst_clearance_with, "plate");
  PathCheckOptions o = options(true);
  o.clearance = 0.02;
  const PathReport r = *check_path(scene, pass, o);
  ASSERT_EQ(r.segments[0].status, SegmentStatus::collides);
  // The plate's corner p = (5, 1.01, 0) comes within 0.02 of the octahedron's edge from (1, 0, 0)
  // to (0, 1, 0) (relative to its centre x, distance (5 - x + 1.01 - 1) / sqrt 2) first, at
  // x = 5 + 0.01 - 0.02 sqrt 2, along the path x = 2 + 6 t.
  const double x = 5 + 0.01 - 0.02 * std::sqrt(2.0);
  EXPECT_NEAR(r.segments[0].t_hit, (x - 2) / 6, 1e-7);
  scene.objects[0].padding = 0.02;
  EXPECT_EQ(check_path(scene, pass, options(true))->segments[0].status, SegmentStatus::collides);
  // Allowed pairs are not checked.
  scene.allow.push_back({"octa", "plate"});
  EXPECT_EQ(check_path(scene, pass, options(true))->segments[0].status, SegmentStatus::free);
}

// A sample within rounding of the clearance is decided by the exact distance, on pairs the double
// distance alone puts on the wrong side (tests/support/clearance_cases.hpp).
TEST_F(PathCheckTest, SampledClearanceIsDecidedExactly) {
  const std::vector<test::ClearanceCase> cases = test::wrong_side_clearances(2, 0, 11);
  ASSERT_EQ(cases.size(), 4u);
  for (const test::ClearanceCase& c : cases) {
    Scene scene;
    scene.file = "scene";
    scene.environment.push_back(
        {"a", save("a", make_triangle(c.a.p0, c.a.p1, c.a.p2)), false, Pose{}});
    scene.objects.push_back({"b", save("b", make_triangle(c.b.p0, c.b.p1, c.b.p2)), 0});
    PathCheckOptions o = options(false);
    o.clearance = c.clearance;
    const PathReport r = *check_path(scene, one_path("b", {at(0, 0, 0, 0), at(1, 0, 0, 0)}), o);
    ASSERT_EQ(r.waypoints.size(), 2u);
    for (const WaypointReport& w : r.waypoints) {
      EXPECT_EQ(w.collides, c.within) << "clearance " << c.clearance;
    }
  }
}

// Two objects moving: a cube crosses the path of another; waypoints free, continuous finds it.
TEST_F(PathCheckTest, MovingObjectsAreCheckedAgainstEachOther) {
  Scene scene;
  scene.file = "scene";
  const Mesh cube = make_box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5});
  scene.objects.push_back({"a", save("a", cube), 0});
  scene.objects.push_back({"b", save("b", cube), 0});
  Trajectory t;
  t.file = "trajectory";
  t.objects = {"a", "b"};
  // a along x through the origin, b along y through it, crossing at t = 0.5; at the waypoints
  // (t = 0, 1) and at b's middle waypoint (t = 0.3, b at y = -2) they are apart.
  t.paths = {{at(0, -5, 0, 0), at(1, 5, 0, 0)},
             {at(0, 0, -5, 0), at(0.3, 0, -2, 0), at(1, 0, 5, 0)}};
  const PathReport d = *check_path(scene, t, options(false));
  EXPECT_EQ(d.summary.colliding, 0u);
  const PathReport r = *check_path(scene, t, options(true));
  ASSERT_EQ(r.segments.size(), 3u);
  EXPECT_EQ(r.segments[0].status, SegmentStatus::collides);
  EXPECT_EQ(r.segments[0].with, "b");
  EXPECT_EQ(r.segments[2].status, SegmentStatus::collides);
  EXPECT_EQ(r.segments[2].with, "a");
  // Oracle: a at x = -5 + 10 t, b at y = -2 + 7 (t - 0.3) / 0.7 = 10 t - 5: the cubes' corners
  // meet when both are 1 from the origin along their axes... the boxes touch when
  // |x_a| <= 1 and |y_b| <= 1, i.e. 10 t - 5 >= -1: t = 0.4.
  EXPECT_NEAR(r.segments[0].t_hit, 0.4, 1e-8);
  EXPECT_NEAR(r.segments[2].t_hit, 0.4, 1e-8);
  EXPECT_EQ(r.segments[1].status, SegmentStatus::free);
}

// Random motions among random obstacles against dense sampling with the brute-force contact
// oracle: sampled contacts only in segments reported colliding, no later than t_hit; waypoint
// distances equal to brute force over all triangle pairs.
TEST_F(PathCheckTest, AgreesWithDenseSamplingAndBruteForceDistances) {
  const Mesh env = make_tetrahedra({0, 0, 0}, {6, 6, 6}, 40, 0.8, 21);
  const Mesh object = make_tetrahedra({-0.6, -0.6, -0.6}, {0.6, 0.6, 0.6}, 6, 0.5, 22);
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back({"soup", save("soup", env), false, Pose{}});
  scene.objects.push_back({"flyer", save("flyer", object), 0});
  std::uint64_t rng = 5;
  std::vector<Waypoint> waypoints;
  for (int i = 0; i < 36; ++i) {
    auto u = [&] { return 2 * next_uniform(rng) - 1; };
    waypoints.push_back(at(i, 6 * next_uniform(rng), 6 * next_uniform(rng), 6 * next_uniform(rng),
                           3 * next_uniform(rng), {u(), u(), u()}));
    // Every third segment a pure translation (decided by sweeps, the others by advancement).
    if (i % 3 == 2) waypoints.back().rotation = waypoints[waypoints.size() - 2].rotation;
  }
  const Trajectory path = one_path("flyer", waypoints);
  PathCheckOptions o = options(true);
  o.time_tolerance = 1e-7;
  const PathReport r = *check_path(scene, path, o);
  ASSERT_EQ(r.segments.size(), waypoints.size() - 1);
  int colliding = 0;
  for (std::size_t s = 0; s < r.segments.size(); ++s) {
    SCOPED_TRACE("segment " + std::to_string(s));
    const SegmentReport& seg = r.segments[s];
    EXPECT_NE(seg.status, SegmentStatus::undecided);
    constexpr int n = 400;
    double first = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= n; ++i) {
      const double t = seg.t0 + (seg.t1 - seg.t0) * i / n;
      if (!brute_force_contacts(env, object, to_pose(state_at(waypoints, t))).empty()) {
        first = t;
        break;
      }
    }
    if (std::isfinite(first)) {
      ASSERT_EQ(seg.status, SegmentStatus::collides);
      EXPECT_LE(seg.t_hit, first);
    }
    if (seg.status == SegmentStatus::collides) {
      ++colliding;
      // Touching at t_hit, or (grazing) within the time tolerance after it.
      const bool at =
          !brute_force_contacts(env, object, to_pose(state_at(waypoints, seg.t_hit))).empty();
      const bool after =
          !brute_force_contacts(env, object,
                                to_pose(state_at(waypoints, seg.t_hit + o.time_tolerance)))
               .empty();
      EXPECT_TRUE(at || after);
    }
  }
  EXPECT_GT(colliding, 3);  // the scene is dense enough to test something
  // A free segment's least distance is the distance at min_distance_t; over a translation it is
  // the least over the whole segment, so no sample comes nearer.
  int free_translations = 0;
  for (std::size_t s = 0; s < r.segments.size(); ++s) {
    const SegmentReport& seg = r.segments[s];
    if (seg.status != SegmentStatus::free) continue;
    SCOPED_TRACE("free segment " + std::to_string(s));
    auto distance_at = [&](double t) {
      return brute_force_distance(env, Pose{}, object, to_pose(state_at(waypoints, t)));
    };
    EXPECT_NEAR(distance_at(seg.min_distance_t), seg.min_distance, 1e-7);
    EXPECT_EQ(seg.min_distance_with, "soup");
    if (s % 3 != 1) continue;  // a rotation: the least over the check's samples only
    ++free_translations;
    for (int i = 0; i <= 40; ++i) {
      EXPECT_GE(distance_at(seg.t0 + (seg.t1 - seg.t0) * i / 40), seg.min_distance - 1e-12);
    }
  }
  EXPECT_GT(free_translations, 3);
  // Waypoint distances against all pairs.
  for (const WaypointReport& w : r.waypoints) {
    const double least =
        brute_force_distance(env, Pose{}, object, to_pose(state_at(waypoints, w.t)));
    EXPECT_EQ(w.min_distance, least) << "t=" << w.t;
    EXPECT_EQ(w.collides, least == 0);
  }
}

// Every distance sample of a continuous check (the plot's points, the segments' minima) is the
// least distance to everything the object is checked against, although the check itself queries
// fewer: pairs beyond their caps (a near plate is dropped when a fast object's cap still keeps a
// farther one) and pairs decided by sweeps are left out of its queries.
TEST_F(PathCheckTest, SampleDistancesAreLeastOverEverything) {
  const Mesh plate = make_triangle({-20, 3, -5}, {20, 3, -5}, {0, 3, 5});
  const Mesh octa = make_octahedron();
  const Mesh cube = make_box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5});
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back({"plate", save("plate", plate), false, Pose{}});
  scene.objects.push_back({"turner", save("turner", octa), 0});
  scene.objects.push_back({"runner", save("runner", cube), 0});
  Trajectory t;
  t.file = "trajectory";
  t.objects = {"turner", "runner"};
  // The turner rotates slowly 2 below the plate; the runner translates fast 7 above it.
  t.paths = {{at(0, 0, 0, 0), at(1, 1, 0, 0, 0.5)}, {at(0, -50, 10, 0), at(1, 50, 10, 0)}};
  const PathReport r = *check_path(scene, t, options(true));
  ASSERT_EQ(r.segments.size(), 2u);
  const Mesh* meshes[2] = {&octa, &cube};
  std::size_t checked = 0;
  for (const PathSample& s : r.samples) {
    const std::uint32_t other = 1 - s.object;
    const Pose own = to_pose(state_at(t.paths[s.object], s.t));
    const double least =
        std::min(brute_force_distance(plate, Pose{}, *meshes[s.object], own),
                 brute_force_distance(*meshes[other], to_pose(state_at(t.paths[other], s.t)),
                                      *meshes[s.object], own));
    EXPECT_NEAR(s.distance, least, 1e-9) << r.objects[s.object] << " t=" << s.t;
    ++checked;
  }
  EXPECT_GT(checked, 4u);
  for (const SegmentReport& seg : r.segments) {
    EXPECT_EQ(seg.status, SegmentStatus::free);
    // The turner is 2 from the plate at t = 0 (its corner (0, 1, 0)); the runner 6.5 at best.
    EXPECT_NEAR(seg.min_distance, seg.object == "turner" ? 2.0 : 6.5, 1e-9) << seg.object;
    EXPECT_EQ(seg.min_distance_with, "plate");
    if (seg.object == "turner") {
      EXPECT_EQ(seg.min_distance_t, 0.0);
    }
  }
}

TEST_F(PathCheckTest, ResultsDoNotDependOnThreads) {
  const Mesh env = make_tetrahedra({0, 0, 0}, {6, 6, 6}, 30, 0.8, 31);
  const Mesh object = make_tetrahedra({-0.6, -0.6, -0.6}, {0.6, 0.6, 0.6}, 5, 0.5, 32);
  Scene scene;
  scene.file = "scene";
  scene.environment.push_back({"soup", save("soup", env), false, Pose{}});
  scene.objects.push_back({"flyer", save("flyer", object), 0});
  std::uint64_t rng = 8;
  std::vector<Waypoint> waypoints;
  for (int i = 0; i < 12; ++i) {
    waypoints.push_back(at(0.5 * i, 6 * next_uniform(rng), 6 * next_uniform(rng),
                           6 * next_uniform(rng), 2 * next_uniform(rng), {0, 1, 1}));
  }
  const Trajectory path = one_path("flyer", waypoints);
  PathCheckOptions one = options(true), two = options(true);
  one.threads = 1;
  two.threads = 2;
  const PathReport a = *check_path(scene, path, one), b = *check_path(scene, path, two);
  ASSERT_EQ(a.segments.size(), b.segments.size());
  for (std::size_t i = 0; i < a.segments.size(); ++i) {
    EXPECT_EQ(a.segments[i].status, b.segments[i].status);
    EXPECT_EQ(a.segments[i].steps, b.segments[i].steps);
    if (a.segments[i].status == SegmentStatus::collides) {
      EXPECT_EQ(a.segments[i].t_hit, b.segments[i].t_hit);
    }
  }
}

TEST_F(PathCheckTest, InconsistentInputsAreErrors) {
  Scene scene;
  scene.file = "scene";
  scene.objects.push_back({"cube", save("cube", make_box({0, 0, 0}, {1, 1, 1})), 0});
  EXPECT_THROW(check_path(scene, one_path("other", {at(0, 0, 0, 0)}), options(false)),
               std::invalid_argument);
  PathCheckOptions o = options(false);
  o.bv = BvType::obb;
  EXPECT_THROW(check_path(scene, one_path("cube", {at(0, 0, 0, 0)}), o), std::invalid_argument);
  o = options(false);
  o.clearance = -1;
  EXPECT_THROW(check_path(scene, one_path("cube", {at(0, 0, 0, 0)}), o), std::invalid_argument);
}

}  // namespace
}  // namespace kdop
