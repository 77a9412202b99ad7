// The prefilter keys of environment triangles (engine/leaf_test.hpp) are the same floats however
// they are reached: computed whole at once, through the per-pose cache (corners first, the rest
// from the corners kept for it), or through the uncached path of split tasks.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/leaf_test.hpp"
#include "geometry/shapes.hpp"
#include "simd/arch.hpp"

namespace kdop {
namespace {

bool same_key(const simd::PrefilterTriangle& a, const simd::PrefilterTriangle& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(LeafKey, CachedAndUncachedKeysEqualTheWholeKey) {
  std::uint64_t rng = 21;
  std::vector<Triangle> triangles;
  for (int i = 0; i < 64; ++i) {
    Vec3 p[3];
    for (Vec3& c : p) {
      c = {next_uniform(rng) * 20 - 10, next_uniform(rng) * 20 - 10, next_uniform(rng) * 20 - 10};
    }
    triangles.push_back({p[0], p[1], p[2]});
  }
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
          cached_key<simd::ScalarArch>(cache, epoch, frame, slot, te, false);
      EXPECT_EQ(std::memcmp(corners.x, whole.x, sizeof whole.x), 0);
      EXPECT_EQ(corners.slab_margin, whole.slab_margin);
      const simd::PrefilterTriangle& u_corners =
          uncached_key<simd::ScalarArch>(uncached, frame, slot, te, false);
      EXPECT_EQ(std::memcmp(u_corners.z, whole.z, sizeof whole.z), 0);
      if (slot % 2 == 0) {
        EXPECT_TRUE(
            same_key(cached_key<simd::ScalarArch>(cache, epoch, frame, slot, te, true), whole))
            << "pose " << pose_index << " slot " << slot;
        EXPECT_TRUE(
            same_key(uncached_key<simd::ScalarArch>(uncached, frame, slot, te, true), whole));
      }
    }
    // Asked again in the same pose, in another order: whole keys, from the cache or made whole.
    for (std::uint32_t slot = static_cast<std::uint32_t>(triangles.size()); slot-- > 0;) {
      const Triangle& te = triangles[slot];
      EXPECT_TRUE(same_key(cached_key<simd::ScalarArch>(cache, epoch, frame, slot, te, true),
                           object_frame_key<simd::ScalarArch>(frame, te)))
          << "pose " << pose_index << " slot " << slot;
    }
  }
}

}  // namespace
}  // namespace kdop
