#include "engine/tumble.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/dop_dispatch.hpp"
#include "simd/isa.hpp"

#include "tests/support/containment.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

// Each node's slots: [first[n], first[n] + count[n]) (a node's slots follow its left child's).
struct NodeSlots {
  std::vector<std::uint32_t> first, count;
};
NodeSlots node_slots(const TreeTopology& topo) {
  NodeSlots r{std::vector<std::uint32_t>(topo.node_count()),
              std::vector<std::uint32_t>(topo.node_count())};
  for (std::uint32_t i = topo.node_count(); i-- > 0;) {
    r.first[i] = topo.is_leaf(i) ? topo.child_or_first[i] : r.first[i + 1];
    r.count[i] = topo.is_leaf(i) ? topo.leaf_count[i] : r.count[i + 1] + r.count[topo.right(i)];
  }
  return r;
}

// Every tumbled node DOP contains its triangles transformed by apply_pose; the hill-climbed
// root equals the exact DOP of the transformed hull vertices (same formula, brute force).
template <int K>
void check_k() {
  using Shape = DopShape<K>;
  std::uint64_t rng = 17;
  Mesh m = make_torus({3, -2, 1}, 1, 0.3, 24, 12, 0.2);
  test::add_degenerate_and_duplicates(m, rng, 20);
  append_mesh(m, test::make_grid_plate(2, 0.0));
  const FlyingDopTree<K> fly =
      build_flying_dop_tree<K>(m, BuildConfig{SplitRule::splatter, SplitPoint::mean, 8});
  const TreeTopology& topo = fly.tree.topology;
  const NodeSlots slots = node_slots(topo);
  const std::vector<std::uint32_t>&first = slots.first, &count = slots.count;
  std::vector<float> out(Shape::floats);
  for (int p = 0; p < 25; ++p) {
    const Pose pose = p == 0 ? Pose{} : test::random_pose(rng, {-1e3, -1e3, -1e3}, {1e3, 1e3, 1e3});
    TumbleFrame<K> frame = make_tumble_frame(fly, pose);
    add_affine_frame(fly, frame);
    std::vector<float> affine(Shape::floats);
    for (std::uint32_t n = 0; n < topo.node_count(); ++n) {
      if (n == 0) {
        tumble_root(fly, frame, out.data());
        affine = out;
      } else {
        tumble_node(fly, frame, n, out.data());
        tumble_node_affine(fly, frame, n, affine.data());
      }
      for (std::uint32_t s = first[n]; s < first[n] + count[n]; ++s) {
        const Triangle t = fly.tree.triangles.triangle(s);
        for (const Vec3& corner : {t.p0, t.p1, t.p2}) {
          const Vec3 q = apply_pose(pose, corner);
          ASSERT_TRUE(test::dop_contains<K>(out.data(), q.x, q.y, q.z))
              << "pose " << p << " node " << n;
          ASSERT_TRUE(test::dop_contains<K>(affine.data(), q.x, q.y, q.z))
              << "affine: pose " << p << " node " << n;
        }
      }
    }
    // Root: brute force over the hull vertices with the same arithmetic.
    tumble_root(fly, frame, out.data());
    for (int j = 0; j < Shape::slabs; ++j) {
      const Vec3 d{frame.m_x[j], frame.m_y[j], frame.m_z[j]};
      double hi = -1e300, lo = 1e300;
      for (const Vec3& v : fly.root_hull.points) {
        hi = std::max(hi, dot(d, v) + frame.c[j]);
        lo = std::min(lo, dot(d, v) + frame.c[j]);
      }
      EXPECT_EQ(out[j], float_below(lo - frame.root_widen[j])) << "slab " << j;
      EXPECT_EQ(out[Shape::lanes + j], float_above(hi + frame.root_widen[j])) << "slab " << j;
    }
  }
}

TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactK6) {
  check_k<6>();
}
TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactK14) {
  check_k<14>();
}
TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactK18) {
  check_k<18>();
}
TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactK26) {
  check_k<26>();
}
TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactK32) {
  check_k<32>();
}
TEST(Tumble, BothMethodsContainTransformedTrianglesAndRootIsExactDop8) {
  check_k<8>();
}

