// Scene file reader: nlohmann-json parses (into an ordered DOM, so messages follow file order),
// a parse callback tracks the JSON path and rejects duplicate keys (nlohmann would keep the last
// one silently), then SceneReader checks every key and value against the schema in the header.
#include "io/scene_file.hpp"
#include "geometry/coordinate_range.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

namespace fs = std::filesystem;
using Json = json::Json;
using json::path_component;
using json::path_index;
using json::printable;
using json::shown;

// Scene files are hand-written and small; the cap bounds what a wrong path can make us load.
constexpr std::uint64_t kMaxSceneBytes = std::uint64_t{64} << 20;

// Scales a quaternion by its largest component, so that squaring neither overflows nor
// underflows; the rotation is the same.
std::array<double, 4> scaled_quaternion(std::array<double, 4> q) {
  double big = 0;
  for (const double v : q) big = std::fmax(big, std::fabs(v));
  if (big > 0 && std::isfinite(big)) {
    for (double& v : q) v /= big;
  }
  return q;
}

class SceneReader : private json::Checks {
 public:
  SceneReader(const std::string& file, const std::string& base_dir)
      : Checks{file}, base_dir_(base_dir) {
    scene_.file = file;
  }

  Scene read(const Json& top) {
    if (!top.is_object()) {
      fail("", std::string("expected a JSON object at the top level, got ") + top.type_name());
    }
    check_keys(top, "", {"environment", "objects", "allow"});
    if (top.contains("environment")) {
      const Json& list = array(top.at("environment"), "environment");
      for (std::size_t i = 0; i < list.size(); ++i) {
        environment(list[i], path_index("environment", i));
      }
    }
    if (!top.contains("objects")) fail("", "missing key 'objects' (at least one object)");
    const Json& objects = array(top.at("objects"), "objects");
    if (objects.empty()) fail("objects", "expected at least one object, got an empty array");
    for (std::size_t i = 0; i < objects.size(); ++i) object(objects[i], path_index("objects", i));
    if (top.contains("allow")) {
      const Json& list = array(top.at("allow"), "allow");
      for (std::size_t i = 0; i < list.size(); ++i) allow(list[i], path_index("allow", i));
    }
    return std::move(scene_);
  }

 private:
  struct Item {
    std::string path;  // where the name was given, e.g. "environment[0]"
    bool environment = false;
  };

  void environment(const Json& entry, const std::string& path) {
    check_keys(entry, path, {"name", "mesh", "pose"});
    SceneEnvironmentMesh m;
    m.name = name(entry, path, true);
    m.mesh = mesh(entry, path);
    if (entry.contains("pose")) {
      m.has_pose = true;
      m.pose = pose(entry.at("pose"), path_component(path, "pose"));
    }
    scene_.environment.push_back(std::move(m));
  }

  void object(const Json& entry, const std::string& path) {
    check_keys(entry, path, {"name", "mesh", "padding"});
    SceneObject o;
    o.name = name(entry, path, false);
    o.mesh = mesh(entry, path);
    if (entry.contains("padding")) {
      const std::string at = path_component(path, "padding");
      o.padding = number(entry.at("padding"), at);
      if (!(o.padding >= 0)) fail(at, "expected a number >= 0, got " + shown(entry.at("padding")));
    }
    scene_.objects.push_back(std::move(o));
  }

