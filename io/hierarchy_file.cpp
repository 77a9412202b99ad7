// Hierarchy files: the layout is documented in hierarchy_file.hpp.
#include "io/hierarchy_file.hpp"
#include "engine/parallel.hpp"
#include "geometry/coordinate_range.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "geometry/dop.hpp"
#include "geometry/mappable_array.hpp"
#include "io/io_error.hpp"

// xxHash's run-time dispatched XXH3 (AVX2 or AVX-512 where the CPU has them; see
// CMakeLists.txt): the same value as XXH3_64bits on every CPU.
#include <xxh_x86dispatch.h>
#include <xxhash.h>

namespace kdop {
namespace {

// Sections are the bytes of the in-memory arrays: that holds on little-endian machines only.
static_assert(std::endian::native == std::endian::little, "hierarchy files are little-endian");
static_assert(sizeof(Vec3) == 24 && std::is_trivially_copyable_v<Vec3>);

constexpr char kMagic[8] = {'\x89', 'K', 'D', 'O', 'P', '\r', '\n', '\x1a'};
constexpr std::uint32_t kByteOrderMarker = 0x01020304;
constexpr std::uint64_t kAlignment = 64;
constexpr int kSections = 15;
constexpr std::uint64_t kHeaderBytes = 448;
constexpr std::uint64_t kChecksummedFrom = 24;

// Byte offsets of the header fields.
enum Field : std::uint64_t {
  kVersionAt = 8,
  kByteOrderAt = 12,
  kChecksumAt = 16,
  kFileSizeAt = 24,
  kKAt = 32,
  kBvAt = 33,
  kRoleAt = 34,
  kRuleAt = 35,
  kSplitPointAt = 36,
  kAllDirectionsAt = 37,
  kLanesAt = 38,
  kExhaustiveAt = 39,
  kLeafSizeAt = 40,
  kCandidatesAt = 44,
  kNodesAt = 48,
  kTrianglesAt = 52,
  kDepthAt = 56,
  kVerticesAt = 60,
  kHullPointsAt = 64,
  kHullEdgesAt = 68,
  kClimbStartsAt = 72,
  kSectionCountAt = 76,
  kDoublesAt = 80,  // 9 doubles
  kSectionTableAt = 152,
};
static_assert(kSectionTableAt + 16 * kSections <= kHeaderBytes && kHeaderBytes % kAlignment == 0);

enum Section {
  kChildOrFirst,
  kLeafCount,
  kBounds,
  kSize,
  kOriginal,
  kCorners,
  kVertexFirst,
  kVx,
  kVy,
  kVz,
  kLeafFloats,
  kHullPoints,
  kHullFirstEdge,
  kHullEdges,
  kClimbStartsSection,
};

constexpr const char* kSectionNames[kSections] = {
    "child_or_first",  "leaf_count", "bounds",      "size", "original",    "corners",
    "vertex_first",    "vx",         "vy",          "vz",   "leaf_floats", "hull_points",
    "hull_first_edge", "hull_edges", "climb_starts"};

// The header's values. Counts are uint32 on disk, so every byte count below fits a uint64.
struct Header {
  std::uint8_t k = 0, lanes = 0;
  BvType bv = BvType::kdop18;
  HierarchyRole role = HierarchyRole::environment;
  BuildConfig config;
  bool exhaustive = false;
  std::uint32_t nodes = 0, triangles = 0, depth = 0, vertices = 0, hull_points = 0, hull_edges = 0,
                climb_starts = 0;
  std::array<double, 9> doubles{};
  std::array<std::uint64_t, kSections> offset{}, bytes{};
};

// Bytes each section must have, from the counts.
std::array<std::uint64_t, kSections> section_bytes(const Header& h) {
  const std::uint64_t nodes = h.nodes, tris = h.triangles;
  const bool object = h.role == HierarchyRole::object;
  std::array<std::uint64_t, kSections> b{};
  b[kChildOrFirst] = b[kLeafCount] = b[kSize] = 4 * nodes;
  b[kBounds] = is_dop(h.bv) ? 4 * nodes * 2 * h.lanes : 8 * nodes * ObbBv::doubles;
  b[kOriginal] = 4 * tris;
  b[kCorners] = 8 * LeafTriangles::array_count * StaggeredArrays<double>::stride_for(tris, 0);
  if (!object) return b;
  b[kVertexFirst] = is_dop(h.bv) ? 4 * (nodes + 1) : 0;
  b[kVx] = b[kVy] = b[kVz] = 4 * std::uint64_t{h.vertices};
  b[kLeafFloats] =
      4 * LeafFloats::array_count * StaggeredArrays<float>::stride_for(tris, LeafFloats::padding);
  b[kHullPoints] = 24 * std::uint64_t{h.hull_points};
  b[kHullFirstEdge] = is_dop(h.bv) ? 4 * (std::uint64_t{h.hull_points} + 1) : 0;
  b[kHullEdges] = 4 * std::uint64_t{h.hull_edges};
  b[kClimbStartsSection] = 4 * std::uint64_t{h.climb_starts};
  return b;
}

template <class T>
void put(std::string& out, std::uint64_t at, T value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}

template <class T>
T get(std::string_view in, std::uint64_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof value);
  return value;
}

// The shortest text that reads back as v ("1.0000001e+30", not "1e+30"), for messages.
std::string shortest_text(double v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

// The checksum of bytes [24, file size): XXH3_64bits of the digests (uint64, little-endian) of
// its consecutive kChecksumBlock-byte blocks, the last one shorter. Blocks hash in parallel, and
// the loader checks what else it must read in a block while the block is in cache
// (`after_block(first, end)`, byte offsets in the file); the value does not depend on the
// thread count.
constexpr std::uint64_t kChecksumBlock = std::uint64_t{256} << 10;

template <class AfterBlock>
std::uint64_t payload_checksum(std::string_view file, AfterBlock&& after_block) {
  const std::uint64_t bytes = file.size() - kChecksummedFrom;
  std::vector<std::uint64_t> digests((bytes + kChecksumBlock - 1) / kChecksumBlock);
  parallel_for_ranges(0, digests.size(), 1, [&](std::size_t blocks_first, std::size_t blocks_last) {
    for (std::size_t b = blocks_first; b < blocks_last; ++b) {
      const std::uint64_t first = kChecksummedFrom + b * kChecksumBlock;
      const std::uint64_t end = std::min<std::uint64_t>(first + kChecksumBlock, file.size());
      digests[b] = XXH3_64bits_dispatch(file.data() + first, end - first);
      after_block(first, end);
    }
  });
  return XXH3_64bits_dispatch(digests.data(), digests.size() * sizeof(std::uint64_t));
}

// ---- writing --------------------------------------------------------------------------------

struct ConstBytes {
  const void* data;
  std::uint64_t bytes;
};

template <class Array>  // a std::vector or a MappableArray
ConstBytes bytes_of(const Array& a) {
  return {a.data(), array_bytes(a)};
}
template <class T>
ConstBytes bytes_of(const StaggeredArrays<T>& a) {
  return {a.data(), a.bytes()};
}

template <class Tree>
Header header_of(const Tree& t, const BuildConfig& config) {
  using Bv = typename Tree::Bv;
  Header h;
  h.bv = bv_type_of<Tree>();
  if constexpr (is_dop_tag<Bv>) {
    h.k = Bv::k;
    h.lanes = DopShape<Bv::k>::lanes;
  }
  h.config = config;
  h.nodes = t.topology.node_count();
  h.triangles = t.triangles.size();
  h.depth = t.topology.depth;
  return h;
}

std::string format(const Header& h, const std::array<ConstBytes, kSections>& data) {
  const std::array<std::uint64_t, kSections> expected = section_bytes(h);
  std::array<std::uint64_t, kSections> offset{};
  std::uint64_t end = kHeaderBytes;
  for (int s = 0; s < kSections; ++s) {
    if (data[s].bytes != expected[s]) {
      throw std::logic_error(std::string("hierarchy section ") + kSectionNames[s] + " has " +
                             std::to_string(data[s].bytes) + " bytes, expected " +
                             std::to_string(expected[s]));
    }
    offset[s] = (end + kAlignment - 1) / kAlignment * kAlignment;
    end = offset[s] + data[s].bytes;
  }
  std::string out(end, '\0');
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  put(out, kVersionAt, kHierarchyFileVersion);
  put(out, kByteOrderAt, kByteOrderMarker);
  put(out, kFileSizeAt, std::uint64_t{end});
  put(out, kKAt, h.k);
  put(out, kBvAt, static_cast<std::uint8_t>(h.bv));
  put(out, kRoleAt, static_cast<std::uint8_t>(h.role));
  put(out, kRuleAt, static_cast<std::uint8_t>(h.config.rule));
  put(out, kSplitPointAt, static_cast<std::uint8_t>(h.config.split_point));
  put(out, kAllDirectionsAt, std::uint8_t{h.config.all_directions});
  put(out, kLanesAt, h.lanes);
  put(out, kExhaustiveAt, std::uint8_t{h.exhaustive});
  put(out, kLeafSizeAt, h.config.leaf_size);
  put(out, kCandidatesAt, h.config.candidates);
  put(out, kNodesAt, h.nodes);
  put(out, kTrianglesAt, h.triangles);
  put(out, kDepthAt, h.depth);
  put(out, kVerticesAt, h.vertices);
  put(out, kHullPointsAt, h.hull_points);
  put(out, kHullEdgesAt, h.hull_edges);
  put(out, kClimbStartsAt, h.climb_starts);
  put(out, kSectionCountAt, std::uint32_t{kSections});
  for (int i = 0; i < 9; ++i) put(out, kDoublesAt + 8 * i, h.doubles[i]);
  for (int s = 0; s < kSections; ++s) {
    put(out, kSectionTableAt + 16 * s, offset[s]);
    put(out, kSectionTableAt + 16 * s + 8, data[s].bytes);
    if (data[s].bytes > 0) std::memcpy(out.data() + offset[s], data[s].data, data[s].bytes);
  }
  put(out, kChecksumAt, payload_checksum(out, [](std::uint64_t, std::uint64_t) {}));
  return out;
}

// The sections every tree has (0 to 5); the object-only ones empty.
template <class Tree>
std::array<ConstBytes, kSections> tree_sections(const Tree& t) {
  std::array<ConstBytes, kSections> s{};
  s[kChildOrFirst] = bytes_of(t.topology.child_or_first);
  s[kLeafCount] = bytes_of(t.topology.leaf_count);
  if constexpr (is_dop_tag<typename Tree::Bv>) {
    s[kBounds] = bytes_of(t.bounds);
  } else {
    s[kBounds] = bytes_of(t.boxes);
  }
  s[kSize] = bytes_of(t.size);
  s[kOriginal] = bytes_of(t.triangles.original);
  s[kCorners] = bytes_of(t.triangles.corners);
  return s;
}

template <class Tree>
std::string format_environment(const Tree& t, const BuildConfig& config) {
  return format(header_of(t, config), tree_sections(t));
}

template <class Bv>
std::string format_object(const FlyingOrientedTree<Bv>& f, const BuildConfig& config) {
  Header h = header_of(f.tree, config);
  h.role = HierarchyRole::object;
  h.doubles = {0,
               0,
               f.corner_radius,
               0,
               f.sphere_center.x,
               f.sphere_center.y,
               f.sphere_center.z,
               f.sphere_radius,
               0};
  std::array<ConstBytes, kSections> s = tree_sections(f.tree);
  s[kLeafFloats] = bytes_of(f.floats.arrays);
  return format(h, s);
}

template <int K>
std::string format_object(const FlyingDopTree<K>& f, const BuildConfig& config) {
  Header h = header_of(f.tree, config);
  h.role = HierarchyRole::object;
  h.exhaustive = f.root_hull.exhaustive;
  h.vertices = static_cast<std::uint32_t>(f.vx.size());
  h.hull_points = static_cast<std::uint32_t>(f.root_hull.points.size());
  h.hull_edges = static_cast<std::uint32_t>(f.root_hull.edges.size());
  h.climb_starts = static_cast<std::uint32_t>(f.root_starts.vertex.size());
  h.doubles = {f.vertex_error,    f.vertex_extent,   f.corner_radius,
               f.bound_extent,    f.sphere_center.x, f.sphere_center.y,
               f.sphere_center.z, f.sphere_radius,   f.root_hull.outside_bound};
  std::array<ConstBytes, kSections> s = tree_sections(f.tree);
  s[kVertexFirst] = bytes_of(f.vertex_first);
  s[kVx] = bytes_of(f.vx);
  s[kVy] = bytes_of(f.vy);
  s[kVz] = bytes_of(f.vz);
  s[kLeafFloats] = bytes_of(f.floats.arrays);
  s[kHullPoints] = bytes_of(f.root_hull.points);
  s[kHullFirstEdge] = bytes_of(f.root_hull.first_edge);
  s[kHullEdges] = bytes_of(f.root_hull.edges);
  s[kClimbStartsSection] = bytes_of(f.root_starts.vertex);
  return format(h, s);
}

// ---- reading --------------------------------------------------------------------------------

// The parser of one file: every check throws an IoError naming the file and a byte offset.
class Reader {
 public:
  // `keeper` keeps `bytes` alive for the arrays that view them.
  Reader(std::string_view bytes, std::shared_ptr<const void> keeper, const std::string& name)
      : in_(bytes), keeper_(std::move(keeper)), name_(name) {}

  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const {
    throw IoError::at_byte(name_, at, what);
  }

  Header header(HierarchyRole expected_role) const;
  [[noreturn]] void fail_checksum(std::uint64_t stored, std::uint64_t computed) const {
    fail(kChecksumAt, "checksum mismatch (stored " + std::to_string(stored) + ", computed " +
                          std::to_string(computed) + "): the file is damaged");
  }
  // The checksum; and, while each checksummed block is in cache, the padding lanes of the DOPs
  // that start in it (the other check that reads a large section whole).
  template <class Bv>
  void check_payload(const Header& h) const;
  template <int K>
  void check_dop_payload(const Header& h) const;
  void name_bad_value(const Header& h, const std::array<std::atomic<bool>, kSections>& bad) const;

  // Section s in place, as an array of its element count: sections start 64-byte aligned in
  // the page-aligned mapping, so they are arrays of T.
  template <class T>
  MappableArray<T> view(const Header& h, int s) const {
    return MappableArray<T>::view(reinterpret_cast<const T*>(in_.data() + h.offset[s]),
                                  h.bytes[s] / sizeof(T), keeper_);
  }
  template <class T>
  void view(const Header& h, int s, StaggeredArrays<T>& a, int arrays, std::size_t size,
            std::size_t padding) const {
    // Same size as section_bytes checked: the whole allocation, gaps included.
    a.assign_view(arrays, size, padding, reinterpret_cast<const T*>(in_.data() + h.offset[s]),
                  keeper_);
  }
  // Section s copied, for the small arrays kept in vectors (the root hull).
  template <class T>
  void copy(const Header& h, int s, std::vector<T>& v) const {
    const T* first = reinterpret_cast<const T*>(in_.data() + h.offset[s]);
    v.assign(first, first + h.bytes[s] / sizeof(T));
  }

 private:
  std::string_view in_;
  std::shared_ptr<const void> keeper_;
  const std::string& name_;
};

std::string hex_bytes(const char* bytes, std::size_t n) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (i > 0) out += ' ';
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

Header Reader::header(HierarchyRole expected_role) const {
  const std::uint64_t size = in_.size();
  if (size == 0) fail(0, "empty file, expected a kdop hierarchy file");
  const std::size_t magic_seen = std::min<std::size_t>(size, sizeof kMagic);
  if (std::memcmp(in_.data(), kMagic, magic_seen) != 0) {
    fail(0, "not a kdop hierarchy file: expected magic " + hex_bytes(kMagic, sizeof kMagic) +
                ", found " + hex_bytes(in_.data(), magic_seen));
  }
  if (size < kByteOrderAt) fail(size, "file ends inside the header (truncated)");
  const auto version = get<std::uint32_t>(in_, kVersionAt);
  if (version != kHierarchyFileVersion) {
    fail(kVersionAt, "format version " + std::to_string(version) + ", expected " +
                         std::to_string(kHierarchyFileVersion) +
                         " (rebuild the file with this kdop's `kdop build`)");
  }
  if (size < kHeaderBytes) {
    fail(size, "file ends inside the " + std::to_string(kHeaderBytes) + "-byte header (truncated)");
  }
  const auto marker = get<std::uint32_t>(in_, kByteOrderAt);
  if (marker != kByteOrderMarker) {
    fail(kByteOrderAt, marker == 0x04030201u
                           ? "big-endian file, expected little-endian"
                           : "expected the byte-order marker 04 03 02 01, found " +
                                 hex_bytes(in_.data() + kByteOrderAt, 4));
  }
  const auto file_size = get<std::uint64_t>(in_, kFileSizeAt);
  if (file_size != size) {
    fail(kFileSizeAt, "header says the file has " + std::to_string(file_size) +
                          " bytes, but it has " + std::to_string(size) +
                          (size < file_size ? " (truncated)" : " (extra bytes)"));
  }

  Header h;
  h.k = get<std::uint8_t>(in_, kKAt);
  const auto bv = get<std::uint8_t>(in_, kBvAt);
  if (h.k != 0 && h.k != 6 && h.k != 8 && h.k != 14 && h.k != 18 && h.k != 26 && h.k != 32) {
    fail(kKAt, "K = " + std::to_string(h.k) + ", expected 6, 8, 14, 18, 26, 32 (or 0: obb, rss)");
  }
  if (bv > static_cast<std::uint8_t>(BvType::kdop32)) {
    fail(kBvAt, "BV type code " + std::to_string(bv) +
                    ", expected 0 to 7 (kdop6, kdop14, kdop18, kdop26, dop8, obb, rss, kdop32)");
  }
  h.bv = static_cast<BvType>(bv);
  if (dop_k(h.bv) != h.k) {
    fail(kBvAt, std::string("BV type ") + to_string(h.bv) + " does not match K = " +
                    std::to_string(h.k) + " at byte " + std::to_string(kKAt));
  }
  h.lanes = get<std::uint8_t>(in_, kLanesAt);
  const int lanes = is_dop(h.bv) ? with_dop_k(h.bv, []<int K>() { return DopShape<K>::lanes; }) : 0;
  if (h.lanes != lanes) {
    fail(kLanesAt, std::to_string(h.lanes) + " lanes per DOP, expected " + std::to_string(lanes) +
                       " for K = " + std::to_string(h.k));
  }
  const auto role = get<std::uint8_t>(in_, kRoleAt);
  if (role > 1)
    fail(kRoleAt, "role code " + std::to_string(role) + ", expected 0 (env) or 1 (object)");
  h.role = static_cast<HierarchyRole>(role);
  if (h.role != expected_role) {
    fail(kRoleAt, std::string("holds an ") + to_string(h.role) + " hierarchy, expected an " +
                      to_string(expected_role) + " one (build it with --role " +
                      to_string(expected_role) + ")");
  }
  const auto rule = static_cast<SplitRule>(get<std::uint8_t>(in_, kRuleAt));
  if (std::strcmp(to_string(rule), "?") == 0) {
    fail(kRuleAt, "unknown split rule code " + std::to_string(static_cast<int>(rule)));
  }
  const auto point = static_cast<SplitPoint>(get<std::uint8_t>(in_, kSplitPointAt));
  if (std::strcmp(to_string(point), "?") == 0) {
    fail(kSplitPointAt, "unknown split point code " + std::to_string(static_cast<int>(point)));
  }
  const auto flag = [&](std::uint64_t at) {
    const auto v = get<std::uint8_t>(in_, at);
    if (v > 1) fail(at, "flag " + std::to_string(v) + ", expected 0 or 1");
    return v == 1;
  };
  h.config.rule = rule;
  h.config.split_point = point;
  h.config.all_directions = flag(kAllDirectionsAt);
  h.exhaustive = flag(kExhaustiveAt);
  h.config.leaf_size = get<std::uint32_t>(in_, kLeafSizeAt);
  h.config.candidates = get<std::uint32_t>(in_, kCandidatesAt);
  if (h.config.leaf_size == 0) fail(kLeafSizeAt, "leaf size 0, expected at least 1");

  h.nodes = get<std::uint32_t>(in_, kNodesAt);
  h.triangles = get<std::uint32_t>(in_, kTrianglesAt);
  h.depth = get<std::uint32_t>(in_, kDepthAt);
  h.vertices = get<std::uint32_t>(in_, kVerticesAt);
  h.hull_points = get<std::uint32_t>(in_, kHullPointsAt);
  h.hull_edges = get<std::uint32_t>(in_, kHullEdgesAt);
  h.climb_starts = get<std::uint32_t>(in_, kClimbStartsAt);
  if (h.nodes == 0) fail(kNodesAt, "0 nodes, expected at least 1");
  if (h.triangles == 0) fail(kTrianglesAt, "0 triangles, expected at least 1");
  // A tree of n nodes is at most n - 1 edges deep; the tree check sizes its stack by the depth.
  if (h.depth >= h.nodes) {
    fail(kDepthAt, "depth " + std::to_string(h.depth) + ", expected less than the " +
                       std::to_string(h.nodes) + " nodes");
  }
  const bool object = h.role == HierarchyRole::object;
  const auto count_is = [&](std::uint64_t at, std::uint32_t value, std::uint32_t expected,
                            const char* what) {
    if (value != expected) {
      fail(at, std::to_string(value) + " " + what + ", expected " + std::to_string(expected));
    }
  };
  if (object && !is_dop(h.bv)) {
    // Oriented objects keep no DOP vertices and no root hull.
    count_is(kVerticesAt, h.vertices, 0, "DOP vertices in an oriented-volume hierarchy");
    count_is(kHullPointsAt, h.hull_points, 0, "root hull points in an oriented-volume hierarchy");
    count_is(kHullEdgesAt, h.hull_edges, 0, "root hull edges in an oriented-volume hierarchy");
    count_is(kClimbStartsAt, h.climb_starts, 0, "climb starts in an oriented-volume hierarchy");
  } else if (object) {
    if (h.exhaustive && h.hull_edges != 0) {
      fail(kHullEdgesAt, std::to_string(h.hull_edges) +
                             " hull edges, expected 0 for an "
                             "exhaustive hull (flag at byte " +
                             std::to_string(kExhaustiveAt) + ")");
    }
    if (h.hull_points == 0) fail(kHullPointsAt, "0 root hull points, expected at least 1");
    if (climb_grid_of(h.climb_starts) == 0) {
      // The sizes of the allowed cube maps (geometry/convex_hull.hpp), listed from the grids.
      std::string sizes, sides;
      for (int g = ClimbStarts::min_grid; g <= ClimbStarts::max_grid; g *= 2) {
        const bool last = g == ClimbStarts::max_grid;
        const char* joint = sizes.empty() ? "" : last ? " or " : ", ";
        sizes += joint + std::to_string(6 * g * g);
        sides += joint + std::to_string(g);
      }
      fail(kClimbStartsAt, std::to_string(h.climb_starts) + " climb starts, expected " + sizes +
                               " (a cube map of " + sides + " cells a side)");
    }
  } else {
    count_is(kVerticesAt, h.vertices, 0, "DOP vertices in an env hierarchy");
    count_is(kHullPointsAt, h.hull_points, 0, "root hull points in an env hierarchy");
    count_is(kHullEdgesAt, h.hull_edges, 0, "root hull edges in an env hierarchy");
    count_is(kClimbStartsAt, h.climb_starts, 0, "climb starts in an env hierarchy");
  }
  count_is(kSectionCountAt, get<std::uint32_t>(in_, kSectionCountAt), kSections, "sections");
  for (int i = 0; i < 9; ++i) h.doubles[i] = get<double>(in_, kDoublesAt + 8 * i);

  // Sections: the size the counts imply, aligned, in order, inside the file. Sizes are checked
  // against the counts first, so a huge count is named as such.
  const std::array<std::uint64_t, kSections> expected = section_bytes(h);
  std::uint64_t end = kHeaderBytes;
  for (int s = 0; s < kSections; ++s) {
    const std::uint64_t entry = kSectionTableAt + 16 * s;
    h.offset[s] = get<std::uint64_t>(in_, entry);
    h.bytes[s] = get<std::uint64_t>(in_, entry + 8);
    const std::string section = std::string("section ") + kSectionNames[s];
    if (h.bytes[s] != expected[s]) {
      fail(entry + 8, section + " has " + std::to_string(h.bytes[s]) + " bytes, but the counts (" +
                          std::to_string(h.nodes) + " nodes, " + std::to_string(h.triangles) +
                          " triangles) need " + std::to_string(expected[s]));
    }
    if (h.offset[s] % kAlignment != 0) {
      fail(entry, section + " at offset " + std::to_string(h.offset[s]) +
                      ", expected a multiple of " + std::to_string(kAlignment));
    }
    if (h.offset[s] < end) {
      fail(entry, section + " at offset " + std::to_string(h.offset[s]) +
                      " overlaps the header or the previous section (ends at " +
                      std::to_string(end) + ")");
    }
    if (h.offset[s] > size || h.bytes[s] > size - h.offset[s]) {
      fail(entry, section + " (" + std::to_string(h.bytes[s]) + " bytes at offset " +
                      std::to_string(h.offset[s]) + ") runs past the end of the file (" +
                      std::to_string(size) + " bytes)");
    }
    end = h.offset[s] + h.bytes[s];
  }
  return h;
}

// The first padding lane of a node's DOP that is not [-inf, +inf] (padding lanes must never
// reject), or `lanes`.
std::uint32_t first_closed_padding_lane(const float* dop, std::uint32_t slabs,
                                        std::uint32_t lanes) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  for (std::uint32_t j = slabs; j < lanes; ++j) {
    if (dop[j] != -inf || dop[lanes + j] != inf) return j;
  }
  return lanes;
}

// True if every padding lane of a DOP is [-inf, +inf], by two compares of a few bytes (the
// loop above, run on every node, took 5 of the 22 ms of a 1,000,000-triangle load's pass).
template <int K>
bool padding_is_open(const float* dop) {
  constexpr int slabs = DopShape<K>::slabs, lanes = DopShape<K>::lanes, pad = lanes - slabs;
  if constexpr (pad == 0) {
    return true;  // dop8: four slabs fill the four lanes
  } else {
    constexpr float inf = std::numeric_limits<float>::infinity();
    static constexpr auto filled = [](float v) {
      std::array<float, pad> a{};
      for (float& x : a) x = v;
      return a;
    };
    static constexpr std::array<float, pad> lo = filled(-inf), hi = filled(inf);
    return std::memcmp(dop + slabs, lo.data(), sizeof lo) == 0 &&
           std::memcmp(dop + lanes + slabs, hi.data(), sizeof hi) == 0;
  }
}

// Whether any of n values is NaN or beyond +-limit (with an infinite limit: any NaN). One pass with
// no early exit, over GCC vectors of 32 bytes (a good file is the common case, checked while its
// checksummed block is in cache), with an AVX2 copy chosen at run time where the CPU has it
// (target_clones; the baseline copy runs each vector as two SSE2 halves). Plain loops with a flag
// stayed scalar: a 292 MB load took 27.7 ms, not 10.4. target_clones needs ifunc (x86-64 with
// glibc); elsewhere one baseline copy. Not under the sanitizers either: ifunc resolvers run before
// their runtimes start (TSan's test binaries crashed on start).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define KDOP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KDOP_SANITIZED 1
#endif
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(KDOP_SANITIZED)
#define KDOP_VALUE_SCAN [[gnu::target_clones("avx2", "default")]]
#else
#define KDOP_VALUE_SCAN
#endif
#undef KDOP_SANITIZED
using DoubleVector [[gnu::vector_size(32)]] = double;
using FloatVector [[gnu::vector_size(32)]] = float;
using MaskVector [[gnu::vector_size(32)]] = std::int64_t;

// Inlined into each clone below (a function taking or returning these vectors would change
// the baseline ABI).
template <class Vector, class T>
[[gnu::always_inline]] inline bool any_beyond(const T* v, std::size_t n, T limit) {
  constexpr std::size_t kLanes = sizeof(Vector) / sizeof(T);
  MaskVector bad{};
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Vector x;
    std::memcpy(&x, v + i, sizeof x);
    const Vector magnitude = x < 0 ? -x : x;                     // NaN stays NaN
    bad |= reinterpret_cast<MaskVector>(~(magnitude <= limit));  // NaN compares false
  }
  bool found = (bad[0] | bad[1] | bad[2] | bad[3]) != 0;
  for (; i < n; ++i) found |= !(std::fabs(v[i]) <= limit);
  return found;
}

