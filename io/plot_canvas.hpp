#pragma once
// What the plots (io/path_plot.cpp, io/nc_plot.cpp) share: the 1200 x 700 canvas, colours, text,
// linear and log axes with their ticks, panel frames, and writing a drawing as SVG or PNG.
//
// Drawing goes through cairo; this header only names cairo_t, so that including it (it is
// installed with the other io headers) does not need cairo's headers.
//
// Files: cairo renders into memory (cairo_svg_surface_create_for_stream, an image surface and
// cairo_surface_write_to_png_stream) and the bytes go through AtomicFileWriter: the same
// temporary-then-rename (and fsync) as every other result file. An SVG gets a <title> and a
// <desc> with the summary, since cairo draws text as glyph outlines.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/atomic_file.hpp"

typedef struct _cairo cairo_t;  // as cairo.h declares it

namespace kdop::plot {

constexpr int kWidth = 1200;
constexpr int kHeight = 700;
// Values are clamped to this magnitude so that spans and pixel maps stay finite.
constexpr double kHuge = 1e300;

struct Rgb {
  double r, g, b;
};

// Tableau 10 without its red and orange, which mark collisions and undecided segments.
constexpr std::array<Rgb, 10> kPalette = {{{0.122, 0.467, 0.706},
                                           {0.173, 0.627, 0.173},
                                           {0.580, 0.404, 0.741},
                                           {0.549, 0.337, 0.294},
                                           {0.890, 0.467, 0.761},
                                           {0.498, 0.498, 0.498},
                                           {0.737, 0.741, 0.133},
                                           {0.090, 0.745, 0.812},
                                           {0.224, 0.231, 0.475},
                                           {0.388, 0.475, 0.224}}};
constexpr Rgb kRed{0.839, 0.153, 0.157};
constexpr Rgb kOrange{1.0, 0.498, 0.055};
constexpr Rgb kInk{0.15, 0.15, 0.15};
constexpr Rgb kGrey{0.42, 0.42, 0.42};
constexpr Rgb kGrid{0.90, 0.90, 0.90};
constexpr Rgb kMinorGrid{0.955, 0.955, 0.955};

// ---- text ------------------------------------------------------------------------------------

// Valid UTF-8 with control characters as spaces: cairo rejects invalid strings and then draws
// nothing more.
std::string clean_text(std::string_view s);
std::string xml_escaped(std::string_view s);
// %.*g without the locale; "n/a" for NaN.
std::string fmt(double v, int digits = 6);
// "1 move", "2 moves".
std::string count_of(std::uint64_t n, const char* one, const char* many);

void set_colour(cairo_t* cr, Rgb c, double alpha = 1.0);
void set_font(cairo_t* cr, double size, bool bold = false);
double text_width(cairo_t* cr, const std::string& s);
// `s` cut at a code point boundary with an ellipsis so that it fits in `max_width`.
std::string fitted(cairo_t* cr, std::string s, double max_width);
// Draws `s` with its anchor at (x, y): ax 0/0.5/1 = left/centre/right; y is the vertical centre
// of digits and capitals.
void draw_text(cairo_t* cr, double x, double y, const std::string& s, double ax);

// ---- axes ------------------------------------------------------------------------------------

struct Axis {
  double lo = 0, hi = 1;  // data values, or decimal exponents for a log axis
  bool log = false;

  // 0 at lo, 1 at hi; kept within [-1, 2] so pixels stay in cairo's fixed-point range.
  double frac(double v) const;
};

struct Tick {
  double frac;
  std::string label;  // empty for a minor tick
};

// A panel's pixel rectangle, y down.
struct Rect {
  double x, y, w, h;
  double px(const Axis& a, double v) const { return x + a.frac(v) * w; }
  double py(const Axis& a, double v) const { return y + h - a.frac(v) * h; }
};

double clamped(double v);
// [lo, hi] made a proper interval: a single value gets a margin around it.
Axis linear_axis(double lo, double hi);
// Ticks at multiples of a 1/2/5 x 10^k step, about `target` of them; the two ends when the
// range is too narrow for its magnitude.
std::vector<Tick> linear_ticks(const Axis& a, int target);
// Decades (with 2..9 minor ticks over up to 6 decades) for a log axis, else linear_ticks.
std::vector<Tick> ticks_of(const Axis& a, int target);
// X ticks whose labels do not collide: fewer and fewer until they fit in `width` pixels.
// `relabel`, when given, names each tick from its value (linear axes).
std::vector<Tick> fitting_x_ticks(cairo_t* cr, const Axis& x, double width,
                                  const std::function<std::string(double)>& relabel = nullptr);

// ---- panels ----------------------------------------------------------------------------------

void draw_grid(cairo_t* cr, const Rect& r, const std::vector<Tick>& x_ticks,
               const std::vector<Tick>& y_ticks);
// The frame, tick marks and y labels; x labels below when `x_labels`.
void draw_frame_and_ticks(cairo_t* cr, const Rect& r, const std::vector<Tick>& x_ticks,
                          const std::vector<Tick>& y_ticks, bool x_labels);
// A vertical title centred on the panel, its baseline-ish centre at x.
void draw_y_title(cairo_t* cr, double x, const Rect& r, const std::string& title);
// Grey text in the middle of an empty panel.
void draw_note(cairo_t* cr, const Rect& r, const std::string& note);

// ---- files -----------------------------------------------------------------------------------

enum class PlotFormat { svg, png };
// By extension, any case; IoError "<path>: unknown extension '.x' (expected .svg or .png)"
// otherwise.
PlotFormat plot_format_from_path(const std::string& path);

// Renders `draw` on a white kWidth x kHeight canvas and writes it into `file` as SVG (with
// `title` and `desc`, XML-escaped) or PNG, by the file's extension (the caller commits). IoError
// naming the file for a bad extension, a cairo failure or a write that fails.
void write_plot(AtomicFileWriter& file, const std::function<void(cairo_t*)>& draw,
                const std::string& title, const std::string& desc);

}  // namespace kdop::plot
