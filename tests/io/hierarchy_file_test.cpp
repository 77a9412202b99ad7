// Hierarchy files: round trips for every K and both roles (field by field, bit for bit), the
// same answers as built hierarchies, and damaged files of every kind failing with an IoError
// that names the problem, never a crash.
#include "io/hierarchy_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/collision_pair.hpp"
#include "geometry/shapes.hpp"
#include "io/io_error.hpp"
#include "io/mesh_writer.hpp"
#include "tests/support/allocation_probe.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using test::io_error_of;
using ::testing::HasSubstr;

// Header offsets of io/hierarchy_file.hpp's table that the tests poke at.
constexpr std::size_t kVersionAt = 8, kByteOrderAt = 12, kChecksumAt = 16, kKAt = 32, kRoleAt = 34,
                      kNodesAt = 48, kTrianglesAt = 52, kClimbStartsAt = 72, kSectionTableAt = 152;

Mesh env_mesh() {
  return make_torus({0, 0, 0}, 3.0, 1.0, 16, 8, 0.15);  // 256 triangles
}
Mesh object_mesh() {
  return make_sphere({0.5, 0.2, 0.1}, 1.2, 10, 6);  // 100 triangles
}

template <class Array>
void expect_same_bytes(const Array& a, const Array& b, const char* what) {
  using T = std::remove_cvref_t<decltype(a[0])>;
  ASSERT_EQ(a.size(), b.size()) << what;
  EXPECT_EQ(0, a.empty() ? 0 : std::memcmp(a.data(), b.data(), a.size() * sizeof(T))) << what;
}

template <class T>
void expect_same_bytes(const StaggeredArrays<T>& a, const StaggeredArrays<T>& b, const char* what) {
  ASSERT_EQ(a.bytes(), b.bytes()) << what;
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.bytes())) << what;
}

template <int K>
void expect_same(const DopTree<K>& a, const DopTree<K>& b) {
  expect_same_bytes(a.topology.child_or_first, b.topology.child_or_first, "child_or_first");
  expect_same_bytes(a.topology.leaf_count, b.topology.leaf_count, "leaf_count");
  EXPECT_EQ(a.topology.depth, b.topology.depth);
  EXPECT_NE(a.topology.shape_hash, 0u);  // hashed where the arrays were made: built and loaded
  EXPECT_EQ(a.topology.shape_hash, b.topology.shape_hash);
  expect_same_bytes(a.bounds, b.bounds, "bounds");
  expect_same_bytes(a.size, b.size, "size");
  expect_same_bytes(a.triangles.original, b.triangles.original, "original");
  expect_same_bytes(a.triangles.corners, b.triangles.corners, "corners");
  // Derived at build and at load for an environment, not stored; a flying tree has none.
  expect_same_bytes(a.corner_floats, b.corner_floats, "corner floats");
}

template <int K>
void expect_same(const FlyingDopTree<K>& a, const FlyingDopTree<K>& b) {
  expect_same(a.tree, b.tree);
  expect_same_bytes(a.vertex_first, b.vertex_first, "vertex_first");
  expect_same_bytes(a.vx, b.vx, "vx");
  expect_same_bytes(a.vy, b.vy, "vy");
  expect_same_bytes(a.vz, b.vz, "vz");
  EXPECT_EQ(a.vertex_error, b.vertex_error);
  EXPECT_EQ(a.vertex_extent, b.vertex_extent);
  expect_same_bytes(a.floats.arrays, b.floats.arrays, "leaf floats");
  EXPECT_EQ(a.corner_radius, b.corner_radius);
  EXPECT_EQ(a.bound_extent, b.bound_extent);
  EXPECT_EQ(a.sphere_center.x, b.sphere_center.x);
  EXPECT_EQ(a.sphere_center.y, b.sphere_center.y);
  EXPECT_EQ(a.sphere_center.z, b.sphere_center.z);
  EXPECT_EQ(a.sphere_radius, b.sphere_radius);
  expect_same_bytes(a.root_hull.points, b.root_hull.points, "hull points");
  expect_same_bytes(a.root_hull.first_edge, b.root_hull.first_edge, "hull first_edge");
  expect_same_bytes(a.root_hull.edges, b.root_hull.edges, "hull edges");
  EXPECT_EQ(a.root_hull.outside_bound, b.root_hull.outside_bound);
  EXPECT_EQ(a.root_hull.exhaustive, b.root_hull.exhaustive);
  expect_same_bytes(a.root_starts.vertex, b.root_starts.vertex, "climb starts");
  EXPECT_EQ(a.root_starts.grid, b.root_starts.grid);
  ASSERT_FALSE(a.root_inner.x.empty());  // derived at load, not stored: the same points
  expect_same_bytes(a.root_inner.x, b.root_inner.x, "inner points x");
  expect_same_bytes(a.root_inner.y, b.root_inner.y, "inner points y");
  expect_same_bytes(a.root_inner.z, b.root_inner.z, "inner points z");
}

