#pragma once
// Scene files for `kdop path` (JSON, read with nlohmann-json):
//   {"environment": [{"name": "plate", "mesh": "plate.obj", "pose": [tx,ty,tz,qw,qx,qy,qz]}],
//    "objects": [{"name": "box", "mesh": "box.obj", "padding": 0.0}],
//    "allow": [["box", "plate"]]}
// - environment: static meshes (or environment hierarchy files, .kdop), each with a unique name
//   and an optional fixed pose (p' = R p + t, Hamilton quaternion scalar first, any finite
//   non-zero quaternion is normalized); may be empty or left out.
// - objects: moving meshes (or object hierarchy files), at least one; padding >= 0 is a
//   clearance the object keeps from everything (default 0).
// - allow: pairs of names never checked against each other (object-environment or
//   object-object; environment meshes are never checked against each other, so a pair of two
//   environment meshes is an error, as is a pair naming one item twice). Default: every
//   object against every environment mesh and every pair of objects.
// Paths are relative to the scene file's folder (joined, not normalized, so symbolic links
// resolve as the file system does); they must name existing regular files. Names are unique
// across environment and objects, and non-empty.
//
// Every problem is one IoError line naming the file and the key's JSON path, e.g.
//   "scene.json: objects[1].mesh: file 'box.obj' not found (looked for /abs/box.obj)"
//   "scene.json: byte 57: JSON parse error at line 3, column 12: syntax error ..."
// for unknown, duplicate, missing or mistyped keys, missing files, duplicate names, allow entries
// that name nothing, numbers beyond double's range and zero quaternions. Syntax errors give the
// 0-based offset of the byte the JSON parser stopped at.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "geometry/pose.hpp"

namespace kdop {

struct SceneEnvironmentMesh {
  std::string name;
  std::string mesh;  // resolved path (relative paths joined to the scene's folder)
  bool has_pose = false;
  Pose pose;  // identity unless has_pose
};

struct SceneObject {
  std::string name;
  std::string mesh;  // resolved path
  double padding = 0;
};

struct Scene {
  std::string file;  // the scene file's name as given (for messages)
  std::vector<SceneEnvironmentMesh> environment;
  std::vector<SceneObject> objects;
  std::vector<std::pair<std::string, std::string>> allow;  // as written

  // True if the two named items are checked against each other: false when a pair is in
  // `allow` (either order), when both are environment meshes, and when a == b.
  bool checks(const std::string& a, const std::string& b) const;
};

// Reads and checks `path`; mesh files must exist (they are not read here).
Scene read_scene(const std::string& path);

// The same from text; `base_dir` is the folder relative mesh paths are joined to.
Scene parse_scene(std::string_view text, const std::string& name, const std::string& base_dir);

}  // namespace kdop
