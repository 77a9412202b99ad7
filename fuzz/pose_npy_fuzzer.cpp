// libFuzzer target: pose .npy files (io/pose_file.hpp): NumPy 1.0-3.0 headers, (N, 7) rows and
// (N, 4, 4) matrices.
#include "fuzz/pose_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_poses(data, size, kdop::PoseFormat::npy, {"tool"});
  return 0;
}