void expect_same(const BuildConfig& a, const BuildConfig& b) {
  EXPECT_EQ(a.rule, b.rule);
  EXPECT_EQ(a.split_point, b.split_point);
  EXPECT_EQ(a.leaf_size, b.leaf_size);
  EXPECT_EQ(a.candidates, b.candidates);
  EXPECT_EQ(a.all_directions, b.all_directions);
}

// A configuration unlike the defaults, so every stored field is seen to round-trip.
BuildConfig unusual_config(std::uint32_t leaf_size) {
  BuildConfig c;
  c.rule = SplitRule::longest_side;
  c.split_point = SplitPoint::median;
  c.leaf_size = leaf_size;
  c.candidates = 5;
  c.all_directions = true;
  return c;
}

template <class T>
class HierarchyFileRoundTrip : public ::testing::Test {};
using Ks = ::testing::Types<std::integral_constant<int, 6>, std::integral_constant<int, 8>,
                            std::integral_constant<int, 14>, std::integral_constant<int, 18>,
                            std::integral_constant<int, 26>, std::integral_constant<int, 32>>;
TYPED_TEST_SUITE(HierarchyFileRoundTrip, Ks);

TYPED_TEST(HierarchyFileRoundTrip, EnvironmentLoadsAsBuilt) {
  constexpr int K = TypeParam::value;
  for (const BuildConfig& config : {BuildConfig::environment_defaults(), unusual_config(3)}) {
    const DopTree<K> built = build_dop_tree<K>(env_mesh(), config);
    const std::string bytes = format_hierarchy_file(EnvironmentHierarchy{built}, config);
    const EnvironmentFile loaded = parse_environment_file(bytes, "env.kdop");
    ASSERT_TRUE(std::holds_alternative<DopTree<K>>(loaded.hierarchy));
    ASSERT_EQ(built.corner_floats.size(),
              std::size_t{built.triangles.size()} * kCornerFloatsPerSlot);
    expect_same(built, std::get<DopTree<K>>(loaded.hierarchy));
    expect_same(config, loaded.config);
    // Writing what was loaded gives the same bytes: nothing is lost or left to chance.
    EXPECT_EQ(bytes, format_hierarchy_file(loaded.hierarchy, loaded.config));
  }
}

TYPED_TEST(HierarchyFileRoundTrip, ObjectLoadsAsBuilt) {
  constexpr int K = TypeParam::value;
  for (const BuildConfig& config : {BuildConfig::object_defaults(), unusual_config(7)}) {
    const FlyingDopTree<K> built = build_flying_dop_tree<K>(object_mesh(), config);
    const std::string bytes = format_hierarchy_file(ObjectHierarchy{built}, config);
    const ObjectFile loaded = parse_object_file(bytes, "object.kdop");
    ASSERT_TRUE(std::holds_alternative<FlyingDopTree<K>>(loaded.hierarchy));
    expect_same(built, std::get<FlyingDopTree<K>>(loaded.hierarchy));
    expect_same(config, loaded.config);
    EXPECT_EQ(bytes, format_hierarchy_file(loaded.hierarchy, loaded.config));
  }
}

// A large hull gets a finer cube map of climb starts (geometry/convex_hull.hpp); the file keeps it.
TEST(HierarchyFileRoundTripGrid, LargeHullKeepsItsFinerClimbStarts) {
  const Mesh sphere = make_sphere({0.1, 0.2, 0.3}, 2.0, 80, 40);  // 3,122 hull vertices
  const FlyingDopTree<14> built = build_flying_dop_tree<14>(sphere, BuildConfig::object_defaults());
  EXPECT_EQ(built.root_starts.grid, 32);
  const std::string bytes =
      format_hierarchy_file(ObjectHierarchy{built}, BuildConfig::object_defaults());
  const ObjectFile loaded = parse_object_file(bytes, "object.kdop");
  ASSERT_TRUE(std::holds_alternative<FlyingDopTree<14>>(loaded.hierarchy));
  expect_same(built, std::get<FlyingDopTree<14>>(loaded.hierarchy));
}

