// libFuzzer target: G-code programs (io/gcode_program.hpp), read without a setup and with one
// (work offsets, stored positions, a tool table). Every move a program expands to must have
// finite points, a known block and plane, and sample to exactly its start and end.
#include <cmath>
#include <optional>
#include <vector>

#include "fuzz/fuzz_check.hpp"
#include "io/gcode_program.hpp"

namespace kdop::fuzz {
namespace {

NcSetup make_setup() {
  NcSetup setup;
  for (int i = 0; i < 6; ++i) setup.work_offsets[i] = {10.0 * i, -5.0 * i, -200.0 + i};
  setup.g28 = {0, 0, 150};
  setup.g30 = {-50, 0, 150};
  setup.tool_lengths = {{1, 100}, {2, 75.5}, {3, 60}, {12, 0.25}};
  return setup;
}

bool finite(const std::array<double, 3>& p) {
  return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
}

void check_program(const NcProgram& program) {
  std::vector<std::array<double, 3>> samples;
  for (std::size_t i = 0; i < program.moves.size(); ++i) {
    const NcMove& m = program.moves[i];
    require(m.block < program.blocks.size(), "a move's block exists");
    require(finite(m.start) && finite(m.end) && finite(m.centre) && std::isfinite(m.tool_length),
            "finite points");
    if (m.kind != NcMoveKind::arc) continue;
    require(m.plane == 17 || m.plane == 18 || m.plane == 19, "an arc's plane is 17, 18 or 19");
    require(m.turns >= 1 && std::isfinite(arc_sweep(m)) && std::isfinite(arc_radius(m)),
            "an arc turns, by a finite angle");
    if (i >= 256) continue;  // sampling every arc of a long program would only slow the run
    samples.clear();
    sample_move(m, 5, samples);
    require(samples.size() == 6 && samples.front() == m.start && samples.back() == m.end,
            "samples start and end exactly at the move's ends");
    for (const auto& p : samples) require(finite(p), "finite samples");
  }
}

}  // namespace
}  // namespace kdop::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kdop::fuzz;
  static const kdop::NcSetup setup = make_setup();
  // The run's 2 GB: the default limit of 50 million moves would need 10 GB (kdop nc derives its
  // limit from the memory budget the same way, kNcBytesPerMove each).
  kdop::NcLimits limits;
  limits.max_moves = (std::uint64_t{1} << 30) / kdop::kNcBytesPerMove;
  const std::string_view text = as_text(data, size);
  accept_io_errors([&] { check_program(kdop::parse_gcode_program(text, "fuzz.nc", {}, limits)); });
  accept_io_errors(
      [&] { check_program(kdop::parse_gcode_program(text, "fuzz.nc", setup, limits)); });
  return 0;
}
