// kdop-fuzz-seeds OUTDIR: the seed corpora of the fuzz targets, one folder per target
// (OUTDIR/stl_fuzzer, ...), written by the project's own writers (meshes, hierarchy files), from
// a generated scene's poses (pose files, scenes, trajectories) and from examples/ (G-code, tool
// tables, setups, scenes), plus a few hand-written files for features the writers never emit
// (polygons, comments, CAMotics tables, canned cycles). Small on purpose: libFuzzer mutates
// faster from small inputs, and its max_len follows the largest seed.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "engine/hierarchy.hpp"
#include "geometry/shapes.hpp"
#include "io/generated_scene.hpp"
#include "io/hierarchy_file.hpp"
#include "io/mesh_writer.hpp"

namespace kdop {
namespace {

namespace fs = std::filesystem;

class SeedDir {
 public:
  explicit SeedDir(fs::path root) : root_(std::move(root)) {}

  void write(const std::string& target, const std::string& name, const std::string& bytes) const {
    fs::create_directories(root_ / target);
    write_file_atomic((root_ / target / name).string(), bytes);
  }

  // Every file of `folder` whose name ends with `suffix` (".nc", "tools.json").
  void copy_examples(const std::string& target, const fs::path& folder,
                     const std::string& suffix) const {
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (!entry.path().filename().string().ends_with(suffix)) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      write(target, entry.path().filename().string(),
            {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
    }
  }

 private:
  fs::path root_;
};

// ---- meshes and hierarchies -------------------------------------------------------------------

void write_meshes(const SeedDir& out, const std::vector<std::pair<std::string, Mesh>>& meshes) {
  for (const auto& [name, mesh] : meshes) {
    out.write("stl_fuzzer", name + "-ascii.stl", format_stl_ascii(mesh));
    out.write("stl_fuzzer", name + "-binary.stl", format_stl_binary(mesh));
    out.write("obj_fuzzer", name + ".obj", format_obj(mesh));
    out.write("off_fuzzer", name + ".off", format_off(mesh));
    out.write("ply_fuzzer", name + "-ascii.ply", format_ply(mesh, PlyEncoding::ascii));
    out.write("ply_fuzzer", name + "-le.ply", format_ply(mesh, PlyEncoding::binary_little_endian));
    out.write("ply_fuzzer", name + "-be.ply", format_ply(mesh, PlyEncoding::binary_big_endian));
  }
  // What the writers never emit: polygons, negative and slashed indices, comments, colours.
  out.write("obj_fuzzer", "polygons.obj",
            "# quad and pentagon\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0.25\nvt 0 0\n"
            "vn 0 0 1\ng top\nusemtl m\nf 1/1/1 2/1/1 3/1/1 4/1/1\nf -5 -4 -3 -2 -1\nf 1//1 2//1 "
            "5//1\n");
  out.write("off_fuzzer", "polygons.off",
            "OFF\n# a quad and a triangle with colours\n5 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n"
            "0.5 0.5 1\n4 0 1 2 3 255 0 0\n3 0 1 4 0.5 0.5 0.5 1\n");
  out.write("ply_fuzzer", "properties.ply",
            "ply\nformat ascii 1.0\ncomment extra properties\nelement vertex 4\nproperty float x\n"
            "property float y\nproperty float z\nproperty uchar red\nelement face 1\n"
            "property list uchar int vertex_indices\nproperty int flags\nend_header\n0 0 0 1\n"
            "1 0 0 2\n1 1 0 3\n0 1 0 4\n4 0 1 2 3 7\n");
}

void write_hierarchies(const SeedDir& out, const Mesh& mesh) {
  const BvType types[] = {BvType::kdop6,  BvType::kdop14, BvType::kdop18, BvType::kdop26,
                          BvType::kdop32, BvType::dop8,   BvType::obb,    BvType::rss};
  const BuildConfig env_config = BuildConfig::environment_defaults();
  const BuildConfig object_config = BuildConfig::object_defaults();
  for (const BvType bv : types) {
    const std::string name = to_string(bv);
    out.write("hierarchy_fuzzer", name + "-env.kdop",
              format_hierarchy_file(build_environment_hierarchy(mesh, bv, env_config), env_config));
    out.write(
        "hierarchy_fuzzer", name + "-object.kdop",
        format_hierarchy_file(build_object_hierarchy(mesh, bv, object_config), object_config));
  }
}

// ---- poses, trajectories, scenes --------------------------------------------------------------

// The unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method: the largest of the
// four squared components first, for accuracy).
std::array<double, 4> quaternion_of(const Pose& p) {
  const auto& r = p.r;
  const double trace = r[0] + r[4] + r[8];
  if (trace > 0) {
    const double s = 2 * std::sqrt(1 + trace);
    return {s / 4, (r[7] - r[5]) / s, (r[2] - r[6]) / s, (r[3] - r[1]) / s};
  }
  if (r[0] > r[4] && r[0] > r[8]) {
    const double s = 2 * std::sqrt(1 + r[0] - r[4] - r[8]);
    return {(r[7] - r[5]) / s, s / 4, (r[1] + r[3]) / s, (r[2] + r[6]) / s};
  }
  if (r[4] > r[8]) {
    const double s = 2 * std::sqrt(1 + r[4] - r[0] - r[8]);
    return {(r[2] - r[6]) / s, (r[1] + r[3]) / s, s / 4, (r[5] + r[7]) / s};
  }
  const double s = 2 * std::sqrt(1 + r[8] - r[0] - r[4]);
  return {(r[3] - r[1]) / s, (r[2] + r[6]) / s, (r[5] + r[7]) / s, s / 4};
}

// The shortest text that reads back as v.
std::string number(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// "tx,ty,tz,qw,qx,qy,qz" (or as a JSON array's inside).
std::string pose_fields(const Pose& p) {
  const auto q = quaternion_of(p);
  std::string s;
  for (double v : {p.t[0], p.t[1], p.t[2], q[0], q[1], q[2], q[3]}) {
    s += (s.empty() ? "" : ",") + number(v);
  }
  return s;
}

std::string npy_file(const std::string& shape, const std::vector<double>& values) {
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
  // NumPy pads the header with blanks and a newline so the data starts at a multiple of 64.
  const std::size_t header = (10 + dict.size() + 1 + 63) / 64 * 64 - 10;
  dict.resize(header - 1, ' ');
  std::string out = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header & 0xFF) +
                    static_cast<char>(header >> 8) + dict + '\n';
  for (double v : values) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) out += static_cast<char>(bits >> 8 * i);
  }
  return out;
}

void write_poses(const SeedDir& out, const std::vector<Pose>& poses) {
  std::string one = "pose_id,tx,ty,tz,qw,qx,qy,qz\n";
  std::string two = "object,pose_id,tx,ty,tz,qw,qx,qy,qz,note\r\n";
  std::vector<double> rows, matrices;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const Pose& p = poses[i];
    one += "p" + std::to_string(i) + "," + pose_fields(p) + "\n";
    two +=
        (i % 2 ? "holder" : "tool") + (", " + std::to_string(i) + ", ") + pose_fields(p) + ",x\r\n";
    const auto q = quaternion_of(p);
    rows.insert(rows.end(), {p.t[0], p.t[1], p.t[2], q[0], q[1], q[2], q[3]});
    for (int row = 0; row < 3; ++row) {
      matrices.insert(matrices.end(), {p.r[3 * row], p.r[3 * row + 1], p.r[3 * row + 2], p.t[row]});
    }
    matrices.insert(matrices.end(), {0, 0, 0, 1});
  }
  const std::string n = std::to_string(poses.size());
  out.write("pose_csv_fuzzer", "one-object.csv", one);
  out.write("pose_csv_fuzzer", "two-objects.csv", two);
  // Quoted fields, one of them across lines (RFC 4180).
  out.write("pose_csv_fuzzer", "quoted.csv",
            "\"pose_id\",tx,ty,tz,qw,qx,qy,qz\n\"a\nb\",1,2,3,1,0,0,0\n\"c,\"\"d\"\"\r\n\",0,0,0,1,"
            "0,0,0\r\n");
  out.write("pose_npy_fuzzer", "rows.npy", npy_file("(" + n + ", 7)", rows));
  out.write("pose_npy_fuzzer", "matrices.npy", npy_file("(" + n + ", 4, 4)", matrices));
}

