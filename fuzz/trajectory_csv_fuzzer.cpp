// libFuzzer target: trajectory CSV files for `kdop path` (io/trajectory_file.hpp).
#include "fuzz/trajectory_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_trajectory(data, size, kdop::TrajectoryFormat::csv);
  return 0;
}
