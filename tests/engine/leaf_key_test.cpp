// The prefilter keys of environment triangles (engine/leaf_test.hpp) are the same floats however
// they are reached: computed whole at once, through the per-pose cache (corners first, the rest
// from the corners kept for it; on a vector ISA a whole group of slots at once), or through the
// uncached path of split tasks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/dop_dispatch.hpp"
#include "engine/leaf_test.hpp"
#include "geometry/shapes.hpp"
#include "simd/arch.hpp"
#include "simd/isa.hpp"

namespace kdop {
namespace {

bool same_key(const simd::PrefilterTriangle& a, const simd::PrefilterTriangle& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// move_slot writes apply_pose's arithmetic out inline: the exact test's coordinates must be
// apply_pose's (the oracle's) bit for bit, at every scale.
TEST(LeafKey, MovedSlotsAreApplyPoseBitForBit) {
  std::uint64_t rng = 31;
  Mesh mesh;
  for (int i = 0; i < 200; ++i) {
    const double scale = std::ldexp(1.0, static_cast<int>(next_uniform(rng) * 60) - 30);
    std::uint32_t v[3];
    for (std::uint32_t& corner : v) {
      corner =
          mesh.add_vertex(scale * (next_uniform(rng) * 2 - 1), scale * (next_uniform(rng) * 2 - 1),
                          scale * (next_uniform(rng) * 2 - 1));
    }
    mesh.add_triangle(v[0], v[1], v[2]);
  }
  std::vector<std::uint32_t> order(mesh.triangle_count());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const LeafTriangles tris = gather_leaf_triangles(mesh, order);
  StaggeredArrays<double> moved;
  moved.assign(LeafTriangles::array_count, tris.size(), 0, 0.0);
  double* out[LeafTriangles::array_count];
  for (int a = 0; a < LeafTriangles::array_count; ++a) out[a] = moved.mutable_array(a);
  for (int p = 0; p < 20; ++p) {
    const Pose pose = random_pose(rng, {-1e4, -1e4, -1e4}, {1e4, 1e4, 1e4});
    for (std::uint32_t s = 0; s < tris.size(); ++s) {
      move_slot<simd::ScalarArch>(pose, tris, s, out);
      const Triangle t = tris.triangle(s);
      const Vec3 c[3] = {apply_pose(pose, t.p0), apply_pose(pose, t.p1), apply_pose(pose, t.p2)};
      for (int k = 0; k < 3; ++k) {
        const double expected[3] = {c[k].x, c[k].y, c[k].z};
        const double actual[3] = {out[k][s], out[3 + k][s], out[6 + k][s]};
        ASSERT_EQ(std::memcmp(expected, actual, sizeof expected), 0)
            << "pose " << p << " slot " << s;
      }
    }
  }
}

TEST(LeafKey, CachedAndUncachedKeysEqualTheWholeKey) {
  std::uint64_t rng = 21;
  Mesh mesh;
  for (int i = 0; i < 64; ++i) {
    std::uint32_t v[3];
    for (std::uint32_t& corner : v) {
      corner = mesh.add_vertex(next_uniform(rng) * 20 - 10, next_uniform(rng) * 20 - 10,
                               next_uniform(rng) * 20 - 10);
    }
    mesh.add_triangle(v[0], v[1], v[2]);
  }
  std::vector<std::uint32_t> order(mesh.triangle_count());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const LeafTriangles tris = gather_leaf_triangles(mesh, order);
  std::vector<Triangle> triangles;
  for (std::uint32_t s = 0; s < tris.size(); ++s) triangles.push_back(tris.triangle(s));
  PrefilterKeyCache cache;
  cache.size_once(16);  // fewer entries than triangles: slots evict each other
  std::uint32_t epoch = 0;
  for (int pose_index = 0; pose_index < 8; ++pose_index) {
    const Pose pose = random_pose(rng, {-5, -5, -5}, {5, 5, 5});
    const ObjectFrame frame = make_object_frame<simd::ScalarArch>(3.0, pose);
    ++epoch;
    UncachedKey uncached;
    for (std::uint32_t slot = 0; slot < triangles.size(); ++slot) {
      const Triangle& te = triangles[slot];
      const simd::PrefilterTriangle whole = object_frame_key<simd::ScalarArch>(frame, te);
      // Corners first, then (for every other triangle) the rest, as the leaf test asks.
      const simd::PrefilterTriangle& corners =
          cached_key<simd::ScalarArch>(cache, epoch, frame, tris, slot, false);
      EXPECT_EQ(std::memcmp(corners.x, whole.x, sizeof whole.x), 0);
      EXPECT_EQ(corners.slab_margin, whole.slab_margin);
      const simd::PrefilterTriangle& u_corners =
          uncached_key<simd::ScalarArch>(uncached, frame, tris, slot, false);
      EXPECT_EQ(std::memcmp(u_corners.z, whole.z, sizeof whole.z), 0);
      if (slot % 2 == 0) {
        EXPECT_TRUE(
            same_key(cached_key<simd::ScalarArch>(cache, epoch, frame, tris, slot, true), whole))
            << "pose " << pose_index << " slot " << slot;
        EXPECT_TRUE(
            same_key(uncached_key<simd::ScalarArch>(uncached, frame, tris, slot, true), whole));
      }
    }
    // Asked again in the same pose, in another order: whole keys, from the cache or made whole.
    for (std::uint32_t slot = static_cast<std::uint32_t>(triangles.size()); slot-- > 0;) {
      const Triangle& te = triangles[slot];
      EXPECT_TRUE(same_key(cached_key<simd::ScalarArch>(cache, epoch, frame, tris, slot, true),
                           object_frame_key<simd::ScalarArch>(frame, te)))
          << "pose " << pose_index << " slot " << slot;
    }
  }
}

// Every ISA's cache computes whole keys a group of consecutive slots at a time, in double-precision
// vectors (2, 4 or 8 slots), with the scalar key's operations in the same order: the same floats
// bit for bit, at every scale (to 2^+-40, where the margins' terms change places), for triangles
// of every shape (degenerate ones too: the zero normal), in caches large enough for a group and
// too small for one (mask below the group: one key at a time), mixed with corner-only asks.
TEST(LeafKey, EveryIsaCachesTheScalarKeys) {
  std::uint64_t rng = 57;
  Mesh mesh;
  for (int i = 0; i < 301; ++i) {  // not a multiple of any group: the last slots fall back
    const double scale = std::ldexp(1.0, static_cast<int>(next_uniform(rng) * 80) - 40);
    std::uint32_t v[3];
    for (std::uint32_t& corner : v) {
      corner =
          mesh.add_vertex(scale * (next_uniform(rng) * 2 - 1), scale * (next_uniform(rng) * 2 - 1),
                          scale * (next_uniform(rng) * 2 - 1));
    }
    if (i % 7 == 3) v[2] = v[1];  // degenerate: two corners shared
    mesh.add_triangle(v[0], v[1], v[2]);
  }
  std::vector<std::uint32_t> order(mesh.triangle_count());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const LeafTriangles tris = gather_leaf_triangles(mesh, order);
  int groups_checked = 0;
  for (simd::Isa isa : simd::supported_isas()) {
    const CachedKeyFn key_of = cached_key_for(isa);
    // Slots per group on this ISA (engine/leaf_test.hpp, key_group_size).
    const std::uint32_t group_size = isa == simd::Isa::avx512 ? 8
                                     : isa == simd::Isa::avx2 ? 4
                                     : isa == simd::Isa::sse4 ? 2
                                                              : 1;
    for (std::uint32_t entries : {1u, 2u, 4u, 16u, 4096u}) {
      PrefilterKeyCache cache;
      cache.size_once(entries);
      std::uint32_t epoch = 0;
      for (int pose_index = 0; pose_index < 12; ++pose_index) {
        const double reach = std::ldexp(1.0, pose_index * 6 - 30);
        const Pose pose = random_pose(rng, {-reach, -reach, -reach}, {reach, reach, reach});
        // Object radii 2^-40 to 2^37: past both of the edge axes' limits (2^-30, 1e9).
        const double radius = std::ldexp(1.0, pose_index * 7 - 40);
        const ObjectFrame frame = make_object_frame<simd::ScalarArch>(radius, pose);
        ++epoch;
        for (std::uint32_t k = 0; k < tris.size(); ++k) {
          // A stride through the slots, so that groups are entered at every offset.
          const std::uint32_t slot =
              (k * 37 + static_cast<std::uint32_t>(pose_index)) % tris.size();
          const simd::PrefilterTriangle expected =
              object_frame_key<simd::ScalarArch>(frame, tris.triangle(slot));
          if (k % 5 == 0) {
            const simd::PrefilterTriangle& corners = key_of(cache, epoch, frame, tris, slot, false);
            ASSERT_EQ(std::memcmp(corners.x, expected.x, sizeof expected.x), 0);
            ASSERT_EQ(std::memcmp(corners.y, expected.y, sizeof expected.y), 0);
            ASSERT_EQ(std::memcmp(corners.z, expected.z, sizeof expected.z), 0);
          }
          ASSERT_TRUE(same_key(key_of(cache, epoch, frame, tris, slot, true), expected))
              << simd::to_string(isa) << " entries " << entries << " pose " << pose_index
              << " slot " << slot;
          // Where a group fits the cache and the slots, the whole group came with it.
          const std::uint32_t group = slot / group_size * group_size;
          if (group_size > 1 && entries >= group_size && group + group_size <= tris.size()) {
            for (std::uint32_t g = 0; g < group_size; ++g) {
              const std::uint32_t at = (group + g) & cache.mask;
              ASSERT_EQ(cache.slot[at], group + g);
              ASSERT_EQ(cache.epoch[at], epoch);
              ASSERT_EQ(cache.whole[at], 1);
            }
            ++groups_checked;
          }
        }
      }
    }
  }
  // Every vector ISA took the group path (none on a machine with the scalar ISA only).
  EXPECT_GT(groups_checked, simd::supported_isas().size() > 1 ? 5000 : -1);
}

}  // namespace
}  // namespace kdop