KDOP_VALUE_SCAN bool any_double_beyond(const double* v, std::size_t n, double limit) {
  return any_beyond<DoubleVector>(v, n, limit);
}

KDOP_VALUE_SCAN bool any_float_beyond(const float* v, std::size_t n, float limit) {
  return any_beyond<FloatVector>(v, n, limit);
}

#undef KDOP_VALUE_SCAN

// The sections whose values are checked (a NaN or a huge coordinate makes queries answer
// wrongly), each as a flat array of doubles or floats, against a limit: the coordinates' range,
// finite floats, or (the DOPs' bounds, whose padding lanes are infinite) no NaN. Gaps inside
// staggered sections hold zeros.
struct ValueSection {
  int section;
  bool doubles;
  double limit;
};
constexpr double kFiniteFloat = std::numeric_limits<float>::max();
constexpr double kAnyNumber = std::numeric_limits<double>::infinity();
constexpr std::array<ValueSection, 8> kValueSections = {{{kCorners, true, kMaxCoordinate},
                                                         {kHullPoints, true, kMaxCoordinate},
                                                         {kSize, false, kFiniteFloat},
                                                         {kVx, false, kFiniteFloat},
                                                         {kVy, false, kFiniteFloat},
                                                         {kVz, false, kFiniteFloat},
                                                         {kLeafFloats, false, kFiniteFloat},
                                                         {kBounds, false, kAnyNumber}}};

