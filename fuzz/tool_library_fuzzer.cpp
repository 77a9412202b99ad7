// libFuzzer target: tool libraries (io/tool_library.hpp): kdop's JSON form, CAMotics tool tables
// and CAMotics projects (picked by content, and by the .camotics extension). Every tool a library
// accepts must make the solids and the cutter body the NC checks build from it.
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
      cutter_body(tool.geometry);
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