TYPED_TEST(HierarchyFileRoundTrip, FlatObjectKeepsItsExhaustiveHull) {
  constexpr int K = TypeParam::value;
  Mesh flat;  // one triangle: no 3D hull, so hill-climbing searches every point
  flat.add_vertex(0, 0, 0);
  flat.add_vertex(1, 0, 0);
  flat.add_vertex(0, 1, 0);
  flat.add_triangle(0, 1, 2);
  const FlyingDopTree<K> built = build_flying_dop_tree<K>(flat, BuildConfig::object_defaults());
  ASSERT_TRUE(built.root_hull.exhaustive);
  const ObjectFile loaded = parse_object_file(
      format_hierarchy_file(ObjectHierarchy{built}, BuildConfig::object_defaults()), "flat.kdop");
  expect_same(built, std::get<FlyingDopTree<K>>(loaded.hierarchy));
}

class HierarchyFileTest : public test::ScratchDirTest {};

// Loaded hierarchies answer every query exactly as freshly built ones, counters included.
TEST_F(HierarchyFileTest, LoadedPairAnswersLikeBuiltPair) {
  const Mesh env = env_mesh(), object = object_mesh();
  for (BvType bv : {BvType::kdop6, BvType::dop8, BvType::kdop14, BvType::kdop18, BvType::kdop26,
                    BvType::kdop32, BvType::obb, BvType::rss}) {
    PairConfig config;
    config.bv = bv;
    config.environment.rule = config.object.rule = default_split_rule(bv);
    const std::string env_path = (dir_ / "env.kdop").string();
    const std::string object_path = (dir_ / "object.kdop").string();
    write_file_atomic(
        env_path, format_hierarchy_file(build_environment_hierarchy(env, bv, config.environment),
                                        config.environment));
    write_file_atomic(
        object_path,
        format_hierarchy_file(build_object_hierarchy(object, bv, config.object), config.object));
    CollisionPair built(env, object, config);
    CollisionPair loaded(read_environment_file(env_path).hierarchy,
                         read_object_file(object_path).hierarchy, config);
    EXPECT_EQ(loaded.bv(), bv);
    std::uint64_t state = 7;
    int colliding = 0;
    for (int i = 0; i < 200; ++i) {
      const Pose pose = random_pose(state, {-4, -4, -2}, {4, 4, 2});
      for (QueryMode mode : {QueryMode::first_contact, QueryMode::all_contacts}) {
        const QueryResult a = built.query(pose, mode), b = loaded.query(pose, mode);
        ASSERT_EQ(a.collides, b.collides);
        ASSERT_EQ(a.stats.n_v, b.stats.n_v);
        ASSERT_EQ(a.stats.n_p, b.stats.n_p);
        ASSERT_EQ(a.stats.n_u, b.stats.n_u);
        ASSERT_EQ(a.pairs.size(), b.pairs.size());
        for (std::size_t p = 0; p < a.pairs.size(); ++p) {
          EXPECT_EQ(a.pairs[p].env_triangle, b.pairs[p].env_triangle);
          EXPECT_EQ(a.pairs[p].object_triangle, b.pairs[p].object_triangle);
        }
        colliding += a.collides;
      }
    }
    EXPECT_GT(colliding, 20) << "the poses should exercise contacts";
  }
}

