// libFuzzer target: .kdop hierarchy files (io/hierarchy_file.hpp), both roles. A loaded hierarchy
// is then queried against a small built one of its BV type: the loader promises that whatever it
// accepts is safe to traverse.
//
// A mutated file nearly always fails its checksum, which hides the structure checks' verdicts;
// so each input is read twice, as it is and with its size and checksum fields made right (as
// libpng's fuzzers fix CRCs), which sends header and section mutations on to those checks.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/collision_pair.hpp"
#include "fuzz/fuzz_check.hpp"
#include "geometry/shapes.hpp"
#include "io/hierarchy_file.hpp"

namespace kdop::fuzz {
namespace {

// Header fields of io/hierarchy_file.hpp's table.
constexpr std::size_t kChecksumAt = 16, kFileSizeAt = 24, kChecksummedFrom = 24;
constexpr std::size_t kChecksumBlock = std::size_t{256} << 10;

std::string with_size_and_checksum(std::string file) {
  const std::uint64_t size = file.size();
  std::memcpy(file.data() + kFileSizeAt, &size, sizeof size);
  std::vector<std::uint64_t> digests;
  for (std::size_t at = kChecksummedFrom; at < file.size(); at += kChecksumBlock) {
    digests.push_back(XXH3_64bits(file.data() + at, std::min(kChecksumBlock, file.size() - at)));
  }
  const std::uint64_t sum = XXH3_64bits(digests.data(), digests.size() * sizeof(std::uint64_t));
  std::memcpy(file.data() + kChecksumAt, &sum, sizeof sum);
  return file;
}

// The partners, built once per BV type (building them dominated a run).
const Mesh& partner_mesh() {
  static const Mesh mesh = make_sphere({0.5, 0.2, 0.1}, 1.2, 6, 4);
  return mesh;
}

EnvironmentHierarchy partner_environment(BvType bv) {
  static std::array<std::optional<EnvironmentHierarchy>, kBvTypeCount> built;
  auto& h = built[static_cast<std::size_t>(bv)];
  if (!h) h = build_environment_hierarchy(partner_mesh(), bv, {});
  return *h;
}

ObjectHierarchy partner_object(BvType bv) {
  static std::array<std::optional<ObjectHierarchy>, kBvTypeCount> built;
  auto& h = built[static_cast<std::size_t>(bv)];
  if (!h) h = build_object_hierarchy(partner_mesh(), bv, {});
  return *h;
}

void query_a_few_poses(CollisionPair pair) {
  std::array<Pose, 3> poses{};
  poses[1].t = {0.5, -0.25, 0.125};
  poses[2].r = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  for (const Pose& pose : poses) {
    const QueryResult all = pair.query(pose, QueryMode::all_contacts);
    const QueryResult first = pair.query(pose, QueryMode::first_contact);
    require(all.collides == first.collides, "first contact and all contacts agree");
  }
}

void read_both_roles(const std::string& bytes) {
  accept_io_errors([&] {
    EnvironmentFile env = parse_environment_file(bytes, "fuzz.kdop");
    const BvType bv = bv_type(env.hierarchy);
    query_a_few_poses(CollisionPair(std::move(env.hierarchy), partner_object(bv), PairConfig{}));
  });
  accept_io_errors([&] {
    ObjectFile object = parse_object_file(bytes, "fuzz.kdop");
    const BvType bv = bv_type(object.hierarchy);
    query_a_few_poses(
        CollisionPair(partner_environment(bv), std::move(object.hierarchy), PairConfig{}));
  });
}

}  // namespace
}  // namespace kdop::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(kdop::fuzz::as_text(data, size));
  kdop::fuzz::read_both_roles(bytes);
  if (bytes.size() >= kdop::fuzz::kFileSizeAt + sizeof(std::uint64_t)) {
    kdop::fuzz::read_both_roles(kdop::fuzz::with_size_and_checksum(bytes));
  }
  return 0;
}
