#pragma once
// A folder of empty files under the names the seed scenes and setups refer to (seeds.cpp and
// examples/), for the readers whose paths must name existing regular files: with it, fuzzing gets
// past that check to the ones after it. Created once per process, removed at exit.
#include <stdlib.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>

namespace kdop::fuzz {

inline constexpr std::array<const char*, 11> kFixtureFiles = {
    "table.obj", "wall.obj",  "part.obj",   "arm.obj",  "clamp.obj",  "plate.obj",
    "box.obj",   "stock.stl", "tools.json", "env.kdop", "object.kdop"};

class FixtureDir {
 public:
  FixtureDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kdop-fuzz-XXXXXX").string();
    // On failure the path stays empty, and the readers then say "not found".
    if (::mkdtemp(pattern.data()) == nullptr) return;
    path_ = pattern;
    for (const char* name : kFixtureFiles) std::ofstream(path_ / name);
    std::filesystem::create_directory(path_ / "folder");  // not a regular file
  }
  ~FixtureDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  FixtureDir(const FixtureDir&) = delete;
  FixtureDir& operator=(const FixtureDir&) = delete;

  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline const std::string& fixture_dir() {
  static const FixtureDir dir;
  static const std::string path = dir.path();
  return path;
}

}  // namespace kdop::fuzz