TEST_F(HierarchyFileTest, DifferentKsDoNotPair) {
  const std::string message = [&] {
    try {
      CollisionPair pair(build_environment_hierarchy(env_mesh(), BvType::kdop18, {}),
                         build_object_hierarchy(object_mesh(), BvType::kdop14, {}), PairConfig{});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  }();
  EXPECT_THAT(message, HasSubstr("kdop18"));
  EXPECT_THAT(message, HasSubstr("kdop14"));
}

// Loading maps the file and serves the arrays from the mapping (no copy); the hierarchy keeps
// the mapping alive after the file is gone from the directory and the EnvironmentFile is gone.
TEST_F(HierarchyFileTest, LoadedArraysViewTheMappedFile) {
  const Mesh env = env_mesh(), object = object_mesh();
  const std::string env_path = (dir_ / "env.kdop").string();
  const std::string object_path = (dir_ / "object.kdop").string();
  write_file_atomic(
      env_path, format_hierarchy_file(build_environment_hierarchy(env, BvType::kdop18, {}), {}));
  write_file_atomic(object_path,
                    format_hierarchy_file(build_object_hierarchy(object, BvType::kdop18, {}), {}));
  EnvironmentHierarchy env_h = read_environment_file(env_path).hierarchy;
  ObjectHierarchy object_h = read_object_file(object_path).hierarchy;
  const auto& e = std::get<DopTree<18>>(env_h);
  const auto& o = std::get<FlyingDopTree<18>>(object_h);
  for (bool view : {e.bounds.is_view(), e.size.is_view(), e.topology.child_or_first.is_view(),
                    e.topology.leaf_count.is_view(), e.triangles.original.is_view(),
                    o.tree.bounds.is_view(), o.vertex_first.is_view(), o.vx.is_view()}) {
    EXPECT_TRUE(view);
  }
  std::filesystem::remove(env_path);
  std::filesystem::remove(object_path);
  PairConfig config;
  config.bv = BvType::kdop18;
  CollisionPair built(env, object, config);
  CollisionPair loaded(std::move(env_h), std::move(object_h), config);
  std::uint64_t state = 3;
  for (int i = 0; i < 50; ++i) {
    const Pose pose = random_pose(state, {-4, -4, -2}, {4, 4, 2});
    const QueryResult a = built.query(pose, QueryMode::all_contacts);
    const QueryResult b = loaded.query(pose, QueryMode::all_contacts);
    ASSERT_EQ(a.collides, b.collides);
    ASSERT_EQ(a.pairs.size(), b.pairs.size());
  }
}

// ---- damaged files --------------------------------------------------------------------------

std::string small_env_file(BvType bv = BvType::kdop6) {
  return format_hierarchy_file(build_environment_hierarchy(env_mesh(), bv, {}),
                               BuildConfig::environment_defaults());
}

std::string small_object_file(BvType bv = BvType::kdop6) {
  Mesh m = make_sphere({0, 0, 0}, 1.0, 6, 4);  // 36 triangles
  return format_hierarchy_file(build_object_hierarchy(m, bv, {}), BuildConfig::object_defaults());
}

template <class T>
void poke(std::string& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}
template <class T>
T peek(const std::string& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

// The format's checksum, written out one block after the other: XXH3 of the 256 KiB blocks'
// XXH3 digests, over bytes [24, size).
std::uint64_t checksum_of(const std::string& bytes) {
  constexpr std::size_t block = 256 << 10;
  std::vector<std::uint64_t> digests;
  for (std::size_t at = 24; at < bytes.size(); at += block) {
    digests.push_back(XXH3_64bits(bytes.data() + at, std::min(block, bytes.size() - at)));
  }
  return XXH3_64bits(digests.data(), digests.size() * sizeof(std::uint64_t));
}

void fix_checksum(std::string& bytes) {
  poke(bytes, kChecksumAt, checksum_of(bytes));
}

std::string env_error(const std::string& bytes) {
  return io_error_of([&] { parse_environment_file(bytes, "env.kdop"); });
}

std::string object_error(const std::string& bytes) {
  return io_error_of([&] { parse_object_file(bytes, "object.kdop"); });
}

TEST(HierarchyFileErrors, EveryTruncationIsAnError) {
  for (const bool object : {false, true}) {
    const std::string full = object ? small_object_file() : small_env_file();
    for (std::size_t n = 0; n < full.size(); ++n) {
      const std::string prefix = full.substr(0, n);
      const std::string e = io_error_of([&] {
        if (object)
          parse_object_file(prefix, "t.kdop");
        else
          parse_environment_file(prefix, "t.kdop");
      });
      ASSERT_THAT(e, HasSubstr(n == 0 ? "empty file" : "truncated")) << "prefix " << n;
      ASSERT_THAT(e, HasSubstr("t.kdop")) << "prefix " << n;
    }
  }
}

TEST(HierarchyFileErrors, EmptyFileAndWrongMagic) {
  EXPECT_THAT(env_error(""), HasSubstr("env.kdop: byte 0: empty file"));
  std::string bytes = small_env_file();
  bytes[1] = 'X';
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 0: not a kdop hierarchy file: expected magic"));
  EXPECT_THAT(env_error("solid cube\nfacet normal 0 0 1\n"), HasSubstr("not a kdop hierarchy"));
}

TEST(HierarchyFileErrors, ClimbStartsNotACubeMap) {
  std::string bytes = small_object_file();
  poke(bytes, kClimbStartsAt, std::uint32_t{385});
  EXPECT_THAT(object_error(bytes),
              HasSubstr("byte 72: 385 climb starts, expected 384, 1536 or 6144"));
}

TEST(HierarchyFileErrors, WrongVersion) {
  std::string bytes = small_env_file();
  poke(bytes, kVersionAt, std::uint32_t{1});  // version 1 hashed the payload in one piece
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 8: format version 1, expected 2"));
}

TEST(HierarchyFileErrors, BigEndianMarker) {
  std::string bytes = small_env_file();
  poke(bytes, kByteOrderAt, std::uint32_t{0x04030201});
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 12: big-endian file, expected little-endian"));
}

TEST(HierarchyFileErrors, KInconsistentWithBvType) {
  std::string bytes = small_env_file();  // kdop6
  poke(bytes, kKAt, std::uint8_t{18});
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 33: BV type kdop6 does not match K = 18"));
  poke(bytes, kKAt, std::uint8_t{7});
  EXPECT_THAT(env_error(bytes),
              HasSubstr("byte 32: K = 7, expected 6, 8, 14, 18, 26, 32 (or 0: obb, rss)"));
}

TEST(HierarchyFileErrors, WrongRoleNamesBoth) {
  EXPECT_THAT(env_error(small_object_file()),
              HasSubstr("byte 34: holds an object hierarchy, expected an env one"));
  EXPECT_THAT(io_error_of([&] { parse_object_file(small_env_file(), "o.kdop"); }),
              HasSubstr("o.kdop: byte 34: holds an env hierarchy, expected an object one"));
  std::string bytes = small_env_file();
  poke(bytes, kRoleAt, std::uint8_t{9});
  EXPECT_THAT(env_error(bytes), HasSubstr("role code 9"));
}

// Counts the file cannot hold fail before anything is allocated for them.
TEST(HierarchyFileErrors, HugeCountsFailWithoutAllocating) {
  for (const std::size_t at : {kNodesAt, kTrianglesAt}) {
    std::string bytes = small_env_file();
    poke(bytes, at, std::uint32_t{0xFFFFFFFF});
    test::reset_allocation_probe();
    const std::string e = env_error(bytes);
    EXPECT_LT(test::largest_allocation(), std::size_t{1} << 20);
    EXPECT_THAT(e, HasSubstr("4294967295"));
    EXPECT_THAT(e, HasSubstr("bytes, but the counts"));
  }
  // A section table that agrees with a huge count runs past the end of the file.
  std::string bytes = small_env_file();
  const std::uint32_t nodes = 0x40000000;
  poke(bytes, kNodesAt, nodes);
  poke(bytes, kSectionTableAt + 8, std::uint64_t{4} * nodes);
  test::reset_allocation_probe();
  EXPECT_THAT(env_error(bytes), HasSubstr("section child_or_first (4294967296 bytes at offset 448) "
                                          "runs past the end of the file"));
  EXPECT_LT(test::largest_allocation(), std::size_t{1} << 20);
  // An offset near 2^64 must not wrap around when added to its size.
  bytes = small_env_file();
  poke(bytes, kSectionTableAt, std::uint64_t{0xFFFFFFFFFFFFFFC0});
  EXPECT_THAT(env_error(bytes), HasSubstr("runs past the end of the file"));
}

TEST(HierarchyFileErrors, MisalignedOrOverlappingSection) {
  std::string bytes = small_env_file();
  poke(bytes, kSectionTableAt + 16, peek<std::uint64_t>(bytes, kSectionTableAt + 16) + 4);
  EXPECT_THAT(env_error(bytes), HasSubstr("section leaf_count at offset"));
  EXPECT_THAT(env_error(bytes), HasSubstr("expected a multiple of 64"));
  bytes = small_env_file();
  poke(bytes, kSectionTableAt + 16, std::uint64_t{448});
  EXPECT_THAT(env_error(bytes), HasSubstr("overlaps the header or the previous section"));
}

TEST(HierarchyFileErrors, ChecksumMismatch) {
  std::string bytes = small_env_file();
  bytes[bytes.size() - 100] ^= 0x10;
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 16: checksum mismatch"));
}

// With a valid checksum, the structure is what stops a damaged file.
TEST(HierarchyFileErrors, StructuralDamageNamesTheProblem) {
  const std::string good = small_env_file();
  const auto section = [&](int s) { return peek<std::uint64_t>(good, kSectionTableAt + 16 * s); };
  std::string bytes = good;
  poke(bytes, section(0), std::uint32_t{5});  // the root's right child
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("right child"));
  bytes = good;
  poke(bytes, section(4) + 4, peek<std::uint32_t>(good, section(4)));  // original: a repeat
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("not a permutation of 256 triangles"));
  bytes = good;
  poke(bytes, 56, std::uint32_t{1});  // depth
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 56: depth 1, but the tree's is"));
  bytes = good;
  poke(bytes, 56, std::uint32_t{0xFFFFFFFF});  // a depth the tree check must not size a stack by
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 56: depth 4294967295, expected less than the"));
  bytes = good;
  poke(bytes, section(2) + 12, 0.0f);  // kdop6: lane 3 of the root's lo is padding
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("node 0: padding lane 3 is not [-inf, +inf]"));

  const std::string object = small_object_file();
  const auto object_section = [&](int s) {
    return peek<std::uint64_t>(object, kSectionTableAt + 16 * s);
  };
  bytes = object;
  poke(bytes, object_section(13), std::uint32_t{100000});  // a hull edge
  fix_checksum(bytes);
  EXPECT_THAT(io_error_of([&] { parse_object_file(bytes, "o.kdop"); }),
              HasSubstr("hull edge to point 100000 out of range"));
  bytes = object;
  poke(bytes, object_section(6) + 4, std::uint32_t{0xFFFFFFF});  // vertex_first[1]
  fix_checksum(bytes);
  EXPECT_THAT(io_error_of([&] { parse_object_file(bytes, "o.kdop"); }),
              HasSubstr("node vertex ranges decrease"));
  bytes = object;
  poke(bytes, object_section(6) + 4, std::uint32_t{0});  // vertex_first[1]: node 0 has none
  fix_checksum(bytes);
  EXPECT_THAT(io_error_of([&] { parse_object_file(bytes, "o.kdop"); }),
              HasSubstr("node vertex ranges: entry 0 is empty, expected at least one"));
}

