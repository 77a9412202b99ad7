// NC plots: the PNG read back with cairo (size; the stock outline at one scale for x and y; each
// kind of finding in its colour where the plan view puts it; the feed path), the SVG's title and
// description, bad names and unwritable targets, degenerate inputs and a 100,000-move program.
#include "io/nc_plot.hpp"

#include <cairo.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "io/io_error.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A facing pass, an arc and a return pass over a 100 x 60 stock, a clamp beside it.
NcProgram sample_program() {
  return parse_gcode_program(
      "G21 G90 G17\n"
      "G0 X10 Y10 Z5\n"      // line 2, move 0
      "G1 Z-1 F100\n"        // line 3, move 1
      "G1 X90\n"             // line 4, move 2
      "G3 X90 Y50 I0 J20\n"  // line 5, move 3
      "G1 X10\n"             // line 6, move 4
      "G0 Z5\n",             // line 7, move 5
      "dir/p.nc");
}

NcFinding finding(std::uint64_t move, std::uint32_t line, NcFindingKind kind,
                  std::array<double, 3> at, double depth = 0) {
  NcFinding f;
  f.move = move;
  f.line = line;
  f.kind = kind;
  f.position = at;
  f.depth = depth;
  f.object = kind == NcFindingKind::collision ? "clamp" : "stock";
  return f;
}

NcReport sample_report(const NcProgram& program) {
  NcReport r;
  r.findings = {finding(2, 4, NcFindingKind::gouge, {60, 10, -1}, 0.25),
                finding(4, 6, NcFindingKind::collision, {30, 50, -1}),
                finding(5, 7, NcFindingKind::rapid_into_material, {10, 50, 2})};
  r.summary.moves = program.moves.size();
  r.summary.collisions = r.summary.rapids_into_material = r.summary.gouges = 1;
  r.summary.max_gouge_depth = 0.25;
  r.summary.first_line = 4;
  r.summary.tolerance = 0.01;
  r.solids = {{"stock", "stock", {0, 0, -20}, {100, 60, 0}},
              {"clamp <A&B>", "fixture", {-40, 20, -20}, {-20, 40, 5}}};
  return r;
}

// ---- reading pixels --------------------------------------------------------------------------

struct Rgb8 {
  int r, g, b;
};

constexpr Rgb8 kStockLine{153, 115, 56};  // (0.60, 0.45, 0.22)
constexpr Rgb8 kCollision{214, 39, 40};   // (0.839, 0.153, 0.157)
constexpr Rgb8 kRapidIn{255, 127, 14};    // (1.0, 0.498, 0.055)
constexpr Rgb8 kGouge{140, 38, 166};      // (0.55, 0.15, 0.65)

class Image {
 public:
  explicit Image(const std::string& path) {
    cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
      cairo_surface_flush(s);
      width_ = cairo_image_surface_get_width(s);
      height_ = cairo_image_surface_get_height(s);
      const int stride = cairo_image_surface_get_stride(s);
      const unsigned char* data = cairo_image_surface_get_data(s);
      pixels_.resize(static_cast<std::size_t>(width_) * height_);
      for (int y = 0; y < height_; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(data + y * stride);
        for (int x = 0; x < width_; ++x) pixels_[static_cast<std::size_t>(y) * width_ + x] = row[x];
      }
    }
    cairo_surface_destroy(s);
  }

  int width() const { return width_; }
  int height() const { return height_; }
  Rgb8 at(int x, int y) const {
    const std::uint32_t p = pixels_[static_cast<std::size_t>(y) * width_ + x];
    return {static_cast<int>((p >> 16) & 0xFF), static_cast<int>((p >> 8) & 0xFF),
            static_cast<int>(p & 0xFF)};
  }
  bool is(int x, int y, Rgb8 c, int tolerance = 4) const {
    const Rgb8 p = at(x, y);
    return std::abs(p.r - c.r) <= tolerance && std::abs(p.g - c.g) <= tolerance &&
           std::abs(p.b - c.b) <= tolerance;
  }

 private:
  int width_ = 0, height_ = 0;
  std::vector<std::uint32_t> pixels_;
};

// Pixels of one colour in [x0, x1) x [y0, y1): their count, bounds and centroid (pixel centres).
struct Found {
  int count = 0;
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  double cx = 0, cy = 0;
};

Found find(const Image& img, Rgb8 c, int x0, int y0, int x1, int y1, int tolerance = 4) {
  Found f;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      if (!img.is(x, y, c, tolerance)) continue;
      ++f.count;
      f.x0 = std::min(f.x0, x), f.x1 = std::max(f.x1, x);
      f.y0 = std::min(f.y0, y), f.y1 = std::max(f.y1, y);
      f.cx += x + 0.5, f.cy += y + 0.5;
    }
  }
  if (f.count > 0) f.cx /= f.count, f.cy /= f.count;
  return f;
}

class NcPlotFiles : public test::ScratchDirTest {};

