// NC setup reader: json::parse (duplicate keys, key paths of out-of-range numbers), then
// SetupReader checks every key and value against the schema in the header and converts to mm.
#include "io/nc_setup.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <system_error>
#include <utility>

#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

using json::format_number;

namespace fs = std::filesystem;
using Json = json::Json;
using json::path_component;
using json::path_index;
using json::printable;
using json::shown;

constexpr std::uint64_t kMaxSetupBytes = std::uint64_t{16} << 20;
constexpr std::size_t kMaxFixtures = 1000;
// 1 km: beyond any machine, small enough that later sums of coordinates stay finite.
constexpr double kMaxCoordinateMm = 1e6;
constexpr double kInch = 25.4;
constexpr const char* kWorkOffsets[6] = {"G54", "G55", "G56", "G57", "G58", "G59"};

class SetupReader : private json::Checks {
 public:
  SetupReader(const std::string& file, const std::string& base_dir)
      : Checks{file}, base_dir_(base_dir) {
    setup_.file = file;
  }

  NcSetupFile read(const Json& top) {
    if (!top.is_object()) {
      fail("", std::string("expected a JSON object at the top level, got ") + top.type_name());
    }
    check_keys(top, "",
               {"units", "stock", "part", "fixtures", "tolerance", "tools", "work_offsets", "g28",
                "g30", "start", "initial_tool"});
    scale_ = top.contains("units") ? units(top.at("units"), "units") : 1.0;
    setup_.stock = solid(required(top, "", "stock"), "stock", "stock");
    if (top.contains("part")) {
      setup_.has_part = true;
      setup_.part = solid(top.at("part"), "part", "part");
    }
    if (top.contains("fixtures")) fixtures(top.at("fixtures"));
    if (top.contains("tolerance")) {
      const double t = number(top.at("tolerance"), "tolerance");
      if (!(t >= 0)) fail("tolerance", "must be >= 0 (got " + format_number(t) + ")");
      setup_.tolerance = t * scale_;
      if (!(setup_.tolerance <= kMaxCoordinateMm)) {
        fail("tolerance", "must be at most " + format_number(kMaxCoordinateMm) + " mm (got " +
                              format_number(t) + ")");
      }
    }
    if (top.contains("tools")) setup_.tools = existing_file(top.at("tools"), "tools");
    if (top.contains("work_offsets")) work_offsets(top.at("work_offsets"));
    if (top.contains("g28")) setup_.g28 = point(top.at("g28"), "g28", scale_);
    if (top.contains("g30")) setup_.g30 = point(top.at("g30"), "g30", scale_);
    if (top.contains("start")) setup_.start = point(top.at("start"), "start", scale_);
    if (top.contains("initial_tool")) setup_.initial_tool = tool_number(top.at("initial_tool"));
    return std::move(setup_);
  }

