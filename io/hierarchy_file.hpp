#pragma once
// Hierarchy files (.kdop): a hierarchy built once (`kdop build`) and loaded instead of rebuilt.
// A file holds one hierarchy of one role: an environment (DopTree, OrientedTree) or a moving
// object (FlyingDopTree: also its DOP vertices, leaf float copies, root hull graph and climb
// starts; FlyingOrientedTree: also its leaf float copies).
//
// Version 2. Every number is little-endian, floats are IEEE 754 binary32/64. The header is 448
// bytes; then the 15 array sections, each starting at a recorded offset that is a multiple of
// 64, in this order, zero bytes between them. Every section is the exact bytes of the in-memory
// array (DOP intervals padded to DopShape<K>::lanes, which does not depend on the ISA; staggered
// arrays with their gaps), so a loaded hierarchy's arrays are views into the mapped file
// (geometry/mappable_array.hpp): loading copies nothing but the small root hull.
//
//   byte  size  header field
//   0     8     magic 89 'K' 'D' 'O' 'P' 0D 0A 1A (the high byte and CR LF catch text-mode damage)
//   8     4     format version (2)
//   12    4     byte-order marker 0x01020304 (stored 04 03 02 01)
//   16    8     checksum of bytes [24, file size): XXH3_64bits (Debian libxxhash-dev) of the
//               XXH3_64bits digests (uint64) of its consecutive 256 KiB blocks, the last one
//               shorter (version 1: XXH3_64bits of the bytes in one piece)
//   24    8     file size in bytes
//   32    1     K (6, 8, 14, 18, 26, 32;      33  1  BV type (0 kdop6, 1 kdop14, 2 kdop18,
//                  0 for obb and rss)                 3 kdop26, 4 dop8, 5 obb, 6 rss, 7 kdop32)
//   34    1     role (0 environment, 1 object)
//   35    1     BuildConfig::rule (SplitRule)   36  1  BuildConfig::split_point (SplitPoint)
//   37    1     BuildConfig::all_directions     38  1  lanes (DopShape<K>::lanes; 0 for obb, rss)
//   39    1     root hull is exhaustive (object)
//   40    4     BuildConfig::leaf_size          44  4  BuildConfig::candidates
//   48    4     nodes                           52  4  triangles
//   56    4     depth (edges on the longest root-to-leaf path)
//   60    4     DOP vertices (object; else 0)   64  4  root hull points (object; else 0)
//   68    4     root hull edges (object; else 0)
//   72    4     climb starts (object: ClimbStarts 6 x 8 x 8; else 0)
//   76    4     section count (15)
//   80    8 x 9 doubles (object; else 0): vertex_error, vertex_extent, corner_radius,
//               bound_extent, sphere_center x y z, sphere_radius, root hull outside_bound
//   152   16 x 15  section table: offset (uint64), bytes (uint64) per section
//   392   56    zero
//
//   section              element   count                     object only
//   0  child_or_first    uint32    nodes
//   1  leaf_count        uint32    nodes
//   2  bounds            float     nodes x 2 lanes           (obb, rss: double, nodes x 15,
//                                                            builders/oriented_tree.hpp)
//   3  size              float     nodes
//   4  original          uint32    triangles (slot -> triangle index in the mesh file)
//   5  corners           double    9 x stride(triangles, 0)
//   6  vertex_first      uint32    nodes + 1                 x
//   7  vx, 8 vy, 9 vz    float     DOP vertices              x
//   10 leaf_floats       float     20 x stride(triangles, 16) x
//   11 hull_points       double    3 x hull points           x
//   12 hull_first_edge   uint32    hull points + 1           x
//   13 hull_edges        uint32    hull edges                x
//   14 climb_starts      uint32    climb starts              x
// stride(n, p) is StaggeredArrays' (geometry/staggered_arrays.hpp). An environment's object-only
// sections are empty; an oriented object's are too, but for leaf_floats (its header doubles hold
// only corner_radius and the sphere).
//
// Loading checks everything before use, so a damaged file is an IoError, never an out-of-bounds
// read: magic, version, byte order, K against the BV type, role, enum values, every count and
// section offset against the file size (overflow-safe), the checksum, and the structure (a
// pre-order binary tree with the stored depth whose leaves own consecutive slot ranges covering
// the triangles, a permutation, monotone vertex and edge ranges, hull indices in range, padding
// lanes [-inf, +inf]; oriented volumes finite with extents >= 0), and the values a build never
// writes (in the checksum's pass: a NaN or a coordinate past 1e30 in the corners and the root
// hull, a NaN or an infinity in the DOP vertices, leaf floats and node sizes, a NaN in the
// bounds; the header's doubles finite, extents and radii >= 0). Finite but wrong volumes with a
// recomputed checksum are not detected.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "builders/build_config.hpp"
#include "engine/hierarchy.hpp"

namespace kdop {

enum class HierarchyRole : std::uint8_t { environment = 0, object = 1 };

// "env" or "object", as `kdop build --role` spells them.
const char* to_string(HierarchyRole role);

inline constexpr std::uint32_t kHierarchyFileVersion = 2;

struct EnvironmentFile {
  EnvironmentHierarchy hierarchy;
  BuildConfig config;  // how it was built
};

struct ObjectFile {
  ObjectHierarchy hierarchy;
  BuildConfig config;
};

// The file's bytes.
std::string format_hierarchy_file(const EnvironmentHierarchy& hierarchy, const BuildConfig& config);
std::string format_hierarchy_file(const ObjectHierarchy& hierarchy, const BuildConfig& config);

// Parse a file held in memory (`name` is used in messages); throw IoError naming the byte
// offset and what was expected, including a file of the other role. The bytes are copied once
// (the hierarchy's arrays view the copy).
EnvironmentFile parse_environment_file(std::string_view bytes, const std::string& name);
ObjectFile parse_object_file(std::string_view bytes, const std::string& name);

// Map the file and parse it: the hierarchy's arrays view the mapping, which lives as long as
// they do.
EnvironmentFile read_environment_file(const std::string& path);
ObjectFile read_object_file(const std::string& path);

// What a mesh-file error adds where a hierarchy file is also taken (read_mesh's also_expected).
inline constexpr const char* kOrHierarchyFile = "a .kdop hierarchy file (kdop build)";

// True if `path` starts with the magic, or ends in ".kdop" (then loading says what is wrong);
// false if it cannot be read (the mesh reader then says why).
bool is_hierarchy_file(const std::string& path);

// The BV type a hierarchy file's header names, without loading it (which checks everything);
// nullopt if it cannot be read or is not one.
std::optional<BvType> hierarchy_file_bv(const std::string& path);

}  // namespace kdop
