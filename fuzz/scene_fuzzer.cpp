// libFuzzer target: scene JSON files for `kdop path` (io/scene_file.hpp), with mesh paths
// resolved in a folder where the seeds' mesh names exist.
#include <cmath>
#include <set>

#include "fuzz/fixture_dir.hpp"
#include "fuzz/fuzz_check.hpp"
#include "io/scene_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kdop::fuzz;
  accept_io_errors([&] {
    const kdop::Scene scene = kdop::parse_scene(as_text(data, size), "fuzz.json", fixture_dir());
    require(!scene.objects.empty(), "at least one object");
    std::set<std::string> names;
    for (const auto& e : scene.environment) names.insert(e.name);
    for (const auto& o : scene.objects) {
      names.insert(o.name);
      require(std::isfinite(o.padding) && o.padding >= 0, "padding >= 0");
    }
    require(names.size() == scene.environment.size() + scene.objects.size() && !names.count(""),
            "unique, non-empty names");
    for (const auto& [a, b] : scene.allow) {
      require(names.count(a) && names.count(b) && !scene.checks(a, b), "allow names known items");
    }
  });
  return 0;
}
