// Tool library reader: json::parse (duplicate keys, key paths of out-of-range numbers), then one
// reader per form checks every key and value against the schema in the header and converts to mm.
#include "io/tool_library.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <utility>

#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

using json::format_number;

using Json = json::Json;
using json::path_component;
using json::path_index;
using json::shown;

// Tool tables are hand-written or exported and small; the caps bound what a wrong file costs.
constexpr std::uint64_t kMaxToolFileBytes = std::uint64_t{16} << 20;
constexpr std::size_t kMaxTools = 10000;
constexpr std::size_t kMaxHolderSegments = 64;
// 100 m: far beyond any machine, small enough that sums and products of sizes stay finite.
constexpr double kMaxSizeMm = 1e5;
constexpr double kInch = 25.4;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return s;
}

bool ends_with_camotics(const std::string& name) {
  constexpr std::string_view ext = ".camotics";
  return name.size() >= ext.size() && lower(name.substr(name.size() - ext.size())) == ext;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A size as given (file units) and in mm.
struct Size {
  double given = 0;
  double mm = 0;
};

class ToolReader : private json::Checks {
 public:
  explicit ToolReader(const std::string& file) : Checks{file} { library_.file = file; }

  ToolLibrary read(const Json& top, ToolLibraryFormat format) {
    if (!top.is_object()) {
      fail("", std::string("expected a JSON object at the top level, got ") + top.type_name());
    }
    if (format == ToolLibraryFormat::automatic) format = detect(top);
    library_.format = format;
    switch (format) {
      case ToolLibraryFormat::automatic:
      case ToolLibraryFormat::kdop:
        kdop_library(top);
        break;
      case ToolLibraryFormat::camotics_project:
        if (!top.contains("tools"))
          fail("", "missing key 'tools' (a CAMotics project's tool table)");
        camotics_table(top.at("tools"), "tools");
        break;
      case ToolLibraryFormat::camotics_table:
        camotics_table(top, "");
        break;
    }
    return std::move(library_);
  }

 private:
  ToolLibraryFormat detect(const Json& top) const {
    if (ends_with_camotics(file)) return ToolLibraryFormat::camotics_project;
    bool numbers = !top.empty();
    for (const auto& [key, value] : top.items()) numbers = numbers && all_digits(key);
    if (numbers) return ToolLibraryFormat::camotics_table;
    for (const char* key : {"resolution-mode", "resolution", "workpiece", "files"}) {
      if (top.contains(key)) return ToolLibraryFormat::camotics_project;
    }
    return ToolLibraryFormat::kdop;
  }

  // ---- kdop's form -------------------------------------------------------------------------

  void kdop_library(const Json& top) {
    check_keys(top, "", {"units", "tools"});
    const double scale = top.contains("units") ? units(top.at("units"), "units") : 1.0;
    const Json& tools = required(top, "", "tools");
    if (!tools.is_object())
      fail("tools", std::string("expected an object, got ") + tools.type_name());
    if (tools.empty()) fail("tools", "expected at least one tool, got an empty object");
    for (const auto& [key, entry] : tools.items()) {
      const std::string path = path_component("tools", key);
      ToolSpec tool = kdop_tool(entry, path, scale);
      tool.number = tool_number(key, path);
      add(std::move(tool), path);
    }
  }

  // The mm per unit of a "units" value.
  double units(const Json& value, const std::string& path) const {
    const std::string u = string(value, path);
    if (u == "mm") return 1.0;
    if (u == "inch") return kInch;
    fail(path, "expected \"mm\" or \"inch\", got " + shown(value));
  }

  ToolSpec kdop_tool(const Json& entry, const std::string& path, double file_scale) {
    check_keys(entry, path,
               {"shape", "diameter", "corner_radius", "included_angle", "tip_diameter",
                "cutting_length", "profile", "shank_diameter", "length", "holder", "gauge_length",
                "units", "name", "description"});
    const double scale = entry.contains("units")
                             ? units(entry.at("units"), path_component(path, "units"))
                             : file_scale;
    ToolSpec tool;
    ToolParameters& g = tool.geometry;
    const std::string shape_at = path_component(path, "shape");
    const Json& shape_value = required(entry, path, "shape");
    const std::string shape = string(shape_value, shape_at);
    if (shape == "flat") {
      g.shape = CutterShape::kFlat;
    } else if (shape == "ball") {
      g.shape = CutterShape::kBall;
    } else if (shape == "bull") {
      g.shape = CutterShape::kBullNose;
    } else if (shape == "cone") {
      g.shape = CutterShape::kCone;
    } else if (shape == "composite") {
      g.shape = CutterShape::kComposite;
    } else {
      fail(shape_at, "expected \"flat\", \"ball\", \"bull\", \"cone\" or \"composite\", got " +
                         shown(shape_value));
    }

    // A composite cutter's diameter and cutting length are its profile's top (stating them is
    // optional; stated, they must agree).
    if (g.shape == CutterShape::kComposite) profile(entry, path, g, scale);
    const Size diameter = g.shape == CutterShape::kComposite
                              ? implied(entry, path, "diameter", scale, 2 * g.profile.back().r)
                              : size(entry, path, "diameter", scale);
    const Size cutting = g.shape == CutterShape::kComposite
                             ? implied(entry, path, "cutting_length", scale, g.profile.back().z)
                             : size(entry, path, "cutting_length", scale);
    const Size length = size(entry, path, "length", scale);
    g.diameter = diameter.mm;
    g.cutting_length = cutting.mm;
    g.length = length.mm;
    if (cutting.mm > length.mm) {
      fail(path_component(path, "cutting_length"),
           "must be at most length = " + format_number(length.given) + " (got " +
               format_number(cutting.given) + ")");
    }

    corner_radius(entry, path, g, diameter, cutting, scale);
    angle_and_tip(entry, path, g, diameter, scale);

    g.shank_diameter = entry.contains("shank_diameter")
                           ? size(entry, path, "shank_diameter", scale).mm
                           : diameter.mm;
    double stack = 0;
    if (entry.contains("holder")) {
      const std::string at = path_component(path, "holder");
      const Json& list = entry.at("holder");
      if (!list.is_array()) fail(at, std::string("expected an array, got ") + list.type_name());
      if (list.size() > kMaxHolderSegments) {
        fail(at, "more than " + std::to_string(kMaxHolderSegments) + " holder segments");
      }
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string seg = path_index(at, i);
        check_keys(list[i], seg, {"height", "lower_diameter", "upper_diameter"});
        HolderSegment h;
        h.height = size(list[i], seg, "height", scale).mm;
        h.lower_diameter = size(list[i], seg, "lower_diameter", scale).mm;
        h.upper_diameter = size(list[i], seg, "upper_diameter", scale).mm;
        stack += h.height;
        g.holder.push_back(h);
      }
    }
    tool.gauge_length = entry.contains("gauge_length") ? size(entry, path, "gauge_length", scale).mm
                                                       : length.mm + stack;
    if (entry.contains("name")) tool.name = string(entry.at("name"), path_component(path, "name"));
    if (entry.contains("description")) {
      tool.description = text_value(entry.at("description"), path_component(path, "description"));
    }
    return tool;
  }

  // The composite outline "profile": [[z, r], ...] from the tip up, in the tool's units.
  void profile(const Json& entry, const std::string& path, ToolParameters& g, double scale) const {
    const std::string at = path_component(path, "profile");
    const Json& list = required(entry, path, "profile");
    if (!list.is_array()) fail(at, std::string("expected an array, got ") + list.type_name());
    if (list.size() > kMaxProfilePoints) {
      fail(at, "more than " + std::to_string(kMaxProfilePoints) + " points");
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string point = path_index(at, i);
      if (!list[i].is_array() || list[i].size() != 2) {
        fail(point, "expected [z, r] (height above the tip and radius), got " + shown(list[i]));
      }
      const double z = number(list[i][0], path_index(point, 0));
      const double r = number(list[i][1], path_index(point, 1));
      g.profile.push_back({z * scale, r * scale});
    }
    try {
      check_composite_profile(g.profile);
    } catch (const std::invalid_argument& e) {
      std::string what = e.what();
      if (what.rfind("tool: ", 0) == 0) what.erase(0, 6);
      fail(at, what);
    }
    if (!(g.profile.back().z <= kMaxSizeMm) || !(g.profile.back().r <= kMaxSizeMm)) {
      fail(at, "must stay within " + format_number(kMaxSizeMm) + " mm");
    }
  }

  // A size the profile implies: `value` mm; a stated one must agree (to rounding), and the
  // profile's value is kept, so the cutter is never a rounding smaller than its outline.
  Size implied(const Json& entry, const std::string& path, const char* key, double scale,
               double value) const {
    Size s{value / scale, value};
    if (!entry.contains(key)) return s;
    const Size stated = size(entry, path, key, scale);
    if (std::fabs(stated.mm - value) > 1e-9 * value) {
      fail(path_component(path, key),
           "must be the profile's " +
               std::string(std::string(key) == "diameter" ? "top diameter = " : "top height = ") +
               format_number(value / scale) + " (got " + format_number(stated.given) + ")");
    }
    return s;
  }

  void corner_radius(const Json& entry, const std::string& path, ToolParameters& g,
                     const Size& diameter, const Size& cutting, double scale) const {
    const std::string at = path_component(path, "corner_radius");
    if (g.shape == CutterShape::kComposite) {
      if (entry.contains("corner_radius") && number(entry.at("corner_radius"), at) != 0) {
        fail(at, "a composite cutter's outline is its profile (no corner radius)");
      }
      return;
    }
    if (g.shape == CutterShape::kBullNose) {
      const Size r = size(entry, path, "corner_radius", scale);
      if (r.mm > diameter.mm / 2) {
        fail(at, "must be at most diameter/2 = " + format_number(diameter.given / 2) + " (got " +
                     format_number(r.given) + ")");
      }
      if (cutting.mm < r.mm) {
        fail(path_component(path, "cutting_length"),
             "must be at least corner_radius = " + format_number(r.given) +
                 " (the corner is part of the cutter; got " + format_number(cutting.given) + ")");
      }
      g.corner_radius = r.mm;
      return;
    }
    if (g.shape == CutterShape::kBall && cutting.mm < diameter.mm / 2) {
      fail(path_component(path, "cutting_length"),
           "must be at least diameter/2 = " + format_number(diameter.given / 2) +
               " (the ball is part of the cutter; got " + format_number(cutting.given) + ")");
    }
    if (!entry.contains("corner_radius")) return;
    // Other shapes imply their corner; a stated one must agree with it.
    const double r = number(entry.at("corner_radius"), at);
    if (g.shape == CutterShape::kBall) {
      if (r != 0 && r != diameter.given / 2) {
        fail(at, "a ball's corner radius is diameter/2 = " + format_number(diameter.given / 2) +
                     " (or leave it 0), got " + format_number(r));
      }
    } else if (r != 0) {
      fail(at, "must be 0 for shape \"" +
                   std::string(g.shape == CutterShape::kFlat ? "flat" : "cone") +
                   "\" (a rounded corner is shape \"bull\"), got " + format_number(r));
    }
  }

  void angle_and_tip(const Json& entry, const std::string& path, ToolParameters& g,
                     const Size& diameter, double scale) const {
    const std::string angle_at = path_component(path, "included_angle");
    const bool cone = g.shape == CutterShape::kCone;
    if (g.shape == CutterShape::kComposite && entry.contains("included_angle")) {
      fail(angle_at, "a composite cutter's outline is its profile (no included angle)");
    }
    if (cone || entry.contains("included_angle")) {
      const double a = number(required(entry, path, "included_angle"), angle_at);
      // A flat end is a 180-degree cone, so other shapes may say 180; a cone must taper.
      if (!(a > 0) || a > 180 || (cone && a == 180)) {
        fail(angle_at, std::string("must be in (0, 180") + (cone ? ")" : "]") + " degrees (got " +
                           format_number(a) + ")");
      }
      if (cone) g.included_angle = a;
    }
    if (!entry.contains("tip_diameter")) return;
    const std::string tip_at = path_component(path, "tip_diameter");
    if (!cone) fail(tip_at, "only shape \"cone\" has a tip diameter");
    const double tip = number(entry.at("tip_diameter"), tip_at);
    if (!(tip >= 0) || !(tip * scale < diameter.mm)) {
      fail(tip_at, "must be in [0, diameter) = [0, " + format_number(diameter.given) + ") (got " +
                       format_number(tip) + ")");
    }
    g.tip_diameter = tip * scale;
  }

  // ---- CAMotics ----------------------------------------------------------------------------

  void camotics_table(const Json& table, const std::string& path) {
    if (!table.is_object()) {
      fail(path,
           std::string("expected a CAMotics tool table (an object keyed by tool number), got ") +
               table.type_name());
    }
    if (table.empty()) fail(path, "expected at least one tool, got an empty tool table");
    for (const auto& [key, entry] : table.items()) {
      const std::string at = path_component(path, key);
      const std::int32_t number = tool_number(key, at);
      ToolSpec tool = camotics_tool(entry, at, number);
      tool.number = number;
      add(std::move(tool), at);
    }
  }

  ToolSpec camotics_tool(const Json& entry, const std::string& path, std::int32_t number_in_key) {
    check_keys(entry, path,
               {"number", "units", "shape", "length", "diameter", "snub_diameter", "description"});
    if (entry.contains("number")) {
      const std::string at = path_component(path, "number");
      const Json& n = entry.at("number");
      if (!n.is_number_integer() || n.get<std::int64_t>() != number_in_key) {
        fail(at,
             "must equal the tool's key " + std::to_string(number_in_key) + ", got " + shown(n));
      }
    }
    double scale = 1.0;
    if (entry.contains("units")) {
      const std::string at = path_component(path, "units");
      const std::string u = lower(string(entry.at("units"), at));
      if (u == "imperial" || u == "inch") {
        scale = kInch;
      } else if (u != "metric" && u != "mm") {
        fail(at, "expected \"metric\" or \"imperial\", got " + shown(entry.at("units")));
      }
    }
    std::string shape = "cylindrical";  // CAMotics' default
    if (entry.contains("shape"))
      shape = lower(string(entry.at("shape"), path_component(path, "shape")));
    const Size length = size(entry, path, "length", scale);
    const Size diameter = size(entry, path, "diameter", scale);

    ToolSpec tool;
    ToolParameters& g = tool.geometry;
    g.diameter = g.shank_diameter = diameter.mm;
    g.cutting_length = g.length = tool.gauge_length = length.mm;
    const double radius = diameter.mm / 2;
    if (shape == "cylindrical" || shape == "cylinder") {
      g.shape = CutterShape::kFlat;
    } else if (shape == "ballnose") {
      g.shape = CutterShape::kBall;
      if (length.mm < radius) {
        fail(path_component(path, "length"),
             "a ballnose tool must be at least diameter/2 = " + format_number(diameter.given / 2) +
                 " long (got " + format_number(length.given) + ")");
      }
    } else if (shape == "conical" || shape == "cone") {
      g.shape = CutterShape::kCone;
      g.included_angle = 2 * std::atan2(radius, length.mm) * 180 / std::numbers::pi;
    } else if (shape == "snubnose") {
      double snub = 0;  // CAMotics' default: a pointed cone
      if (entry.contains("snub_diameter")) {
        const std::string at = path_component(path, "snub_diameter");
        const double given = number(entry.at("snub_diameter"), at);
        if (!(given >= 0) || given * scale > diameter.mm) {
          fail(at, "must be in [0, diameter] = [0, " + format_number(diameter.given) + "] (got " +
                       format_number(given) + ")");
        }
        snub = given * scale;
      }
      if (snub == diameter.mm) {
        g.shape = CutterShape::kFlat;  // no taper left
      } else {
        g.shape = CutterShape::kCone;
        g.tip_diameter = snub;
        g.included_angle = 2 * std::atan2(radius - snub / 2, length.mm) * 180 / std::numbers::pi;
      }
    } else {
      fail(path_component(path, "shape"),
           "CAMotics shape " + shown(entry.at("shape")) +
               " has no kdop equivalent (expected cylindrical, ballnose, conical or snubnose)");
    }
    if (entry.contains("snub_diameter") && shape != "snubnose") {
      fail(path_component(path, "snub_diameter"), "only shape \"snubnose\" has a snub diameter");
    }
    if (entry.contains("description")) {
      tool.description = text_value(entry.at("description"), path_component(path, "description"));
    }
    return tool;
  }

  // ---- shared ------------------------------------------------------------------------------

  std::int32_t tool_number(const std::string& key, const std::string& path) const {
    if (!all_digits(key)) {
      fail(path, "a tool number must be a positive integer, got key " + text::quote(key));
    }
    std::size_t first = key.find_first_not_of('0');
    const std::string digits = first == std::string::npos ? "0" : key.substr(first);
    constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
    if (digits.size() > 10 || std::stoll(digits) > kMax) {
      fail(path, "tool number " + text::quote(key) + " is above " + std::to_string(kMax));
    }
    const auto n = static_cast<std::int32_t>(std::stoll(digits));
    if (n == 0) fail(path, "tool number 0 means no tool; numbers start at 1");
    return n;
  }

  void add(ToolSpec tool, const std::string& path) {
    if (library_.tools.size() >= kMaxTools) {
      fail(path, "more than " + std::to_string(kMaxTools) + " tools");
    }
    const std::int32_t n = tool.number;
    const auto [it, added] = where_.emplace(n, path);
    if (!added) fail(path, "tool " + std::to_string(n) + " twice (also " + it->second + ")");
    library_.tools.emplace(n, std::move(tool));
  }

  // entry[key], required: a number > 0 whose size in mm is at most kMaxSizeMm.
  Size size(const Json& entry, const std::string& path, const char* key, double scale) const {
    const std::string at = path_component(path, key);
    Size s;
    s.given = number(required(entry, path, key), at);
    if (!(s.given > 0)) fail(at, "must be > 0 (got " + format_number(s.given) + ")");
    s.mm = s.given * scale;
    if (!(s.mm <= kMaxSizeMm)) {
      fail(at, "must be at most " + format_number(kMaxSizeMm) + " mm (got " +
                   format_number(s.given) + (scale == 1.0 ? "" : " inch") + ")");
    }
    return s;
  }

  // A non-empty string.
  std::string string(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, std::string("expected a string, got ") + value.type_name());
    std::string s = value.get<std::string>();
    if (s.empty()) fail(path, "expected a non-empty string");
    return s;
  }

  // Any string (descriptions may be empty: CAMotics writes "").
  std::string text_value(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, std::string("expected a string, got ") + value.type_name());
    return value.get<std::string>();
  }

  ToolLibrary library_;
  std::map<std::int32_t, std::string> where_;  // tool number -> the path that gave it
};

}  // namespace

ToolLibrary read_tool_library(const std::string& path, ToolLibraryFormat format) {
  const std::string text = json::read_text_file(
      path, kMaxToolFileBytes,
      "larger than " + std::to_string(kMaxToolFileBytes >> 20) + " MiB: not a tool library?");
  return parse_tool_library(text, path, format);
}

ToolLibrary parse_tool_library(std::string_view text, const std::string& name,
                               ToolLibraryFormat format) {
  return ToolReader(name).read(json::parse(text, name), format);
}

}  // namespace kdop
