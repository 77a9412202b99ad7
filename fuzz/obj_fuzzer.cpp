// libFuzzer target: the Wavefront OBJ mesh reader.
#include "fuzz/mesh_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_mesh(data, size, kdop::MeshFormat::obj);
  return 0;
}