// Flags the value sections with a bad value among bytes [first, end) of the file. Block
// boundaries are 8-byte aligned and sections 64-byte aligned, so no value straddles one.
void flag_bad_values(std::string_view file, const Header& h, bool dop, std::uint64_t first,
                     std::uint64_t end, std::array<std::atomic<bool>, kSections>& bad) {
  for (const ValueSection& v : kValueSections) {
    if (v.section == kBounds && !dop) continue;  // oriented boxes: StructureCheck::boxes
    const std::uint64_t from = std::max(first, h.offset[v.section]);
    const std::uint64_t to = std::min(end, h.offset[v.section] + h.bytes[v.section]);
    if (from >= to) continue;
    const char* at = file.data() + from;
    const bool found =
        v.doubles ? any_double_beyond(reinterpret_cast<const double*>(at), (to - from) / 8, v.limit)
                  : any_float_beyond(reinterpret_cast<const float*>(at), (to - from) / 4,
                                     static_cast<float>(v.limit));
    if (found) bad[v.section].store(true, std::memory_order_relaxed);
  }
}

template <class Bv>
void Reader::check_payload(const Header& h) const {
  if constexpr (!is_dop_tag<Bv>) {
    std::array<std::atomic<bool>, kSections> bad{};
    const std::uint64_t computed =
        payload_checksum(in_, [&](std::uint64_t first, std::uint64_t end) {
          flag_bad_values(in_, h, false, first, end, bad);
        });
    const auto stored = get<std::uint64_t>(in_, kChecksumAt);
    if (stored != computed) fail_checksum(stored, computed);
    name_bad_value(h, bad);
    return;
  } else {
    check_dop_payload<Bv::k>(h);
  }
}