 private:
  double units(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, std::string("expected a string, got ") + value.type_name());
    const std::string u = value.get<std::string>();
    if (u == "mm") return 1.0;
    if (u == "inch") return kInch;
    fail(path, "expected \"mm\" or \"inch\", got " + shown(value));
  }

  NcSetupSolid solid(const Json& entry, const std::string& path, std::string name,
                     bool named = false) {
    if (named) {
      check_keys(entry, path, {"name", "box", "mesh", "units"});
    } else {
      check_keys(entry, path, {"box", "mesh", "units"});
    }
    NcSetupSolid s;
    s.name = std::move(name);
    const double scale =
        entry.contains("units") ? units(entry.at("units"), path_component(path, "units")) : scale_;
    const bool box = entry.contains("box"), mesh = entry.contains("mesh");
    if (box == mesh) {
      fail(path, box ? "give either 'box' or 'mesh', not both" : "missing key 'box' or 'mesh'");
    }
    if (box) {
      s.box = box_value(entry.at("box"), path_component(path, "box"), scale);
    } else {
      s.mesh = existing_file(entry.at("mesh"), path_component(path, "mesh"));
      s.mesh_scale = scale;
    }
    return s;
  }

  void fixtures(const Json& list) {
    if (!list.is_array())
      fail("fixtures", std::string("expected an array, got ") + list.type_name());
    if (list.size() > kMaxFixtures) {
      fail("fixtures", "more than " + std::to_string(kMaxFixtures) + " fixtures");
    }
    std::map<std::string, std::string> where;  // name -> the path that gave it
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = path_index("fixtures", i);
      if (!list[i].is_object()) {
        fail(path, std::string("expected an object, got ") + list[i].type_name());
      }
      const std::string at = path_component(path, "name");
      const Json& value = required(list[i], path, "name");
      if (!value.is_string()) fail(at, std::string("expected a string, got ") + value.type_name());
      std::string name = value.get<std::string>();
      if (name.empty()) fail(at, "expected a non-empty string");
      if (name == "stock" || name == "part") {
        fail(at, "the name " + text::quote(name) + " is taken by the setup's " + name);
      }
      const auto [it, added] = where.emplace(name, path);
      if (!added) fail(at, "duplicate name " + text::quote(name) + " (also " + it->second + ")");
      setup_.fixtures.push_back(solid(list[i], path, std::move(name), true));
    }
  }

  void work_offsets(const Json& value) {
    if (!value.is_object()) {
      fail("work_offsets", std::string("expected an object, got ") + value.type_name());
    }
    check_keys(value, "work_offsets", {"G54", "G55", "G56", "G57", "G58", "G59"});
    for (std::size_t k = 0; k < 6; ++k) {
      if (value.contains(kWorkOffsets[k])) {
        setup_.work_offsets[k] = point(value.at(kWorkOffsets[k]),
                                       path_component("work_offsets", kWorkOffsets[k]), scale_);
      }
    }
  }

  // 0 (no tool) or a tool number as the tool tables and T words take them.
  std::int32_t tool_number(const Json& value) const {
    const double t = number(value, "initial_tool");
    if (!(t >= 0 && t <= std::numeric_limits<std::int32_t>::max() && t == std::floor(t))) {
      fail("initial_tool", "expected a tool number, an integer from 0 (no tool) to " +
                               std::to_string(std::numeric_limits<std::int32_t>::max()) + " (got " +
                               format_number(t) + ")");
    }
    return static_cast<std::int32_t>(t);
  }

  // An array of `count` coordinates in mm, each within kMaxCoordinateMm.
  template <std::size_t N>
  std::array<double, N> coordinates(const Json& value, const std::string& path, double scale,
                                    const char* form) const {
    if (!value.is_array() || value.size() != N) {
      fail(path, std::string("expected ") + form + ", got " +
                     (value.is_array() ? "an array of " + std::to_string(value.size())
                                       : std::string(value.type_name())));
    }
    std::array<double, N> out{};
    for (std::size_t k = 0; k < N; ++k) {
      const std::string at = path_index(path, k);
      const double given = number(value[k], at);
      out[k] = given * scale;
      if (!(std::abs(out[k]) <= kMaxCoordinateMm)) {
        fail(at, "must be within +-" + format_number(kMaxCoordinateMm) + " mm (got " +
                     format_number(given) + ")");
      }
    }
    return out;
  }

  std::array<double, 3> point(const Json& value, const std::string& path, double scale) const {
    return coordinates<3>(value, path, scale, "[x, y, z]");
  }

  std::array<double, 6> box_value(const Json& value, const std::string& path, double scale) const {
    const std::array<double, 6> b = coordinates<6>(value, path, scale, "[x0, y0, z0, x1, y1, z1]");
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(b[k] < b[k + 3])) {
        const char axis = static_cast<char>('x' + k);
        fail(path, std::string(1, axis) + "0 must be below " + axis + "1 (got " +
                       format_number(value[k].get<double>()) + " and " +
                       format_number(value[k + 3].get<double>()) + ")");
      }
    }
    return b;
  }

  // The resolved path of a non-empty string naming an existing regular file.
  std::string existing_file(const Json& value, const std::string& at) const {
    if (!value.is_string()) fail(at, std::string("expected a string, got ") + value.type_name());
    const std::string given = value.get<std::string>();
    if (given.empty()) fail(at, "expected a non-empty string");
    if (given.find('\0') != std::string::npos) fail(at, "a path cannot contain a NUL character");
    const fs::path p(given);
    const fs::path resolved = p.is_absolute() ? p : fs::path(base_dir_) / p;
    std::error_code ec, absolute_ec;
    const fs::file_status status = fs::status(resolved, ec);
    const fs::path absolute = fs::absolute(resolved, absolute_ec);
    const std::string shown = printable(absolute_ec ? resolved.string() : absolute.string());
    if (status.type() == fs::file_type::not_found) {
      fail(at, "file " + text::quote(given) + " not found (looked for " + shown + ")");
    }
    if (ec)
      fail(at, "cannot access " + text::quote(given) + " (" + shown + ": " + ec.message() + ")");
    if (status.type() != fs::file_type::regular) {
      fail(at, text::quote(given) + " is not a regular file (" + shown + ")");
    }
    return resolved.string();
  }

  const std::string& base_dir_;
  double scale_ = 1.0;  // mm per file unit
  NcSetupFile setup_;
};

}  // namespace

NcSetupFile read_nc_setup(const std::string& path) {
  const std::string text = json::read_text_file(
      path, kMaxSetupBytes,
      "larger than " + std::to_string(kMaxSetupBytes >> 20) + " MiB: not a setup file?");
  return parse_nc_setup(text, path, fs::path(path).parent_path().string());
}

NcSetupFile parse_nc_setup(std::string_view text, const std::string& name,
                           const std::string& base_dir) {
  return SetupReader(name, base_dir).read(json::parse(text, name));
}

}  // namespace kdop