// The affine frame along a path, each pose's cones hinted by the previous pose's (as a batch's
// chain does): every re-aligned node still contains its transformed triangles, every hint is a
// cone holding its direction, and along small turns most cones carry over from pose to pose.
template <int K>
void check_hinted_path() {
  using Shape = DopShape<K>;
  const Mesh m = make_torus({1, 2, -1}, 1, 0.3, 24, 12, 0.2);
  const FlyingDopTree<K> fly =
      build_flying_dop_tree<K>(m, BuildConfig{SplitRule::splatter, SplitPoint::mean, 8});
  const TreeTopology& topo = fly.tree.topology;
  const NodeSlots slots = node_slots(topo);
  std::array<std::uint16_t, Shape::slabs> hints;
  hints.fill(NormalFan::no_cone);
  std::vector<float> out(Shape::floats);
  int kept = 0, entries = 0;
  for (int p = 0; p < 120; ++p) {
    const double a = 0.013 * p;
    const Pose pose =
        pose_from_quaternion(0.1 * p, -0.05 * p, 3, std::cos(a / 2), 0.48 * std::sin(a / 2),
                             0.6 * std::sin(a / 2), 0.64 * std::sin(a / 2));
    const auto before = hints;
    TumbleFrame<K> frame = make_tumble_frame(fly, pose);
    add_affine_frame(fly, frame, hints.data());
    for (int j = 0; j < Shape::slabs; ++j) {
      const Vec3 u{frame.m_x[j], frame.m_y[j], frame.m_z[j]};
      double l[3];
      ASSERT_NE(hints[j], NormalFan::no_cone);
      ASSERT_TRUE(cone_holds(normal_fan<K>().cones[hints[j]], u, l)) << "pose " << p;
    }
    if (p > 0) {
      for (std::size_t h = 0; h < hints.size(); ++h) kept += hints[h] == before[h];
      entries += static_cast<int>(hints.size());
    }
    for (std::uint32_t n = 1; n < topo.node_count(); ++n) {
      tumble_node_affine(fly, frame, n, out.data());
      for (std::uint32_t s = slots.first[n]; s < slots.first[n] + slots.count[n]; ++s) {
        const Triangle t = fly.tree.triangles.triangle(s);
        for (const Vec3& corner : {t.p0, t.p1, t.p2}) {
          const Vec3 q = apply_pose(pose, corner);
          ASSERT_TRUE(test::dop_contains<K>(out.data(), q.x, q.y, q.z))
              << "pose " << p << " node " << n;
        }
      }
    }
  }
  EXPECT_GT(kept, entries * 8 / 10);
}

TEST(Tumble, AffineFrameWithHintsAlongAPath) {
  check_hinted_path<6>();
  check_hinted_path<8>();
  check_hinted_path<14>();
  check_hinted_path<18>();
  check_hinted_path<26>();
  check_hinted_path<32>();
}

TEST(Tumble, AffineIsExactForBoxes) {
  // For 6-DOPs (boxes) the fan's cones are the octants and the affine bound is the exact support
  // of the rotated box: it equals the vertex method where that transforms the box's 8 corners
  // (inner nodes), and contains it where a leaf's own corners serve (tighter).
  std::uint64_t rng = 5;
  const Mesh m = make_torus({0, 0, 0}, 1, 0.3, 24, 12, 0.2);
  const FlyingDopTree<6> fly =
      build_flying_dop_tree<6>(m, BuildConfig{SplitRule::splatter, SplitPoint::mean, 8});
  for (int p = 0; p < 20; ++p) {
    const Pose pose = test::random_pose(rng, {-5, -5, -5}, {5, 5, 5});
    TumbleFrame<6> frame = make_tumble_frame(fly, pose);
    add_affine_frame(fly, frame);
    float a[8], v[8];
    for (std::uint32_t n = 1; n < fly.tree.topology.node_count(); ++n) {
      tumble_node(fly, frame, n, v);
      tumble_node_affine(fly, frame, n, a);
      const bool box = !fly.tree.topology.is_leaf(n);
      for (int j = 0; j < 3; ++j) {
        EXPECT_LE(a[j], v[j] + 1e-4f);
        EXPECT_GE(a[4 + j], v[4 + j] - 1e-4f);
        if (box) {
          EXPECT_NEAR(a[j], v[j], 1e-4);
          EXPECT_NEAR(a[4 + j], v[4 + j], 1e-4);
        }
      }
    }
  }
}