template <int K>
void Reader::check_dop_payload(const Header& h) const {
  const std::uint32_t lanes = h.lanes, slabs = h.k / 2u;
  const std::uint64_t bounds_at = h.offset[kBounds], node_bytes = 2 * lanes * sizeof(float);
  const auto* bounds = reinterpret_cast<const float*>(in_.data() + bounds_at);
  // The lowest node with a closed padding lane: blocks run in any order, each stops at its first.
  std::atomic<std::uint64_t> first_bad{h.nodes};
  std::array<std::atomic<bool>, kSections> bad{};
  const std::uint64_t computed = payload_checksum(in_, [&](std::uint64_t first, std::uint64_t end) {
    flag_bad_values(in_, h, true, first, end, bad);
    if (end <= bounds_at) return;
    // The nodes whose first byte is in the block.
    const std::uint64_t n_first =
        first <= bounds_at ? 0 : (first - bounds_at + node_bytes - 1) / node_bytes;
    const std::uint64_t n_end =
        std::min<std::uint64_t>(h.nodes, (end - bounds_at + node_bytes - 1) / node_bytes);
    for (std::uint64_t n = n_first; n < n_end; ++n) {
      if (padding_is_open<K>(bounds + n * 2 * lanes)) continue;
      std::uint64_t seen = first_bad.load();
      while (n < seen && !first_bad.compare_exchange_weak(seen, n)) {
      }
      return;
    }
  });
  const auto stored = get<std::uint64_t>(in_, kChecksumAt);
  if (stored != computed) fail_checksum(stored, computed);
  const std::uint64_t n = first_bad.load();
  if (n < h.nodes) {
    const std::uint32_t j = first_closed_padding_lane(bounds + n * 2 * lanes, slabs, lanes);
    fail(bounds_at + (n * 2 * lanes + j) * sizeof(float),
         "node " + std::to_string(n) + ": padding lane " + std::to_string(j) +
             " is not [-inf, +inf]");
  }
  name_bad_value(h, bad);
}