void write_trajectories(const SeedDir& out, const std::vector<Pose>& poses) {
  std::string csv = "t,object,tx,ty,tz,qw,qx,qy,qz\n";
  std::string box, arm;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const std::string t = number(0.25 * static_cast<double>(i));
    const std::string object = i % 2 ? "arm" : "box";
    csv += t + "," + object + "," + pose_fields(poses[i]) + "\n";
    std::string& json = i % 2 ? arm : box;
    json += (json.empty() ? "" : ", ") + ("{\"t\": " + t) + ", \"pose\": [" +
            pose_fields(poses[i]) + "]}";
  }
  out.write("trajectory_csv_fuzzer", "two-objects.csv", csv);
  out.write("trajectory_csv_fuzzer", "quoted.csv",
            "\"t\",\"object\",tx,ty,tz,qw,qx,qy,qz\n0,\"box\nlid\",0,0,0,1,0,0,0\n1,\"box\nlid\",1,"
            "0,0,1,0,0,0\n");
  out.write("trajectory_json_fuzzer", "two-objects.json",
            "{\"objects\": {\"box\": [" + box + "],\n \"arm\": [" + arm + "]}}\n");
}

void write_scenes(const SeedDir& out, const Pose& pose) {
  out.write("scene_fuzzer", "plate-box.json",
            "{\"environment\": [{\"name\": \"plate\", \"mesh\": \"plate.obj\", \"pose\": [" +
                pose_fields(pose) +
                "]}],\n \"objects\": [{\"name\": \"box\", \"mesh\": \"box.obj\", \"padding\": "
                "0.5}, {\"name\": \"arm\", \"mesh\": \"object.kdop\"}],\n \"allow\": [[\"box\", "
                "\"arm\"]]}\n");
  out.write("scene_fuzzer", "hierarchies.json",
            "{\"environment\": [{\"name\": \"env\", \"mesh\": \"env.kdop\"}], \"objects\": "
            "[{\"name\": \"o\", \"mesh\": \"object.kdop\"}]}\n");
}

