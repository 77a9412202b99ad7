// libFuzzer target: tool libraries (io/tool_library.hpp): kdop's JSON form, CAMotics tool tables
// and CAMotics projects (picked by content, and by the .camotics extension). Every tool a library
// accepts must make the solids and the cutter body the NC checks build from it, a body that holds
// the tool's profile and whose pieces (eroded too) run contiguously to its top.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "fuzz/fuzz_check.hpp"
#include "geometry/cutter_body.hpp"
#include "io/tool_library.hpp"

namespace kdop::fuzz {
namespace {

void check_library(const ToolLibrary& library) {
  require(!library.tools.empty(), "at least one tool");
  for (const auto& [number, tool] : library.tools) {
    require(number >= 1 && tool.number == number, "tools keyed by their number");
    try {
      make_tool(tool.geometry);
      const CutterBody body = cutter_body(tool.geometry);
      // The body holds the outline, and its pieces run contiguously up to its top, eroded too.
      for (const ProfilePoint& p : tool.geometry.profile) {
        require(body.radius_at(p.z) >= p.r, "the cutter body holds its profile");
      }
      for (const double s : {0.0, 1e-6, 0.5 * body.r_max}) {
        const std::optional<CutterBody> e = eroded(body, s);
        if (!e) continue;
        const RevolvedSolid solid = to_solid(*e);
        require(!solid.parts.empty(), "a body has pieces");
        for (std::size_t i = 0; i + 1 < solid.parts.size(); ++i) {
          require(solid.parts[i].z1 == solid.parts[i + 1].z0, "contiguous pieces");
        }
        // A capped body (ball, bull nose) ends at its cap, or at its disc where the cap is below
        // it (see geometry/cutter_body.hpp).
        const double top = e->capped() ? std::max(e->z_lo, e->top()) : e->z_hi;
        require(solid.parts.back().z1 == top, "pieces up to the top");
      }
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "kdop fuzz: tool %d: %s\n", number, e.what());
      require(false, "an accepted tool makes solids");
    }
  }
}

}  // namespace
}  // namespace kdop::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kdop::fuzz;
  const std::string_view text = as_text(data, size);
  accept_io_errors([&] { check_library(kdop::parse_tool_library(text, "tools.json")); });
  accept_io_errors([&] { check_library(kdop::parse_tool_library(text, "tools.camotics")); });
  return 0;
}