// The plan view sits left of x = 740 between y = 60 and 640 (io/nc_plot.cpp); the z panel and the
// legend, which use the same colours, lie outside that.
constexpr int kPlanX1 = 740, kPlanY0 = 60, kPlanY1 = 640;

TEST_F(NcPlotFiles, PngShowsStockAndFindingsWhereThePlanViewPutsThem) {
  const NcProgram program = sample_program();
  const auto path = (dir_ / "plot.png").string();
  write_nc_plot(program, sample_report(program), path);
  const Image img(path);
  ASSERT_EQ(img.width(), 1200);
  ASSERT_EQ(img.height(), 700);

  // The stock outline (3 px wide, on pixel centres): x 0..100 and y 0..60 at one scale.
  const Found stock = find(img, kStockLine, 0, kPlanY0, kPlanX1, kPlanY1, 3);
  ASSERT_GT(stock.count, 500);
  const double left = stock.x0 + 1.5, right = stock.x1 - 0.5;  // the middle pixels' centres
  const double top = stock.y0 + 1.5, bottom = stock.y1 - 0.5;
  EXPECT_NEAR((right - left) / (bottom - top), 100.0 / 60.0, 0.02);
  EXPECT_GT(right - left, 300);
  const auto at = [&](double x, double y) {
    return std::make_pair(left + x / 100 * (right - left), bottom - y / 60 * (bottom - top));
  };

  // Each finding's marker: its colour centred where (x, y) maps, nowhere else in the plan view.
  const std::array<std::pair<Rgb8, std::array<double, 2>>, 3> markers = {
      {{kGouge, {60, 10}}, {kCollision, {30, 50}}, {kRapidIn, {10, 50}}}};
  for (const auto& [colour, xy] : markers) {
    SCOPED_TRACE(testing::Message() << "marker at " << xy[0] << ", " << xy[1]);
    const Found m = find(img, colour, 0, kPlanY0, kPlanX1, kPlanY1, 12);
    ASSERT_GT(m.count, 20);
    const auto [px, py] = at(xy[0], xy[1]);
    EXPECT_NEAR(m.cx, px, 1.5);
    EXPECT_NEAR(m.cy, py, 1.5);
    EXPECT_LE(m.x1 - m.x0, 14);  // one marker, not several
    EXPECT_LE(m.y1 - m.y0, 14);
  }

  // The feed along y = 10 (blue), between the gouge marker and the stock edge.
  const auto [fx, fy] = at(30, 10);
  bool blue = false;
  for (int dy = -2; dy <= 2; ++dy) {
    const Rgb8 p = img.at(static_cast<int>(fx), static_cast<int>(fy) + dy);
    blue = blue || (p.b - p.r > 80 && p.b > 120);
  }
  EXPECT_TRUE(blue);
}

TEST_F(NcPlotFiles, CleanProgramHasNoMarkers) {
  const NcProgram program = sample_program();
  NcReport report = sample_report(program);
  report.findings.clear();
  report.summary.collisions = report.summary.rapids_into_material = report.summary.gouges = 0;
  const auto path = (dir_ / "clean.png").string();
  write_nc_plot(program, report, path);
  const Image img(path);
  ASSERT_EQ(img.width(), 1200);
  for (const Rgb8 c : {kCollision, kRapidIn, kGouge}) {
    EXPECT_EQ(find(img, c, 0, kPlanY0, kPlanX1, kPlanY1, 12).count, 0);
  }
  EXPECT_GT(find(img, kStockLine, 0, kPlanY0, kPlanX1, kPlanY1, 3).count, 500);
}

TEST_F(NcPlotFiles, SvgDescribesTheSummary) {
  const NcProgram program = sample_program();
  const auto path = dir_ / "plot.svg";
  write_nc_plot(program, sample_report(program), path.string());
  const std::string svg = slurp(path);
  EXPECT_THAT(svg, HasSubstr("</svg>"));
  EXPECT_THAT(svg, HasSubstr("<title>p.nc: 6 moves, 3 findings (1 collision, 1 rapid into "
                             "material, 1 gouge)</title>"));
  EXPECT_THAT(svg, HasSubstr("<desc>p.nc: 6 moves, 3 findings"));
  EXPECT_THAT(svg, HasSubstr("deepest gouge 0.25 mm"));
  EXPECT_THAT(svg, HasSubstr("first finding at line 4"));
  EXPECT_THAT(svg, HasSubstr("Solids: stock (stock), clamp &lt;A&amp;B&gt; (fixture)</desc>"));
  EXPECT_EQ(entries(), 1);
}

TEST_F(NcPlotFiles, OtherExtensionsThrowAndWriteNothing) {
  const NcProgram program = sample_program();
  const std::string bmp = (dir_ / "plot.bmp").string();
  EXPECT_EQ(test::io_error_of([&] { write_nc_plot(program, sample_report(program), bmp); }),
            bmp + ": unknown extension '.bmp' (expected .svg or .png)");
  const std::string bare = (dir_ / "plot").string();
  EXPECT_EQ(test::io_error_of([&] { write_nc_plot(program, sample_report(program), bare); }),
            bare + ": no file extension (expected .svg or .png)");
  EXPECT_EQ(entries(), 0);
}