// ---- NC ---------------------------------------------------------------------------------------

void write_nc(const SeedDir& out, const fs::path& examples) {
  out.copy_examples("gcode_fuzzer", examples / "nc", ".nc");
  out.copy_examples("tool_library_fuzzer", examples / "nc", "tools.json");
  out.copy_examples("nc_setup_fuzzer", examples / "nc", "setup.json");
  out.write("gcode_fuzzer", "arcs.nc",
            "G21 G90 G17 G54\nT2 M6\nG43 H2\nG0 X0 Y0 Z5\nG1 Z-1 F200\n"
            "G2 X10 Y0 I5 J0\nG3 X0 Y0 R5\nG2 X0 Y0 I5 P3 Z-3\nG18 G3 X5 Z-3 I2.5 K0\n"
            "G19 G2 Y5 Z-3 J2.5 K0\nG17 G90.1 G2 X10 Y5 I7.5 J5\nG91.1 G3 X-5.Y.5 R-10\n"
            "G91 G1 X1 Y1\nG90 G0 Z30\nM30\n");
  out.write("gcode_fuzzer", "cycles.nc",
            "%\n(drilling)\nG20 G17 G90 G55\nT1 M6 S1000 M3\nG43 H1 G0 X1 Y1 Z1\n"
            "G98 G81 X1 Y1 Z-0.5 R0.1 F10\nX2\nG99 G82 X3 Y1 Z-0.5 R0.1 P0.5\n"
            "G83 X4 Y1 Z-1 R0.1 Q0.2\nG91 G73 X0.5 Y0 Z-0.5 R0.1 Q0.1 L4\nG80 G90\n"
            "G10 L2 P2 X1 Y2 Z3\nG92 X0 Y0\nG92.1\nG28 G91 Z0\nG30\nG90 G53 G0 Z0\nG4 P1\n"
            "/M8\nM9 M5\n%\n");
  out.write("tool_library_fuzzer", "camotics-table.json",
            "{\"5\": {\"units\": \"mm\", \"shape\": \"Cylindrical\", \"length\": 20, \"diameter\": "
            "4, \"number\": 5},\n \"6\": {\"shape\": \"cone\", \"length\": 3, \"diameter\": 6},\n"
            " \"7\": {\"units\": \"imperial\", \"shape\": \"snubnose\", \"length\": 0.5, "
            "\"diameter\": 0.25, \"snub_diameter\": 0.125}}\n");
  out.write("tool_library_fuzzer", "camotics-project.json",
            "{\"units\": \"metric\", \"resolution-mode\": \"medium\", \"resolution\": 0.2,\n"
            " \"tools\": {\"1\": {\"units\": \"metric\", \"shape\": \"ballnose\", \"length\": 12, "
            "\"diameter\": 3.175, \"description\": \"1/8 ball\"}},\n \"workpiece\": "
            "{\"automatic\": true, \"margin\": 5}, \"files\": [\"part.nc\"]}\n");
  out.write("tool_library_fuzzer", "cone-inch.json",
            "{\"units\": \"inch\", \"tools\": {\"4\": {\"shape\": \"cone\", \"diameter\": 0.5, "
            "\"included_angle\": 90, \"tip_diameter\": 0.05, \"cutting_length\": 0.5, \"length\": "
            "2, \"units\": \"mm\"}, \"12\": {\"shape\": \"bull\", \"diameter\": 0.25, "
            "\"corner_radius\": 0.03, \"cutting_length\": 0.5, \"length\": 1.5, \"gauge_length\": "
            "3, \"description\": \"bull\"}}}\n");
  out.write("tool_library_fuzzer", "composite.json",
            "{\"units\": \"mm\", \"tools\": {\"3\": {\"shape\": \"composite\", \"profile\": "
            "[[0, 0], [2.5, 2.5], [6, 3], [20, 3]], \"shank_diameter\": 6, \"length\": 50, "
            "\"holder\": [{\"height\": 20, \"lower_diameter\": 30, \"upper_diameter\": 40}]}}}\n");
  out.write("nc_setup_fuzzer", "inch-mesh-stock.json",
            "{\"units\": \"inch\", \"stock\": {\"mesh\": \"stock.stl\", \"units\": \"mm\"},\n"
            " \"part\": {\"box\": [0, 0, -1, 4, 2, 0]}, \"fixtures\": [{\"name\": \"vise\", "
            "\"mesh\": \"clamp.obj\"}],\n \"tolerance\": 0.001, \"work_offsets\": {\"G59\": [1, "
            "2, 3]}, \"g28\": [0, 0, 5],\n \"start\": [0, 0, 8], \"initial_tool\": 2}\n");
}

}  // namespace
}  // namespace kdop