// With a valid checksum, a value no build writes (NaN, a coordinate past 1e30, an infinite
// vertex, a negative radius) is refused too: such values made queries answer wrongly. Checked in
// the checksum's pass, named with the byte of the first.
TEST(HierarchyFileErrors, ValueDamageNamesTheProblem) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string good = small_env_file();  // kdop6: 3 slabs in 4 lanes
  const auto section = [](const std::string& f, int s) {
    return peek<std::uint64_t>(f, kSectionTableAt + 16 * s);
  };
  std::string bytes = good;
  poke(bytes, section(good, 5) + 8 * 7, nan);  // corners: a coordinate
  poke(bytes, section(good, 5) + 8 * 9, nan);  // and a later one
  fix_checksum(bytes);
  EXPECT_EQ(env_error(bytes), "env.kdop: byte " + std::to_string(section(good, 5) + 8 * 7) +
                                  ": section corners: value nan, expected a number within +-1e+30");
  bytes = good;
  poke(bytes, section(good, 5), 1e300);
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("byte " + std::to_string(section(good, 5)) +
                                          ": section corners: value 1e+300"));
  bytes = good;
  poke(bytes, section(good, 5) + 8, 1.0000001e30);  // just past the range: shown as it is
  poke(bytes, section(good, 2) + 4, std::numeric_limits<float>::quiet_NaN());  // bounds: before
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("byte " + std::to_string(section(good, 2) + 4) +
                                          ": section bounds: value nan"));
  poke(bytes, section(good, 2) + 4, 0.0f);
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr(": section corners: value 1.0000001e+30, expected"));
  bytes = good;
  poke(bytes, section(good, 2) + 4, std::numeric_limits<float>::quiet_NaN());  // node 0, lo[1]
  fix_checksum(bytes);
  EXPECT_THAT(env_error(bytes), HasSubstr("byte " + std::to_string(section(good, 2) + 4) +
                                          ": section bounds: value nan, expected a number"));
  for (BvType bv : {BvType::kdop18, BvType::obb}) {
    SCOPED_TRACE(to_string(bv));
    const std::string file = small_env_file(bv);
    bytes = file;
    poke(bytes, section(file, 5) + 16, -std::numeric_limits<double>::infinity());
    fix_checksum(bytes);
    EXPECT_THAT(env_error(bytes), HasSubstr(": section corners: value -inf"));
  }

  const std::string object = small_object_file();
  bytes = object;
  poke(bytes, section(object, 11) + 8, nan);  // hull points
  fix_checksum(bytes);
  EXPECT_THAT(object_error(bytes), HasSubstr(": section hull_points: value nan"));
  bytes = object;
  poke(bytes, section(object, 7), std::numeric_limits<float>::infinity());  // vx
  fix_checksum(bytes);
  EXPECT_THAT(object_error(bytes), HasSubstr(": section vx: value inf, expected a finite number"));
  bytes = object;
  poke(bytes, 136, -1.0);  // the sphere's radius
  fix_checksum(bytes);
  EXPECT_THAT(object_error(bytes),
              HasSubstr("byte 136: header value -1, expected a finite number >= 0"));
  poke(bytes, 136, -1e-10);
  fix_checksum(bytes);
  EXPECT_THAT(object_error(bytes),
              HasSubstr("byte 136: header value -1e-10, expected a finite number >= 0"));
  bytes = object;
  poke(bytes, 112, nan);  // the sphere's centre x
  fix_checksum(bytes);
  EXPECT_THAT(object_error(bytes),
              HasSubstr("byte 112: header value nan, expected a finite number"));
}