// After the block pass flagged a section: its first bad value, named with its byte offset.
void Reader::name_bad_value(const Header& h,
                            const std::array<std::atomic<bool>, kSections>& bad) const {
  // The flagged sections in file order, so the first bad byte of the file is named.
  std::vector<ValueSection> flagged;
  for (const ValueSection& v : kValueSections) {
    if (bad[v.section].load()) flagged.push_back(v);
  }
  std::sort(flagged.begin(), flagged.end(), [&](const ValueSection& a, const ValueSection& b) {
    return h.offset[a.section] < h.offset[b.section];
  });
  for (const ValueSection& v : flagged) {
    const char* data = in_.data() + h.offset[v.section];
    const std::size_t size = v.doubles ? 8 : 4;
    for (std::size_t i = 0; i < h.bytes[v.section] / size; ++i) {
      double x = 0;
      if (v.doubles) {
        std::memcpy(&x, data + size * i, size);
      } else {
        float f = 0;
        std::memcpy(&f, data + size * i, size);
        x = f;
      }
      if (std::fabs(x) <= v.limit) continue;
      fail(h.offset[v.section] + size * i,
           std::string("section ") + kSectionNames[v.section] + ": value " + shortest_text(x) +
               (v.limit == kAnyNumber       ? ", expected a number"
                : v.limit == kMaxCoordinate ? ", expected a number within +-1e+30"
                                            : ", expected a finite number"));
    }
  }
}