int main(int argc, char** argv) {
  using namespace kdop;
  if (argc != 2) {
    std::fprintf(stderr, "usage: kdop-fuzz-seeds OUTDIR\n");
    return 2;
  }
  try {
    const SeedDir out{fs::path(argv[1])};
    const fs::path examples = KDOP_EXAMPLES_DIR;
    // The swept scene's axe (38 triangles) and a tenth of its path: small, and made by the
    // benchmark's scene generator.
    const GeneratedScene swept = generate_scenes("swept", {.seed = 1, .scale = 0.01}).front();
    std::vector<Pose> poses(swept.poses.begin(),
                            swept.poses.begin() + std::min<std::size_t>(swept.poses.size(), 8));
    const Mesh sphere = make_sphere({0.5, 0.2, 0.1}, 1.2, 6, 4);
    write_meshes(
        out, {{"box", make_box({0, 0, 0}, {1, 2, 3})}, {"sphere", sphere}, {"axe", swept.object}});
    out.copy_examples("obj_fuzzer", examples / "nc", ".obj");
    write_hierarchies(out, sphere);
    write_poses(out, poses);
    write_trajectories(out, poses);
    write_scenes(out, poses.back());
    out.copy_examples("scene_fuzzer", examples / "path", ".json");
    out.copy_examples("trajectory_csv_fuzzer", examples / "path", ".csv");
    write_nc(out, examples);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kdop-fuzz-seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