TEST(HierarchyFileErrors, OrientedVolumeDamageNamesTheProblem) {
  for (BvType bv : {BvType::obb, BvType::rss}) {
    SCOPED_TRACE(to_string(bv));
    const std::string good = small_env_file(bv);
    const auto boxes = peek<std::uint64_t>(good, kSectionTableAt + 16 * 2);
    std::string bytes = good;
    poke(bytes, boxes + 8, std::numeric_limits<double>::quiet_NaN());  // node 0's centre z
    fix_checksum(bytes);
    EXPECT_THAT(env_error(bytes), HasSubstr("node 0: volume value nan, expected a finite number"));
    bytes = good;
    poke(bytes, boxes + 15 * 8 + 12 * 8, -1.0);  // node 1's first extent
    fix_checksum(bytes);
    EXPECT_THAT(env_error(bytes),
                HasSubstr("node 1: volume value -1.000000, expected a finite number >= 0"));
    bytes = good;
    poke(bytes, 32, std::uint8_t{6});  // K of a k-DOP with an oriented BV code
    fix_checksum(bytes);
    EXPECT_THAT(env_error(bytes), HasSubstr("does not match K = 6"));
    std::string object = small_object_file(bv);
    poke(object, 64, std::uint32_t{3});  // root hull points: an oriented object has none
    fix_checksum(object);
    EXPECT_THAT(io_error_of([&] { parse_object_file(object, "o.kdop"); }),
                HasSubstr("3 root hull points in an oriented-volume hierarchy, expected 0"));
  }
}

