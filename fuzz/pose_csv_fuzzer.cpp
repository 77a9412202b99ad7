// libFuzzer target: pose CSV files (io/pose_file.hpp), for a batch of one object (the object
// column optional) and of two (required).
#include "fuzz/pose_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_poses(data, size, kdop::PoseFormat::csv, {"tool"});
  kdop::fuzz::fuzz_poses(data, size, kdop::PoseFormat::csv, {"tool", "holder"});
  return 0;
}