TEST(Tumble, ApproximationIsTightAtIdentity) {
  // At the identity pose a tumbled DOP is the node's own DOP, widened only by rounding.
  const Mesh m = make_sphere({0, 0, 0}, 1, 16, 8);
  const FlyingDopTree<18> fly = build_flying_dop_tree<18>(m, BuildConfig::object_defaults());
  const TumbleFrame<18> frame = make_tumble_frame(fly, Pose{});
  std::vector<float> out(DopShape<18>::floats);
  for (std::uint32_t n = 1; n < fly.tree.topology.node_count(); ++n) {
    tumble_node(fly, frame, n, out.data());
    for (int j = 0; j < DopShape<18>::slabs; ++j) {
      EXPECT_NEAR(out[j], fly.tree.node_bounds(n)[j], 1e-5);
      EXPECT_NEAR(out[DopShape<18>::lanes + j], fly.tree.node_bounds(n)[DopShape<18>::lanes + j],
                  1e-5);
    }
  }
}

// Every ISA's queries make the scalar frame: on a vector ISA the slabs are lanes, with the same
// operations in the same order, so every value is the scalar one (== also equates a zero's signs,
// the one difference the lanes allow: see frame_lanes). Poses at identity, quarter turns (zero
// entries: the signed-zero cases), random rotations, translations from 2^-40 to 2^40, and a
// matrix pose off a rotation by 1e-7.
template <int K>
void check_frames_on_every_isa() {
  using Shape = DopShape<K>;
  std::uint64_t rng = 91;
  const Mesh m = make_torus({3, -2, 1}, 1, 0.3, 24, 12, 0.2);
  const FlyingDopTree<K> fly = build_flying_dop_tree<K>(m, BuildConfig::object_defaults());
  std::vector<Pose> poses{Pose{}, pose_from_quaternion(1, -2, 3, 1, 1, 0, 0),
                          pose_from_quaternion(-0.5, 0, 0, 1, 0, 0, 1),
                          pose_from_matrix({0, -1, 0, 4, 1, 0, 1e-7, -5, 0, 0, 1, 6, 0, 0, 0, 1})};
  for (int p = 0; p < 60; ++p) {
    const double scale = std::ldexp(1.0, (p * 7) % 81 - 40);
    poses.push_back(test::random_pose(rng, {-scale, -scale, -scale}, {scale, scale, scale}));
  }
  const TumbleFrameFn<K> scalar = tumble_frame_for<K>(simd::Isa::scalar);
  for (simd::Isa isa : simd::supported_isas()) {
    const TumbleFrameFn<K> frame_of = tumble_frame_for<K>(isa);
    for (std::size_t p = 0; p < poses.size(); ++p) {
      const TumbleFrame<K> want = scalar(fly, poses[p]);
      const TumbleFrame<K> got = frame_of(fly, poses[p]);
      const std::string at = std::string(simd::to_string(isa)) + ", pose " + std::to_string(p);
      EXPECT_EQ(got.t_max, want.t_max) << at;
      for (int j = 0; j < Shape::slabs; ++j) {
        EXPECT_EQ(got.m_x[j], want.m_x[j]) << at << ", slab " << j;
        EXPECT_EQ(got.m_y[j], want.m_y[j]) << at << ", slab " << j;
        EXPECT_EQ(got.m_z[j], want.m_z[j]) << at << ", slab " << j;
        EXPECT_EQ(got.c[j], want.c[j]) << at << ", slab " << j;
        EXPECT_EQ(got.root_widen[j], want.root_widen[j]) << at << ", slab " << j;
      }
      for (int j = 0; j < Shape::lanes; ++j) {
        EXPECT_EQ(got.slabs.mx[j], want.slabs.mx[j]) << at << ", lane " << j;
        EXPECT_EQ(got.slabs.my[j], want.slabs.my[j]) << at << ", lane " << j;
        EXPECT_EQ(got.slabs.mz[j], want.slabs.mz[j]) << at << ", lane " << j;
        EXPECT_EQ(got.slabs.c[j], want.slabs.c[j]) << at << ", lane " << j;
        EXPECT_EQ(got.widen[j], want.widen[j]) << at << ", lane " << j;
      }
    }
  }
}

TEST(Tumble, EveryIsaMakesTheScalarFrame) {
  check_frames_on_every_isa<6>();
  check_frames_on_every_isa<8>();
  check_frames_on_every_isa<14>();
  check_frames_on_every_isa<18>();
  check_frames_on_every_isa<26>();
  check_frames_on_every_isa<32>();
}

}  // namespace
}  // namespace kdop