// Structural checks on the copied arrays; `at(s, i)` is the byte offset of element i of
// section s, for messages.
class StructureCheck {
 public:
  StructureCheck(const Reader& r, const Header& h) : r_(r), h_(h) {}

  std::uint64_t at(int s, std::uint64_t index, std::uint64_t element_bytes) const {
    return h_.offset[s] + index * element_bytes;
  }

  // Pre-order binary tree: visiting from the root (left child n + 1, right child
  // child_or_first[n]) meets every node exactly once, in index order, with the stored depth;
  // its leaves own consecutive slot ranges covering every triangle once. One pass in index order:
  // after an inner node comes its left child, after a leaf the innermost right child not yet
  // visited (a stack of them). About 33 instructions a node (a pointer-chasing visit took 46).
  void topology(const TreeTopology& t) const {
    const std::uint32_t nodes = h_.nodes;
    const std::uint64_t triangles = h_.triangles;  // locals: the stack's stores could alias h_
    const std::uint32_t* child_or_first = t.child_or_first.data();
    const std::uint32_t* leaf_count = t.leaf_count.data();
    // Right children still to visit: index, and depth in the high half.
    std::vector<std::uint64_t> pending;
    pending.reserve(std::size_t{h_.depth} + 1);
    std::uint32_t depth = 0, deepest = 0;
    std::uint64_t slot = 0;  // leaves own consecutive slots, as the builder partitions them
    std::uint32_t n = 0;
    for (;; ++n) {
      deepest = std::max(deepest, depth);
      if (leaf_count[n] == 0) {
        const std::uint32_t right = child_or_first[n];
        if (n + 1 >= nodes || right <= n + 1 || right >= nodes) {
          r_.fail(at(kChildOrFirst, n, 4), "inner node " + std::to_string(n) + " has right child " +
                                               std::to_string(right) + ", expected one in (" +
                                               std::to_string(n + 1) + ", " +
                                               std::to_string(nodes) + ")");
        }
        pending.push_back(right | std::uint64_t{++depth} << 32);
        continue;
      }
      const std::uint64_t first = child_or_first[n], count = leaf_count[n];
      if (first != slot || first + count > triangles) {
        r_.fail(at(kChildOrFirst, n, 4),
                "leaf " + std::to_string(n) + " owns slots [" + std::to_string(first) + ", " +
                    std::to_string(first + count) + "), expected a range from slot " +
                    std::to_string(slot) + " inside the " + std::to_string(triangles) +
                    " triangles");
      }
      slot = first + count;
      if (pending.empty()) break;  // the root's subtree is complete
      if (static_cast<std::uint32_t>(pending.back()) != n + 1) {
        r_.fail(at(kChildOrFirst, n + 1, 4), "node " + std::to_string(n + 1) +
                                                 " is not where pre-order puts it (a right "
                                                 "child index is wrong)");
      }
      depth = static_cast<std::uint32_t>(pending.back() >> 32);
      pending.pop_back();
    }
    if (n + 1 != nodes) {
      r_.fail(at(kChildOrFirst, n + 1, 4), "the tree has " + std::to_string(n + 1) +
                                               " nodes but the header says " +
                                               std::to_string(nodes));
    }
    if (slot != h_.triangles) {
      r_.fail(kTrianglesAt, std::to_string(h_.triangles) + " triangles, but the leaves own " +
                                std::to_string(slot));
    }
    if (deepest != h_.depth) {
      r_.fail(kDepthAt, "depth " + std::to_string(h_.depth) + ", but the tree's is " +
                            std::to_string(deepest));
    }
  }