  void allow(const Json& entry, const std::string& path) {
    if (!entry.is_array() || entry.size() != 2) {
      fail(path, std::string("expected a pair of names [\"a\", \"b\"], got ") +
                     (entry.is_array() ? "an array of " + std::to_string(entry.size())
                                       : std::string(entry.type_name())));
    }
    std::string names[2];
    const Item* items[2];
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string at = path_index(path, k);
      names[k] = string(entry[k], at);
      const auto it = items_.find(names[k]);
      if (it == items_.end()) {
        fail(at, "unknown name " + text::quote(names[k]) + " (not in environment or objects)");
      }
      items[k] = &it->second;
    }
    if (names[0] == names[1]) fail(path, "names " + text::quote(names[0]) + " twice");
    if (items[0]->environment && items[1]->environment) {
      fail(path, text::quote(names[0]) + " and " + text::quote(names[1]) +
                     " are both environment meshes, which are never checked against each other");
    }
    const auto key = std::minmax(names[0], names[1]);
    const auto [it, added] = allow_index_.try_emplace({key.first, key.second}, scene_.allow.size());
    if (!added) {
      fail(path, "the pair " + text::quote(names[0]) + ", " + text::quote(names[1]) +
                     " is already allowed at " + path_index("allow", it->second));
    }
    scene_.allow.emplace_back(std::move(names[0]), std::move(names[1]));
  }

  std::string name(const Json& entry, const std::string& path, bool is_environment) {
    const std::string at = path_component(path, "name");
    std::string n = string(required(entry, path, "name"), at);
    const auto [it, added] = items_.emplace(n, Item{path, is_environment});
    if (!added) fail(at, "duplicate name " + text::quote(n) + " (also " + it->second.path + ")");
    return n;
  }

  // The resolved path of entry.mesh, which must name an existing regular file.
  std::string mesh(const Json& entry, const std::string& path) {
    const std::string at = path_component(path, "mesh");
    const std::string given = string(required(entry, path, "mesh"), at);
    if (given.find('\0') != std::string::npos) fail(at, "a path cannot contain a NUL character");
    const fs::path p(given);
    const fs::path resolved = p.is_absolute() ? p : fs::path(base_dir_) / p;
    std::error_code ec, absolute_ec;
    const fs::file_status status = fs::status(resolved, ec);
    const fs::path absolute = fs::absolute(resolved, absolute_ec);
    const std::string shown = printable(absolute_ec ? resolved.string() : absolute.string());
    if (status.type() == fs::file_type::not_found) {
      fail(at, "file " + text::quote(given) + " not found (looked for " + shown + ")");
    }
    if (ec)
      fail(at, "cannot access " + text::quote(given) + " (" + shown + ": " + ec.message() + ")");
    if (status.type() != fs::file_type::regular) {
      fail(at, text::quote(given) + " is not a regular file (" + shown + ")");
    }
    return resolved.string();
  }

  Pose pose(const Json& value, const std::string& path) {
    if (!value.is_array() || value.size() != 7) {
      fail(path, std::string("expected an array of 7 numbers [tx, ty, tz, qw, qx, qy, qz], got ") +
                     (value.is_array() ? "an array of " + std::to_string(value.size())
                                       : std::string(value.type_name())));
    }
    double v[7];
    for (std::size_t k = 0; k < 7; ++k) v[k] = number(value[k], path_index(path, k));
    const std::array<double, 4> q = scaled_quaternion({v[3], v[4], v[5], v[6]});
    try {
      check_translation_range(v[0], v[1], v[2]);
      return pose_from_quaternion(v[0], v[1], v[2], q[0], q[1], q[2], q[3]);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
  }

  const Json& array(const Json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, std::string("expected an array, got ") + value.type_name());
    return value;
  }

  // A non-empty string.
  std::string string(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, std::string("expected a string, got ") + value.type_name());
    std::string s = value.get<std::string>();
    if (s.empty()) fail(path, "expected a non-empty string");
    return s;
  }

  const std::string& base_dir_;
  Scene scene_;
  std::map<std::string, Item> items_;  // every name given so far
  std::map<std::pair<std::string, std::string>, std::size_t> allow_index_;  // pair (sorted): index
};

}  // namespace

bool Scene::checks(const std::string& a, const std::string& b) const {
  if (a == b) return false;
  const auto in_environment = [this](const std::string& n) {
    return std::any_of(environment.begin(), environment.end(),
                       [&n](const SceneEnvironmentMesh& m) { return m.name == n; });
  };
  if (in_environment(a) && in_environment(b)) return false;
  return std::none_of(allow.begin(), allow.end(), [&](const auto& p) {
    return (p.first == a && p.second == b) || (p.first == b && p.second == a);
  });
}

Scene read_scene(const std::string& path) {
  const std::string text = json::read_text_file(
      path, kMaxSceneBytes,
      "larger than " + std::to_string(kMaxSceneBytes >> 20) + " MiB: not a scene file?");
  return parse_scene(text, path, fs::path(path).parent_path().string());
}

Scene parse_scene(std::string_view text, const std::string& name, const std::string& base_dir) {
  return SceneReader(name, base_dir).read(json::parse(text, name));
}

}  // namespace kdop