bool in_section(const std::string& file, int s, std::size_t at) {
  const auto offset = peek<std::uint64_t>(file, kSectionTableAt + 16 * s);
  return at >= offset && at < offset + peek<std::uint64_t>(file, kSectionTableAt + 16 * s + 8);
}

// Thousands of random single-byte corruptions of small files of both roles: an IoError, or,
// where the checksum was recomputed and the damage is structurally legal (a changed coordinate
// or bound), a hierarchy that queries without reading out of bounds. Damage to the tree's shape
// (child_or_first, leaf_count) or the permutation is always caught.
TEST(HierarchyFileErrors, RandomCorruptionNeverCrashes) {
  for (BvType bv : {BvType::kdop6, BvType::obb}) {
    SCOPED_TRACE(to_string(bv));
    const std::string env = small_env_file(bv), object = small_object_file(bv);
    const EnvironmentFile good_env = parse_environment_file(env, "env.kdop");
    const ObjectFile good_object = parse_object_file(object, "object.kdop");
    std::mt19937_64 rng(2024);
    std::uint64_t pose_state = 11;
    int errors = 0, accepted = 0;
    for (int i = 0; i < 4000; ++i) {
      const bool damage_object = i % 2 == 1;
      const std::string& good = damage_object ? object : env;
      std::string bytes = good;
      const std::size_t at = rng() % bytes.size();
      bytes[at] = static_cast<char>(bytes[at] ^ static_cast<char>(1 + rng() % 255));
      const bool recompute = i % 4 >= 2 && at >= 24;
      if (recompute) fix_checksum(bytes);
      try {
        const Pose pose = random_pose(pose_state, {-2, -2, -2}, {2, 2, 2});
        if (damage_object) {
          CollisionPair pair(good_env.hierarchy, parse_object_file(bytes, "object.kdop").hierarchy,
                             PairConfig{});
          pair.query(pose, QueryMode::all_contacts);
        } else {
          CollisionPair pair(parse_environment_file(bytes, "env.kdop").hierarchy,
                             good_object.hierarchy, PairConfig{});
          pair.query(pose, QueryMode::all_contacts);
        }
        ++accepted;
        ASSERT_TRUE(recompute) << "byte " << at << ": damage passed the checksum";
        EXPECT_FALSE(in_section(good, 0, at) || in_section(good, 1, at) || in_section(good, 4, at))
            << "byte " << at << ": damage to the tree's shape or permutation was accepted";
      } catch (const IoError& e) {
        ++errors;
        EXPECT_THAT(std::string(e.what()), HasSubstr(".kdop: byte "));
      }
    }
    EXPECT_GT(errors, 2000);
    EXPECT_GT(accepted, 100);
  }
}

