#pragma once
// The body of the trajectory targets: parse, then check what io/trajectory_file.hpp promises of a
// trajectory it returns (objects with waypoints, finite strictly increasing times, finite
// translations, unit quaternions).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_check.hpp"
#include "io/trajectory_file.hpp"

namespace kdop::fuzz {

inline void fuzz_trajectory(const std::uint8_t* data, std::size_t size, TrajectoryFormat format) {
  accept_io_errors([&] {
    const Trajectory trajectory = parse_trajectory(as_text(data, size), "fuzz", format);
    require(!trajectory.objects.empty() && trajectory.paths.size() == trajectory.objects.size(),
            "one path per object");
    for (const auto& path : trajectory.paths) {
      require(!path.empty(), "every object has a waypoint");
      for (std::size_t i = 0; i < path.size(); ++i) {
        const Waypoint& w = path[i];
        require(std::isfinite(w.t) && (i == 0 || path[i - 1].t < w.t), "t finite, increasing");
        require(std::isfinite(w.translation[0]) && std::isfinite(w.translation[1]) &&
                    std::isfinite(w.translation[2]),
                "finite translation");
        const auto& q = w.rotation;
        require(std::abs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) < 1e-9,
                "unit quaternion");
      }
    }
  });
}

}  // namespace kdop::fuzz