TEST_F(NcPlotFiles, UnwritableTargetThrowsAndLeavesNothing) {
  const NcProgram program = sample_program();
  const std::string missing = (dir_ / "no_such_dir" / "plot.png").string();
  EXPECT_THAT(test::io_error_of([&] { write_nc_plot(program, sample_report(program), missing); }),
              StartsWith(missing + ": cannot create "));
  std::filesystem::create_directories(dir_ / "taken.svg" / "child");
  const std::string taken = (dir_ / "taken.svg").string();
  EXPECT_EQ(test::io_error_of([&] { write_nc_plot(program, sample_report(program), taken); }),
            taken + ": is a folder, expected a file");
  EXPECT_EQ(entries(), 1);  // taken.svg only: no temporary left
}

TEST_F(NcPlotFiles, DegenerateInputsGiveValidFiles) {
  std::vector<std::pair<std::string, std::pair<NcProgram, NcReport>>> cases;
  cases.push_back({"empty", {NcProgram{}, NcReport{}}});
  NcProgram point = parse_gcode_program("G0 X1 Y1 Z1\nG1 F10 X1\n", "point.nc");
  cases.push_back({"one_point", {point, NcReport{}}});
  const NcProgram program = sample_program();
  NcReport odd = sample_report(program);
  const double inf = std::numeric_limits<double>::infinity();
  odd.findings.push_back(finding(999, 99, NcFindingKind::gouge, {NAN, inf, -inf}, NAN));
  odd.findings.push_back(finding(1, 3, NcFindingKind::collision, {1e300, -1e300, 1e300}));
  odd.solids.push_back({"\xff\xfe bad utf-8", "fixture", {-inf, NAN, 0}, {1e300, 1e300, 1}});
  cases.push_back({"odd_numbers", {program, odd}});
  NcProgram far = sample_program();
  far.moves.back().end = {1e12, -1e12, 1e12};  // a rapid to somewhere very far
  cases.push_back({"far_rapid", {far, sample_report(far)}});
  for (const auto& [name, input] : cases) {
    SCOPED_TRACE(name);
    const auto png = (dir_ / (name + ".png")).string();
    const auto svg = dir_ / (name + ".svg");
    ASSERT_NO_THROW(write_nc_plot(input.first, input.second, png));
    ASSERT_NO_THROW(write_nc_plot(input.first, input.second, svg.string()));
    const Image img(png);
    EXPECT_EQ(img.width(), 1200);
    EXPECT_EQ(img.height(), 700);
    EXPECT_THAT(slurp(svg), HasSubstr("</svg>"));
  }
}

// 100,000 moves (200 passes of 500 wavy feeds, rapids between) and 2,000 findings: the strokes
// are merged and the markers share cells, so the SVG stays small (2.5 MB without merging).
TEST_F(NcPlotFiles, LargeProgramGivesASmallSvg) {
  NcProgram program;
  program.file = "big.nc";
  std::array<double, 3> at{0, 0, 5};
  const auto go = [&](NcMoveKind kind, std::array<double, 3> to) {
    NcMove m;
    m.kind = kind;
    m.line = static_cast<std::uint32_t>(program.moves.size() + 1);
    m.start = at;
    m.end = to;
    program.moves.push_back(m);
    at = to;
  };
  for (int pass = 0; pass < 200; ++pass) {
    const double y = pass * 0.3;
    go(NcMoveKind::rapid, {0, y, 5});
    go(NcMoveKind::rapid, {0, y, 0});
    for (int i = 1; i <= 498; ++i) {
      const double x = i * 0.2;
      // Straight in XY but for CAM-like noise (0.01 mm): cairo itself only merges exactly
      // collinear lines.
      go(NcMoveKind::feed,
         {x, y + 0.01 * std::sin(7 * x), -1 - 0.5 * std::sin(x / 3) * std::cos(y / 4)});
    }
  }
  ASSERT_EQ(program.moves.size(), 100000u);
  NcReport report;
  report.summary.moves = program.moves.size();
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const NcMove& m = program.moves[40000 + i];
    report.findings.push_back(finding(40000 + i, m.line, NcFindingKind::collision, m.end));
  }
  report.summary.collisions = 2000;
  report.solids = {{"stock", "stock", {0, 0, -20}, {100, 60, 0}}};
  const auto svg = dir_ / "big.svg";
  write_nc_plot(program, report, svg.string());
  const std::string bytes = slurp(svg);
  EXPECT_THAT(bytes, HasSubstr("</svg>"));
  EXPECT_LT(bytes.size(), 400'000u);
  const auto png = (dir_ / "big.png").string();
  write_nc_plot(program, report, png);
  EXPECT_EQ(Image(png).width(), 1200);
}

}  // namespace
}  // namespace kdop