  // Oriented volumes (builders/oriented_tree.hpp): every number finite, and the extents (half
  // lengths, radius: doubles 12 to 14 of a node) not negative, so no overlap test sees a NaN.
  void boxes(const MappableArray<double>& b) const {
    constexpr int per_node = ObbBv::doubles;
    for (std::size_t i = 0; i < b.size(); ++i) {
      const bool extent = i % per_node >= kHalfAt;
      if (!std::isfinite(b[i]) || (extent && b[i] < 0)) {
        r_.fail(at(kBounds, i, 8), "node " + std::to_string(i / per_node) + ": volume value " +
                                       std::to_string(b[i]) + ", expected a finite number" +
                                       (extent ? " >= 0 (an extent)" : ""));
      }
    }
  }

  // The header's doubles: finite, and >= 0 where they are errors, extents and radii.
  void header_doubles() const {
    for (int i = 0; i < 9; ++i) {
      const double v = h_.doubles[i];
      const bool signed_value = i >= 4 && i <= 6;  // the sphere's centre
      if (!std::isfinite(v) || (!signed_value && v < 0)) {
        r_.fail(kDoublesAt + 8 * i, "header value " + shortest_text(v) +
                                        (signed_value ? ", expected a finite number"
                                                      : ", expected a finite number >= 0"));
      }
    }
  }

  void permutation(const MappableArray<std::uint32_t>& original) const {
    std::vector<bool> seen(original.size(), false);
    for (std::size_t s = 0; s < original.size(); ++s) {
      if (original[s] >= original.size() || seen[original[s]]) {
        r_.fail(at(kOriginal, s, 4), "triangle index " + std::to_string(original[s]) +
                                         " is out of range or repeated: not a permutation of " +
                                         std::to_string(original.size()) + " triangles");
      }
      seen[original[s]] = true;
    }
  }

  // first[0] = 0, non-decreasing (increasing if each range must be non-empty), last = total:
  // ranges of a section with `total` elements.
  template <class Array>
  void ranges(int s, const Array& first, std::uint32_t total, const char* what,
              bool non_empty = false) const {
    if (first.front() != 0)
      r_.fail(at(s, 0, 4),
              std::string(what) + " start at " + std::to_string(first.front()) + ", expected 0");
    for (std::size_t i = 1; i < first.size(); ++i) {
      if (first[i] < first[i - 1]) {
        r_.fail(at(s, i, 4), std::string(what) + " decrease at entry " + std::to_string(i));
      }
      if (non_empty && first[i] == first[i - 1]) {
        r_.fail(at(s, i, 4), std::string(what) + ": entry " + std::to_string(i - 1) +
                                 " is empty, expected at least one");
      }
    }
    if (first.back() != total) {
      r_.fail(at(s, first.size() - 1, 4), std::string(what) + " end at " +
                                              std::to_string(first.back()) + ", expected " +
                                              std::to_string(total));
    }
  }

  void indices(int s, const std::vector<std::uint32_t>& v, std::uint32_t limit,
               const char* what) const {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] >= limit) {
        r_.fail(at(s, i, 4), std::string(what) + " " + std::to_string(v[i]) + " out of range (" +
                                 std::to_string(limit) + " hull points)");
      }
    }
  }

 private:
  const Reader& r_;
  const Header& h_;
};

// A DopTree or an OrientedTree: the same sections but for the volumes (floats or doubles).
template <class Tree>
void load_tree(const Reader& r, const Header& h, Tree& t) {
  t.topology.child_or_first = r.view<std::uint32_t>(h, kChildOrFirst);
  t.topology.leaf_count = r.view<std::uint32_t>(h, kLeafCount);
  t.topology.depth = h.depth;
  t.size = r.view<float>(h, kSize);
  t.triangles.original = r.view<std::uint32_t>(h, kOriginal);
  r.view(h, kCorners, t.triangles.corners, LeafTriangles::array_count, h.triangles, 0);
  const StructureCheck check(r, h);
  check.topology(t.topology);
  t.topology.shape_hash = topology_hash(t.topology);
  check.permutation(t.triangles.original);
  if constexpr (is_dop_tag<typename Tree::Bv>) {
    t.bounds = r.view<float>(h, kBounds);  // NaN and padding lanes: in the checksum pass
  } else {
    t.boxes = r.view<double>(h, kBounds);
    check.boxes(t.boxes);
  }
}

template <int K>
ObjectFile load_dop_object(const Reader& r, const Header& h);

template <class Bv>
EnvironmentFile load_environment(const Reader& r, const Header& h) {
  typename BvTraits<Bv>::Environment t;
  load_tree(r, h, t);
  if constexpr (is_dop_tag<Bv>) t.corner_floats = corner_floats(t.triangles);  // derived
  return {std::move(t), h.config};
}

template <class Bv>
ObjectFile load_object(const Reader& r, const Header& h) {
  if constexpr (is_dop_tag<Bv>) {
    return load_dop_object<Bv::k>(r, h);
  } else {
    FlyingOrientedTree<Bv> f;
    load_tree(r, h, f.tree);
    r.view(h, kLeafFloats, f.floats.arrays, LeafFloats::array_count, h.triangles,
           LeafFloats::padding);
    const StructureCheck check(r, h);
    check.header_doubles();
    f.corner_radius = h.doubles[2];
    f.sphere_center = {h.doubles[4], h.doubles[5], h.doubles[6]};
    f.sphere_radius = h.doubles[7];
    return {std::move(f), h.config};
  }
}

template <int K>
ObjectFile load_dop_object(const Reader& r, const Header& h) {
  FlyingDopTree<K> f;
  load_tree(r, h, f.tree);
  f.vertex_first = r.view<std::uint32_t>(h, kVertexFirst);
  f.vx = r.view<float>(h, kVx);
  f.vy = r.view<float>(h, kVy);
  f.vz = r.view<float>(h, kVz);
  r.view(h, kLeafFloats, f.floats.arrays, LeafFloats::array_count, h.triangles,
         LeafFloats::padding);
  r.copy(h, kHullPoints, f.root_hull.points);
  r.copy(h, kHullFirstEdge, f.root_hull.first_edge);
  r.copy(h, kHullEdges, f.root_hull.edges);
  r.copy(h, kClimbStartsSection, f.root_starts.vertex);
  f.plates = node_plates(f.tree.topology, f.tree.triangles);        // derived, not stored
  f.root_starts.grid = climb_grid_of(f.root_starts.vertex.size());  // checked with the header
  f.root_hull.exhaustive = h.exhaustive;
  const std::array<double, 9>& d = h.doubles;
  f.vertex_error = d[0];
  f.vertex_extent = d[1];
  f.corner_radius = d[2];
  f.bound_extent = d[3];
  f.sphere_center = {d[4], d[5], d[6]};
  f.sphere_radius = d[7];
  f.root_hull.outside_bound = d[8];
  const StructureCheck check(r, h);
  check.header_doubles();
  // Tumbling a node needs at least one vertex (simd/tumble_vertices.hpp).
  check.ranges(kVertexFirst, f.vertex_first, h.vertices, "node vertex ranges", true);
  // An exhaustive hull has no edges (the header checks hull_edges == 0 then).
  check.ranges(kHullFirstEdge, f.root_hull.first_edge, h.hull_edges, "hull edge ranges");
  check.indices(kHullEdges, f.root_hull.edges, h.hull_points, "hull edge to point");
  check.indices(kClimbStartsSection, f.root_starts.vertex, h.hull_points, "climb start point");
  f.root_inner = inner_points(f.root_hull, f.root_starts, kInnerPointsPerFace);  // derived
  return {std::move(f), h.config};
}

