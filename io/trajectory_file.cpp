// Trajectory file reader. The file is read whole (its waypoints are all kept anyway); CSV is then
// scanned line by line with text::LineScanner, JSON parsed by nlohmann-json into an ordered DOM
// (objects keep file order) with a parse callback that tracks the JSON path and rejects duplicate
// keys, which nlohmann would otherwise drop silently.
#include "io/trajectory_file.hpp"
#include "geometry/coordinate_range.hpp"
#include "io/file_extension.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/csv_text.hpp"
#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

using Json = json::Json;
using json::path_component;
using json::path_index;

// CSV is read whole and its waypoints take about as much memory again; JSON's DOM takes several
// times the text, so large trajectories belong in CSV.
constexpr std::uint64_t kMaxCsvBytes = std::uint64_t{4} << 30;
constexpr std::uint64_t kMaxJsonBytes = std::uint64_t{256} << 20;

std::string number_text(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// Normalizes a quaternion (w, x, y, z), scaling by its largest component first so that squaring
// neither overflows nor underflows. False if it is zero.
bool normalize(std::array<double, 4>& q) {
  double big = 0;
  for (const double v : q) big = std::fmax(big, std::fabs(v));
  if (!(big > 0)) return false;
  double n = 0;
  for (double& v : q) {
    v /= big;
    n += v * v;
  }
  n = std::sqrt(n);
  for (double& v : q) v /= n;
  return true;
}

// The motion from waypoint a to b is finite: far-apart finite times (-1e308, 1e308) overflow in
// between, where motions interpolate. (Translations are within +-1e30, checked as they are read,
// so their differences are finite.)
bool finite_motion(const Waypoint& a, const Waypoint& b) {
  return std::isfinite(b.t - a.t);
}
constexpr const char* kMotionOverflows = "the motion from the waypoint before overflows a double";

// Collects waypoints per object, objects in order of first appearance.
class TrajectoryBuilder {
 public:
  explicit TrajectoryBuilder(const std::string& file) { trajectory_.file = file; }

  // The waypoint list of `name`, created on first use.
  std::vector<Waypoint>& path(std::string_view name) {
    const auto it = index_.find(name);
    if (it != index_.end()) return trajectory_.paths[it->second];
    index_.emplace(std::string(name), trajectory_.objects.size());
    trajectory_.objects.emplace_back(name);
    return trajectory_.paths.emplace_back();
  }

  bool empty() const { return trajectory_.objects.empty(); }
  Trajectory take() { return std::move(trajectory_); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };

  Trajectory trajectory_;
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> index_;
};

// ---- CSV ------------------------------------------------------------------------------------

enum Column : std::size_t { kT, kObject, kTx, kTy, kTz, kQw, kQx, kQy, kQz, kColumnCount };
constexpr std::array<std::string_view, kColumnCount> kColumnNames = {
    "t", "object", "tx", "ty", "tz", "qw", "qx", "qy", "qz"};
constexpr const char* kColumnList = "t,object,tx,ty,tz,qw,qx,qy,qz";
constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kMaxColumns = 1000;                      // in a header, the nine and others
constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;  // a record of several lines

std::string_view trim(std::string_view s) {
  while (!s.empty() && text::is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && text::is_blank(s.back())) s.remove_suffix(1);
  return s;
}

class CsvTrajectory {
 public:
  CsvTrajectory(std::string_view text, const std::string& name)
      : lines_(text), name_(name), builder_(name) {}

  Trajectory read() {
    if (!next_nonblank()) {
      throw IoError::in_file(name_, std::string("no waypoints (empty file; expected a header ") +
                                        kColumnList + " and one row per waypoint)");
    }
    read_header();
    while (next_nonblank()) read_row();
    if (builder_.empty()) {
      throw IoError::in_file(name_, "no waypoints (the header is not followed by any row)");
    }
    return builder_.take();
  }

 private:
  // Moves to the next line that is not blank and splits it into fields_; false at the end.
  bool next_nonblank() {
    while (lines_.next_line()) {
      std::string_view line = lines_.rest();
      if (line.empty()) continue;
      record_line_ = lines_.line();
      if (line.find('"') != std::string_view::npos) line = whole_record(line);
      // `line` is trimmed, so a carriage return left in it has text after it.
      if (text::has_bare_carriage_return(line)) fail(text::kBareCarriageReturn);
      // Fields past the header's count are only counted (a row's own error), and a header of
      // more than kMaxColumns is refused: a line of commas must not take memory by the field.
      const std::size_t kept = header_size_ == 0 ? kMaxColumns + 1 : header_size_;
      fields_.clear();
      field_count_ = 0;
      if (line.find('"') != std::string_view::npos) {
        // Quoted fields, as RFC 4180 says and R's write.csv writes them (every string quoted).
        // Split as the pose files are (io/csv_text.hpp). The commas bound the fields (quoted
        // ones may hold commas too): past a few per field, the line is refused unsplit.
        if (static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) > 4 * kept + 64) {
          fail("a quoted line with far more commas than the header's " + std::to_string(kept) +
               " fields");
        }
        if (const char* error = csv::split_line(line, fields_, unquoted_)) fail(error);
        for (std::string_view& f : fields_) f = trim(f);
        field_count_ = fields_.size();
        return true;
      }
      for (std::string_view rest = line;;) {
        const std::size_t comma = rest.find(',');
        if (field_count_ < kept) fields_.push_back(trim(rest.substr(0, comma)));
        ++field_count_;
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
      return true;
    }
    return false;
  }

  void read_header() {
    column_.fill(kAbsent);
    if (field_count_ > kMaxColumns) {
      fail("header: more than " + std::to_string(kMaxColumns) + " columns (expected " +
           kColumnList + ", in any order, and other columns)");
    }
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const std::string_view name = fields_[i];
      const auto* known = std::find(kColumnNames.begin(), kColumnNames.end(), name);
      // Other columns are the user's business, as in pose files (io/pose_file.hpp).
      if (known == kColumnNames.end()) continue;
      std::size_t& at = column_[static_cast<std::size_t>(known - kColumnNames.begin())];
      if (at != kAbsent) {
        fail("header: column " + std::to_string(i + 1) + ": duplicate column " + text::quote(name));
      }
      at = i;
    }
    for (std::size_t c = 0; c < kColumnCount; ++c) {
      if (column_[c] == kAbsent) {
        fail("header: missing column " + text::quote(kColumnNames[c]) + " (expected " +
             kColumnList + ", in any order)");
      }
    }
    header_size_ = field_count_;
  }

  void read_row() {
    if (field_count_ != header_size_) {
      fail("expected " + std::to_string(header_size_) + " fields as in the header, found " +
           std::to_string(field_count_));
    }
    const std::string_view object = fields_[column_[kObject]];
    if (object.empty()) fail("column object: empty object name");
    Waypoint w;
    w.line = record_line_;
    w.t = number(kT);
    for (std::size_t k = 0; k < 3; ++k) w.translation[k] = number(static_cast<Column>(kTx + k));
    try {
      check_translation_range(w.translation[0], w.translation[1], w.translation[2]);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    for (std::size_t k = 0; k < 4; ++k) w.rotation[k] = number(static_cast<Column>(kQw + k));
    if (!normalize(w.rotation)) fail("quaternion (qw, qx, qy, qz) is zero");
    std::vector<Waypoint>& path = builder_.path(object);
    if (!path.empty() && !(w.t > path.back().t)) {
      fail("column t: t " + number_text(w.t) + " is not greater than the previous t " +
           number_text(path.back().t) + " of object " + text::quote(object) + " (line " +
           std::to_string(path.back().line) + ")");
    }
    if (!path.empty() && !finite_motion(path.back(), w)) fail(kMotionOverflows);
    path.push_back(w);
  }

  double number(Column c) const {
    const std::string_view tok = fields_[column_[c]];
    const std::string column = "column " + std::string(kColumnNames[c]) + ": ";
    if (tok.empty()) fail(column + "expected a number, found an empty field");
    double value = 0;
    if (!text::parse_double(tok, value))
      fail(column + "expected a number, got " + text::quote(tok));
    if (!std::isfinite(value)) fail(column + "non-finite value " + text::quote(tok));
    return value;
  }

  // Where a quoted field holds line breaks (RFC 4180): `first` and the lines up to the one that
  // closes it, joined by '\n' (a CRLF file's too), kept as they are. At most kMaxRecordBytes.
  std::string_view whole_record(std::string_view trimmed) {
    csv::RecordQuotes quotes;
    if (!quotes.open_after(trimmed)) return trimmed;
    // The open field's text runs to the end of the line: its trailing blanks are kept.
    std::string_view first = lines_.rest_as_is();
    while (!first.empty() && text::is_blank(first.front())) first.remove_prefix(1);
    joined_.assign(first);
    csv::join_record_lines(
        quotes, joined_, kMaxRecordBytes,
        [&](std::string_view& line) {
          if (!lines_.next_line()) return false;
          line = lines_.rest_as_is();
          return true;
        },
        [&](const std::string& what) { fail(what); });
    // The record's last line without its surrounding blanks, as a line on its own would be.
    while (!joined_.empty() && text::is_blank(joined_.back())) joined_.pop_back();
    return joined_;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(name_, record_line_, what);
  }

  text::LineScanner lines_;
  const std::string& name_;
  TrajectoryBuilder builder_;
  std::array<std::size_t, kColumnCount> column_{};  // field index of each column
  std::size_t header_size_ = 0;                     // fields in the header, other columns too
  std::vector<std::string_view> fields_;            // of the current line, up to header_size_
  std::size_t field_count_ = 0;                     // of the current line, all of them
  std::deque<std::string> unquoted_;                // quoted fields that held a doubled '"'
  std::uint64_t record_line_ = 0;                   // the first line of the current record
  std::string joined_;                              // a record of several lines
};

// ---- JSON -----------------------------------------------------------------------------------

class JsonTrajectory : private json::Checks {
 public:
  explicit JsonTrajectory(const std::string& name) : Checks{name}, builder_(name) {}

  Trajectory read(const Json& top) {
    if (!top.is_object()) {
      fail("", std::string("expected a JSON object at the top level, got ") + top.type_name());
    }
    check_keys(top, "", {"objects"});
    if (!top.contains("objects")) fail("", "missing key 'objects'");
    const Json& objects = top.at("objects");
    if (!objects.is_object()) {
      fail("objects", std::string("expected an object mapping names to waypoint arrays, got ") +
                          objects.type_name());
    }
    if (objects.empty()) fail("objects", "no waypoints (no objects)");
    for (const auto& [name, list] : objects.items()) {
      const std::string at = path_component("objects", name);
      if (name.empty()) fail(at, "empty object name");
      if (!list.is_array()) fail(at, std::string("expected an array, got ") + list.type_name());
      if (list.empty()) fail(at, "no waypoints (every object needs at least one)");
      std::vector<Waypoint>& path = builder_.path(name);
      for (std::size_t i = 0; i < list.size(); ++i) {
        path.push_back(waypoint(list[i], path_index(at, i)));
        if (i > 0 && !(path[i].t > path[i - 1].t)) {
          fail(path_component(path_index(at, i), "t"),
               "t " + number_text(path[i].t) + " is not greater than the previous t " +
                   number_text(path[i - 1].t) + " (" + path_index(at, i - 1) + ")");
        }
        if (i > 0 && !finite_motion(path[i - 1], path[i]))
          fail(path_index(at, i), kMotionOverflows);
      }
    }
    return builder_.take();
  }

 private:
  Waypoint waypoint(const Json& entry, const std::string& path) const {
    check_keys(entry, path, {"t", "pose"});
    Waypoint w;
    w.t = number(required(entry, path, "t"), path_component(path, "t"));
    const std::string at = path_component(path, "pose");
    const Json& pose = required(entry, path, "pose");
    if (!pose.is_array() || pose.size() != 7) {
      fail(at, std::string("expected an array of 7 numbers [tx, ty, tz, qw, qx, qy, qz], got ") +
                   (pose.is_array() ? "an array of " + std::to_string(pose.size())
                                    : std::string(pose.type_name())));
    }
    for (std::size_t k = 0; k < 3; ++k) w.translation[k] = number(pose[k], path_index(at, k));
    try {
      check_translation_range(w.translation[0], w.translation[1], w.translation[2]);
    } catch (const std::invalid_argument& e) {
      fail(at, e.what());
    }
    for (std::size_t k = 0; k < 4; ++k) w.rotation[k] = number(pose[3 + k], path_index(at, 3 + k));
    if (!normalize(w.rotation)) fail(at, "quaternion is zero");
    return w;
  }

  TrajectoryBuilder builder_;
};

}  // namespace

