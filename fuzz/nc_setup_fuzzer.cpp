// libFuzzer target: NC setup JSON files (io/nc_setup.hpp), with mesh and tool paths resolved in
// a folder where the seeds' file names exist.
#include <cmath>

#include "fuzz/fixture_dir.hpp"
#include "fuzz/fuzz_check.hpp"
#include "io/nc_setup.hpp"

namespace kdop::fuzz {
namespace {

void check_solid(const NcSetupSolid& s) {
  if (!s.is_box()) {
    require(std::isfinite(s.mesh_scale) && s.mesh_scale > 0, "a positive mesh scale");
    return;
  }
  for (int i = 0; i < 3; ++i) {
    require(std::isfinite(s.box[i]) && std::isfinite(s.box[i + 3]) && s.box[i] < s.box[i + 3],
            "a box with finite lo < hi");
  }
}

}  // namespace
}  // namespace kdop::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kdop::fuzz;
  accept_io_errors([&] {
    const kdop::NcSetupFile setup =
        kdop::parse_nc_setup(as_text(data, size), "setup.json", fixture_dir());
    check_solid(setup.stock);
    if (setup.has_part) check_solid(setup.part);
    for (const auto& fixture : setup.fixtures) check_solid(fixture);
    require(std::isfinite(setup.tolerance) && setup.tolerance >= 0, "tolerance >= 0");
  });
  return 0;
}