TEST_F(HierarchyFileTest, DirectoryAndMissingFile) {
  EXPECT_THAT(io_error_of([&] { read_environment_file(dir_.string()); }),
              HasSubstr("cannot read (Is a directory)"));
  EXPECT_THAT(io_error_of([&] { read_environment_file((dir_ / "none.kdop").string()); }),
              HasSubstr("none.kdop: cannot open (No such file or directory)"));
  const std::string empty = (dir_ / "empty.kdop").string();
  std::ofstream(empty).close();
  EXPECT_THAT(io_error_of([&] { read_object_file(empty); }),
              HasSubstr("empty.kdop: byte 0: empty file"));
}

TEST_F(HierarchyFileTest, DetectedByMagicOrExtension) {
  const std::string renamed = (dir_ / "env.bin").string();
  write_file_atomic(renamed, small_env_file());
  EXPECT_TRUE(is_hierarchy_file(renamed));
  const std::string mesh = (dir_ / "tri.obj").string();
  write_file_atomic(mesh, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_FALSE(is_hierarchy_file(mesh));
  EXPECT_TRUE(is_hierarchy_file((dir_ / "missing.kdop").string()));
  EXPECT_FALSE(is_hierarchy_file((dir_ / "missing.obj").string()));
}

// A file of several checksum blocks (256 KiB each): the stored checksum is the format's, written
// out sequentially here; damage in the last block is caught; of two nodes with a closed padding
// lane, in different blocks, the first is named whichever block is checked first.
TEST(HierarchyFileBlocks, ChecksumAndPaddingAcrossBlocks) {
  const Mesh big = make_torus({0, 0, 0}, 3.0, 1.0, 96, 48, 0.15);  // 9,216 triangles
  const std::string good = format_hierarchy_file(
      build_environment_hierarchy(big, BvType::kdop6, {}), BuildConfig::environment_defaults());
  ASSERT_GT(good.size(), std::size_t{3} * (256 << 10));
  EXPECT_EQ(peek<std::uint64_t>(good, kChecksumAt), checksum_of(good));
  EXPECT_NO_THROW(parse_environment_file(good, "big.kdop"));

  std::string bytes = good;
  bytes[bytes.size() - 5] ^= 0x40;
  EXPECT_THAT(env_error(bytes), HasSubstr("byte 16: checksum mismatch"));

  const auto bounds_at = peek<std::uint64_t>(good, kSectionTableAt + 16 * 2);
  const std::uint64_t node_bytes = 2 * 4 * sizeof(float);  // kdop6: 4 lanes of lo, then of hi
  const std::uint64_t late = 12000, early = 9000;          // nodes about 96 KiB apart
  ASSERT_NE((bounds_at + late * node_bytes) / (256 << 10),
            (bounds_at + early * node_bytes) / (256 << 10));
  bytes = good;
  poke(bytes, bounds_at + late * node_bytes + 12, 1.0f);        // lo lane 3
  poke(bytes, bounds_at + early * node_bytes + 16 + 12, 1.0f);  // hi lane 3
  fix_checksum(bytes);
  for (int run = 0; run < 5; ++run) {
    EXPECT_THAT(env_error(bytes), HasSubstr("node 9000: padding lane 3 is not [-inf, +inf]"));
  }
}

}  // namespace
}  // namespace kdop