int Trajectory::find(const std::string& name) const {
  const auto it = std::find(objects.begin(), objects.end(), name);
  return it == objects.end() ? -1 : static_cast<int>(it - objects.begin());
}

TrajectoryFormat trajectory_format_from_path(const std::string& path) {
  const std::string extension = lowercase_extension(path);
  if (extension == ".csv") return TrajectoryFormat::csv;
  if (extension == ".json") return TrajectoryFormat::json;
  throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                  : "unknown extension " + text::quote(extension)) +
                                   " (expected .csv or .json)");
}

Trajectory read_trajectory(const std::string& path) {
  const TrajectoryFormat format = trajectory_format_from_path(path);
  try {
    const std::uint64_t max_bytes = format == TrajectoryFormat::csv ? kMaxCsvBytes : kMaxJsonBytes;
    const std::string text =
        json::read_text_file(path, max_bytes,
                             "file larger than " + std::to_string(max_bytes >> 20) +
                                 " MiB, the most read for this format");
    return parse_trajectory(text, path, format);
  } catch (const std::bad_alloc&) {
    throw IoError::in_file(path, "not enough memory to read the trajectory");
  }
}

Trajectory parse_trajectory(std::string_view text, const std::string& name,
                            TrajectoryFormat format) {
  if (format == TrajectoryFormat::json) return JsonTrajectory(name).read(json::parse(text, name));
  return CsvTrajectory(text, name).read();
}

}  // namespace kdop
