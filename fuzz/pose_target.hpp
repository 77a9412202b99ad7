#pragma once
// The body of the pose file targets: the same bytes read through a seekable stream and through
// one that cannot seek (a pipe on standard input), in chunks of different sizes. Both must give
// the same answer, and every record a finite pose with a rotation and a known object.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.hpp"
#include "io/pose_file.hpp"

namespace kdop::fuzz {

// A stream buffer over bytes that cannot seek or tell its size.
class PipeBuf : public std::streambuf {
 public:
  explicit PipeBuf(std::string& bytes) {
    setg(bytes.data(), bytes.data(), bytes.data() + bytes.size());
  }
};

// Every record, or nullopt for an IoError.
inline std::optional<std::vector<PoseRecord>> read_poses(std::istream& in, PoseFormat format,
                                                         const std::vector<std::string>& objects,
                                                         std::size_t chunk) {
  std::optional<std::vector<PoseRecord>> all;
  accept_io_errors([&] {
    PoseReader reader(in, "fuzz", format, objects);
    std::vector<PoseRecord> records, part;
    while (reader.next_chunk(part, chunk)) {
      require(!part.empty() && part.size() <= chunk, "a chunk holds 1 to max_count records");
      records.insert(records.end(), part.begin(), part.end());
    }
    require(reader.records_read() == records.size(), "records_read counts the records");
    all = std::move(records);
  });
  return all;
}

// 1e-5: 4x4 matrices are accepted with |R^T R - I| up to 1e-6.
inline bool unit_rotation_row(const Pose& p, int row) {
  const double* r = p.r.data() + 3 * row;
  return std::abs(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] - 1) < 1e-5;
}

inline void fuzz_poses(const std::uint8_t* data, std::size_t size, PoseFormat format,
                       const std::vector<std::string>& objects) {
  std::string bytes(as_text(data, size));
  std::istringstream seekable(bytes);
  PipeBuf pipe_buf(bytes);
  std::istream piped(&pipe_buf);
  const auto whole = read_poses(seekable, format, objects, 1000);
  const auto chunked = read_poses(piped, format, objects, 3);
  require(whole.has_value() == chunked.has_value(), "seekable and piped input agree");
  if (!whole) return;
  require(whole->size() == chunked->size(), "seekable and piped input agree");
  for (std::size_t i = 0; i < whole->size(); ++i) {
    const PoseRecord& a = (*whole)[i];
    const PoseRecord& b = (*chunked)[i];
    require(a.pose_id == b.pose_id && a.object == b.object && a.pose.r == b.pose.r &&
                a.pose.t == b.pose.t,
            "seekable and piped input agree");
    require(a.object < objects.size(), "object index in range");
    require(std::isfinite(a.pose.t[0]) && std::isfinite(a.pose.t[1]) && std::isfinite(a.pose.t[2]),
            "finite translation");
    require(unit_rotation_row(a.pose, 0) && unit_rotation_row(a.pose, 1) &&
                unit_rotation_row(a.pose, 2),
            "a rotation (rows of length 1)");
  }
}

}  // namespace kdop::fuzz