// The checksum pass (with the padding check) and the other structure checks run side by side:
// each reads a large part of the file (292 MB in all for a 1,000,000-triangle environment). The
// checks bound every index themselves, so they are safe on a damaged file. When both fail, the
// checksum pass's error is reported, whichever finished first.
// A file's bytes and what keeps them alive for the arrays that view them.
struct HeldBytes {
  std::string_view bytes;
  std::shared_ptr<const void> keeper;
};

template <class File, class Load>
File parse(HeldBytes in, const std::string& name, HierarchyRole role, Load&& load) {
  const Reader r(in.bytes, std::move(in.keeper), name);
  const Header h = r.header(role);
  std::optional<File> file;
  std::exception_ptr checksum_error, load_error;
  parallel_invoke(
      [&] {
        try {
          with_bv(h.bv, [&]<class Bv>() { r.check_payload<Bv>(h); });
        } catch (...) {
          checksum_error = std::current_exception();
        }
      },
      [&] {
        try {
          file = with_bv(h.bv, [&]<class Bv>() { return load.template operator()<Bv>(r, h); });
        } catch (...) {
          load_error = std::current_exception();
        }
      });
  if (checksum_error) std::rethrow_exception(checksum_error);
  if (load_error) std::rethrow_exception(load_error);
  return std::move(*file);
}

EnvironmentFile parse_environment(HeldBytes in, const std::string& name) {
  return parse<EnvironmentFile>(
      std::move(in), name, HierarchyRole::environment,
      []<class Bv>(const Reader& r, const Header& h) { return load_environment<Bv>(r, h); });
}

ObjectFile parse_object(HeldBytes in, const std::string& name) {
  return parse<ObjectFile>(
      std::move(in), name, HierarchyRole::object,
      []<class Bv>(const Reader& r, const Header& h) { return load_object<Bv>(r, h); });
}

// A copy of bytes held by the caller, 8-byte aligned, for arrays that outlive the call.
HeldBytes aligned_copy(std::string_view bytes) {
  auto words = std::make_shared<std::vector<std::uint64_t>>((bytes.size() + 7) / 8);
  if (!bytes.empty()) std::memcpy(words->data(), bytes.data(), bytes.size());
  return {{reinterpret_cast<const char*>(words->data()), bytes.size()}, std::move(words)};
}

// The whole file mapped read-only, prefaulted: it is read through at once, and the loaded
// hierarchy's arrays view it in place for as long as they live. `kdop build` replaces files by
// rename, which leaves a mapped file intact; truncating a mapped file in place would not.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw IoError::in_file(path, std::string("cannot open (") + std::strerror(errno) + ")");
    }
    struct stat st {};
    int error = 0;
    if (::fstat(fd, &st) != 0) {
      error = errno;
    } else if (S_ISDIR(st.st_mode)) {
      error = EISDIR;  // a directory opens fine on Linux
    } else if (st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ,
                       MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) {
        error = errno;
      } else {
        data_ = static_cast<const char*>(p);
        size_ = static_cast<std::size_t>(st.st_size);
      }
    }
    ::close(fd);  // the mapping outlives the descriptor
    if (error != 0) {
      throw IoError::in_file(path, std::string("cannot read (") + std::strerror(error) + ")");
    }
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_ == nullptr ? "" : data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// The file mapped, kept alive by the arrays that view it.
HeldBytes mapping_of(const std::string& path) {
  auto file = std::make_shared<const MappedFile>(path);
  const std::string_view bytes = file->bytes();
  return {bytes, std::move(file)};
}

}  // namespace

const char* to_string(HierarchyRole role) {
  return role == HierarchyRole::object ? "object" : "env";
}

std::string format_hierarchy_file(const EnvironmentHierarchy& hierarchy,
                                  const BuildConfig& config) {
  return std::visit([&](const auto& t) { return format_environment(t, config); }, hierarchy);
}

std::string format_hierarchy_file(const ObjectHierarchy& hierarchy, const BuildConfig& config) {
  return std::visit([&](const auto& f) { return format_object(f, config); }, hierarchy);
}

EnvironmentFile parse_environment_file(std::string_view bytes, const std::string& name) {
  return parse_environment(aligned_copy(bytes), name);
}

ObjectFile parse_object_file(std::string_view bytes, const std::string& name) {
  return parse_object(aligned_copy(bytes), name);
}

EnvironmentFile read_environment_file(const std::string& path) {
  return parse_environment(mapping_of(path), path);
}

ObjectFile read_object_file(const std::string& path) {
  return parse_object(mapping_of(path), path);
}

// Hierarchy files are mapped, so they are regular files. Reading the magic of a pipe or a FIFO
// would take its first bytes from the mesh reader that opens it next.
static bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_hierarchy_file(const std::string& path) {
  const std::string extension = ".kdop";
  if (path.size() >= extension.size() &&
      path.compare(path.size() - extension.size(), extension.size(), extension) == 0) {
    return true;
  }
  if (!regular_file(path)) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char head[sizeof kMagic];
  const ssize_t n = ::read(fd, head, sizeof head);
  ::close(fd);
  return n == static_cast<ssize_t>(sizeof head) && std::memcmp(head, kMagic, sizeof head) == 0;
}

std::optional<BvType> hierarchy_file_bv(const std::string& path) {
  if (!regular_file(path)) return std::nullopt;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  unsigned char head[kBvAt + 1];
  const ssize_t n = ::read(fd, head, sizeof head);
  ::close(fd);
  if (n != static_cast<ssize_t>(sizeof head) || std::memcmp(head, kMagic, sizeof kMagic) != 0 ||
      head[kBvAt] > static_cast<unsigned char>(BvType::kdop32)) {
    return std::nullopt;
  }
  return static_cast<BvType>(head[kBvAt]);
}

}  // namespace kdop
