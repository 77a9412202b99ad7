// The path plot (cairo): query time and least distance along the trajectory, two panels sharing
// the time axis, in the spirit of Klosowski et al. 1998, Fig. 3.
//
// Layout (pixels of the 1200 x 700 canvas):
//   title line (segment counts, first collision) and a grey line (waypoints, least distance,
//   check settings, run time);
//   top panel: query time per sample in microseconds (log scale over more than 2 decades);
//   bottom panel: least distance per sample, the clearance as a dashed line, t labels below;
//   right column: the legend (one colour per object, then the markings present).
// Colliding segments are red bands over [t0, t1] with a red line at t_hit, undecided segments
// orange bands, colliding samples red dots. Series with more samples than twice the panel width
// keep the first, last, least and greatest point of every pixel column, so a million samples
// draw the same envelope as all of them.
//
// cairo renders into memory (cairo_svg_surface_create_for_stream, an image surface and
// cairo_surface_write_to_png_stream) and the bytes go through AtomicFileWriter: the same
// temporary-then-rename (and fsync) as every other result file. The SVG also gets a <title> and
// <desc> with the summary and the object names, since cairo draws text as glyph outlines.
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <numbers>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/io_error.hpp"
#include "io/path_report.hpp"
#include "io/result_file.hpp"

namespace kdop {
namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 700;
// Values are clamped to this magnitude so that spans and pixel maps stay finite.
constexpr double kHuge = 1e300;
constexpr const char* kFont = "DejaVu Sans";

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
std::string clean_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7F) ? ' ' : static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
      n = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 4;
      cp = c & 0x07;
    }
    bool ok = n != 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    constexpr std::uint32_t kMinOf[5] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMinOf[n] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return out;
}

std::string xml_escaped(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// %.*g without the locale.
std::string fmt(double v, int digits = 6) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  return std::string(buf, end);
}

std::string count_of(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void set_colour(cairo_t* cr, Rgb c, double alpha = 1.0) {
  cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void set_font(cairo_t* cr, double size, bool bold = false) {
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

// `s` cut at a code point boundary with an ellipsis so that it fits in `max_width`.
std::string fitted(cairo_t* cr, std::string s, double max_width) {
  if (text_width(cr, s) <= max_width) return s;
  while (!s.empty()) {
    std::size_t cut = s.size() - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s.resize(cut);
    if (text_width(cr, s + "\xE2\x80\xA6") <= max_width) break;
  }
  return s + "\xE2\x80\xA6";
}

// Draws `s` with its anchor at (x, y): ax 0/0.5/1 = left/centre/right; y is the vertical centre
// of digits and capitals.
void draw_text(cairo_t* cr, double x, double y, const std::string& s, double ax) {
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  // fe.ascent is about 0.93 em for DejaVu Sans; capitals and digits are about 0.73 em.
  cairo_move_to(cr, x - ax * text_width(cr, s), y + 0.39 * fe.ascent);
  cairo_show_text(cr, s.c_str());
}

// ---- axes ------------------------------------------------------------------------------------

struct Axis {
  double lo = 0, hi = 1;  // data values, or decimal exponents for a log axis
  bool log = false;

  // 0 at lo, 1 at hi; kept within [-1, 2] so pixels stay in cairo's fixed-point range.
  double frac(double v) const {
    double x;
    if (log) {
      x = v > 0 ? (std::log10(v) - lo) / (hi - lo) : -1.0;
    } else {
      x = (v - lo) / (hi - lo);
    }
    if (std::isnan(x)) return 0.5;
    return std::clamp(x, -1.0, 2.0);
  }
};

struct Tick {
  double frac;
  std::string label;  // empty for a minor tick
};

double clamped(double v) {
  return std::clamp(v, -kHuge, kHuge);
}

// [lo, hi] made a proper interval: a single value gets a margin around it.
Axis linear_axis(double lo, double hi) {
  if (!(lo <= hi)) return {0, 1, false};
  if (lo == hi) {
    const double pad = lo == 0 ? 0.5 : std::abs(lo) * 0.1;
    if (lo - pad < lo + pad) return {lo - pad, lo + pad, false};
    return {lo - 1, lo + 1, false};
  }
  return {lo, hi, false};
}

double nice_step(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 0;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  if (!(mag > 0) || !std::isfinite(mag)) return raw;
  const double norm = raw / mag;
  const double nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return nice * mag;
}

std::string tick_label(double v, double step, double max_abs) {
  char buf[400];
  std::to_chars_result r;
  if (step >= 1e-4 && max_abs < 1e6) {
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  } else {
    const double top = std::max(max_abs, step);
    const int digits = std::clamp(
        static_cast<int>(std::floor(std::log10(top)) - std::floor(std::log10(step)) + 1), 1, 17);
    r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  }
  return std::string(buf, r.ptr);
}

// Ticks at multiples of a 1/2/5 x 10^k step, about `target` of them; the two ends when the
// range is too narrow for its magnitude.
std::vector<Tick> linear_ticks(const Axis& a, int target) {
  const double max_abs = std::max(std::abs(a.lo), std::abs(a.hi));
  const double step = nice_step((a.hi - a.lo) / std::max(target, 1));
  std::vector<Tick> ticks;
  if (step > 0 && std::isfinite(step)) {
    const double k0 = std::ceil(a.lo / step), k1 = std::floor(a.hi / step);
    if (std::isfinite(k0) && std::isfinite(k1) && k1 - k0 <= 60 && (k1 + 1) * step != k1 * step) {
      for (double k = k0; k <= k1; k += 1) {
        const double v = k * step + 0.0;  // + 0.0 turns -0 into 0
        ticks.push_back({a.frac(v), tick_label(v, step, max_abs)});
      }
      return ticks;
    }
  }
  ticks.push_back({0, fmt(a.lo, 17)});
  ticks.push_back({1, fmt(a.hi, 17)});
  return ticks;
}

std::string decade_label(int e) {
  if (e >= 0 && e <= 4) return fmt(std::pow(10.0, e));
  if (e < 0 && e >= -3) return fmt(std::pow(10.0, e));
  return "1e" + std::to_string(e);
}

// A tick per decade (labelled, with unlabelled 2..9 minor ticks over up to 6 decades), or every
// 2, 5, 10, 20, 50, ... decades over a wide range.
std::vector<Tick> log_ticks(const Axis& a, int target) {
  const int e0 = static_cast<int>(std::ceil(a.lo)), e1 = static_cast<int>(std::floor(a.hi));
  const int decades = e1 - e0 + 1;
  int stride = 1;
  if (decades > std::max(target, 2)) {
    stride = std::max(1, static_cast<int>(nice_step(static_cast<double>(decades) / target)));
  }
  std::vector<Tick> ticks;
  for (int e = e0; e <= e1; ++e) {
    if (e % stride != 0) continue;
    ticks.push_back({a.frac(std::pow(10.0, e)), decade_label(e)});
    if (stride == 1 && a.hi - a.lo <= 6 && e < e1) {
      for (int m = 2; m <= 9; ++m) ticks.push_back({a.frac(m * std::pow(10.0, e)), ""});
    }
  }
  return ticks;
}

std::vector<Tick> ticks_of(const Axis& a, int target) {
  return a.log ? log_ticks(a, target) : linear_ticks(a, target);
}

// ---- data ------------------------------------------------------------------------------------

struct Point {
  double t, y;
  bool collides;
};

struct Series {
  std::uint32_t object;
  std::vector<Point> time, distance;
};

struct Rect {
  double x, y, w, h;
  double px(const Axis& a, double v) const { return x + a.frac(v) * w; }
  double py(const Axis& a, double v) const { return y + h - a.frac(v) * h; }
};

std::vector<Series> series_of(const PathReport& report) {
  std::map<std::uint32_t, Series> by_object;
  for (std::uint32_t i = 0; i < report.objects.size(); ++i) by_object[i].object = i;
  for (const PathSample& s : report.samples) {
    if (!std::isfinite(s.t)) continue;
    Series& series = by_object[s.object];
    series.object = s.object;
    const double t = clamped(s.t);
    if (std::isfinite(s.time_us)) series.time.push_back({t, clamped(s.time_us), s.collides});
    if (std::isfinite(s.distance)) {
      series.distance.push_back({t, clamped(s.distance), s.collides});
    } else if (s.collides) {
      series.distance.push_back({t, 0.0, true});  // touching: distance 0
    }
  }
  std::vector<Series> out;
  for (auto& [object, series] : by_object) {
    const auto by_t = [](const Point& a, const Point& b) { return a.t < b.t; };
    std::stable_sort(series.time.begin(), series.time.end(), by_t);
    std::stable_sort(series.distance.begin(), series.distance.end(), by_t);
    out.push_back(std::move(series));
  }
  return out;
}

std::string object_name(const PathReport& report, std::uint32_t object) {
  if (object < report.objects.size()) return clean_text(report.objects[object]);
  return "object #" + std::to_string(object);
}

Axis time_axis(const PathReport& report) {
  double lo = INFINITY, hi = -INFINITY;
  const auto add = [&](double t) {
    if (!std::isfinite(t)) return;
    lo = std::min(lo, clamped(t));
    hi = std::max(hi, clamped(t));
  };
  for (const PathSample& s : report.samples) add(s.t);
  for (const SegmentReport& s : report.segments) {
    add(s.t0);
    add(s.t1);
  }
  for (const WaypointReport& w : report.waypoints) add(w.t);
  return linear_axis(lo, hi);
}

// Query times: log scale when the positive values span more than 2 decades.
Axis query_time_axis(const std::vector<Series>& series) {
  double lo = INFINITY, hi = -INFINITY, min_positive = INFINITY;
  for (const Series& s : series) {
    for (const Point& p : s.time) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
      if (p.y > 0) min_positive = std::min(min_positive, p.y);
    }
  }
  if (!(lo <= hi)) return {0, 1, false};
  if (hi > 0 && hi / min_positive > 100) {
    return {std::floor(std::log10(min_positive)), std::ceil(std::log10(hi)), true};
  }
  lo = std::min(lo, 0.0);
  if (!(hi > lo)) return linear_axis(lo, hi);
  const double span = hi - lo;
  return {lo - span * 0.04, hi + span * 0.08, false};
}

Axis distance_axis(const std::vector<Series>& series, double clearance) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Series& s : series) {
    for (const Point& p : s.distance) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  }
  if (!(lo <= hi)) return {0, 1, false};
  if (clearance > 0 && clearance < kHuge) hi = std::max(hi, clearance);
  lo = std::min(lo, 0.0);
  if (!(hi > lo)) return linear_axis(lo, hi);
  // Margins, so that the dots of touching samples (distance 0) are drawn whole.
  const double span = hi - lo;
  return {lo - span * 0.04, hi + span * 0.08, false};
}

// At most 4 points per pixel column (first, least, greatest, last), in time order.
std::vector<Point> decimated(const std::vector<Point>& points, const Rect& r, const Axis& x) {
  if (points.size() <= 2 * static_cast<std::size_t>(r.w)) return points;
  std::vector<Point> out;
  std::size_t i = 0;
  while (i < points.size()) {
    const double column = std::floor(r.px(x, points[i].t));
    std::size_t j = i, lo = i, hi = i;
    while (j < points.size() && std::floor(r.px(x, points[j].t)) == column) {
      if (points[j].y < points[lo].y) lo = j;
      if (points[j].y > points[hi].y) hi = j;
      ++j;
    }
    std::array<std::size_t, 4> keep = {i, lo, hi, j - 1};
    std::sort(keep.begin(), keep.end());
    for (std::size_t k = 0; k < keep.size(); ++k) {
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(points[keep[k]]);
    }
    i = j;
  }
  return out;
}

// ---- drawing ---------------------------------------------------------------------------------

struct Panel {
  Rect rect;
  Axis y;
  std::vector<Tick> y_ticks;
  std::string title;
};

struct Bands {
  std::vector<std::pair<double, double>> colliding, undecided;
  std::vector<double> hits;
};

Bands bands_of(const PathReport& report) {
  Bands b;
  for (const SegmentReport& s : report.segments) {
    if (!std::isfinite(s.t0) || !std::isfinite(s.t1)) continue;
    const double t0 = std::min(clamped(s.t0), clamped(s.t1));
    const double t1 = std::max(clamped(s.t0), clamped(s.t1));
    if (s.status == SegmentStatus::collides) {
      b.colliding.emplace_back(t0, t1);
      if (std::isfinite(s.t_hit)) b.hits.push_back(clamped(s.t_hit));
    } else if (s.status == SegmentStatus::undecided) {
      b.undecided.emplace_back(t0, t1);
    }
  }
  return b;
}

// Pixel intervals, sorted and merged, at least 2 px wide so a short segment still shows.
std::vector<std::pair<double, double>> merged_pixels(
    const std::vector<std::pair<double, double>>& list, const Rect& r, const Axis& x) {
  std::vector<std::pair<double, double>> px;
  px.reserve(list.size());
  for (const auto& [t0, t1] : list) {
    double x0 = r.px(x, t0), x1 = r.px(x, t1);
    if (x1 - x0 < 2) {
      const double mid = (x0 + x1) / 2;
      x0 = mid - 1;
      x1 = mid + 1;
    }
    px.emplace_back(x0, x1);
  }
  std::sort(px.begin(), px.end());
  std::vector<std::pair<double, double>> out;
  for (const auto& band : px) {
    if (!out.empty() && band.first <= out.back().second + 0.5) {
      out.back().second = std::max(out.back().second, band.second);
    } else {
      out.push_back(band);
    }
  }
  return out;
}

void draw_bands(cairo_t* cr, const Rect& r, const Axis& x, const Bands& bands) {
  const auto fill = [&](const std::vector<std::pair<double, double>>& list, Rgb c) {
    set_colour(cr, c, 0.16);
    for (const auto& [x0, x1] : merged_pixels(list, r, x)) {
      cairo_rectangle(cr, x0, r.y, x1 - x0, r.h);
    }
    cairo_fill(cr);
  };
  fill(bands.undecided, kOrange);
  fill(bands.colliding, kRed);
  std::set<double> columns;  // one line per pixel column
  for (double t : bands.hits) columns.insert(std::round(r.px(x, t)) + 0.5);
  set_colour(cr, kRed, 0.85);
  cairo_set_line_width(cr, 1.4);
  for (double px : columns) {
    cairo_move_to(cr, px, r.y);
    cairo_line_to(cr, px, r.y + r.h);
  }
  cairo_stroke(cr);
}

void set_series_style(cairo_t* cr, std::uint32_t object) {
  set_colour(cr, kPalette[object % kPalette.size()]);
  cairo_set_line_width(cr, 1.6);
  // Past the palette, the same colours again with dashes.
  const std::size_t round = (object / kPalette.size()) % 3;
  static constexpr double kDash[2][2] = {{6, 3}, {2, 2.5}};
  if (round == 0) {
    cairo_set_dash(cr, nullptr, 0, 0);
  } else {
    cairo_set_dash(cr, kDash[round - 1], 2, 0);
  }
}

void draw_series(cairo_t* cr, const Rect& r, const Axis& x, const Axis& y,
                 const std::vector<Point>& all, std::uint32_t object) {
  if (all.empty()) return;
  const std::vector<Point> points = decimated(all, r, x);
  set_series_style(cr, object);
  cairo_new_path(cr);
  for (const Point& p : points) cairo_line_to(cr, r.px(x, p.t), r.py(y, p.y));
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
  // Few samples (or one): mark each, so a lone sample is visible.
  if (all.size() <= 50) {
    for (const Point& p : points) {
      cairo_arc(cr, r.px(x, p.t), r.py(y, p.y), 2.6, 0, 2 * std::numbers::pi);
      cairo_fill(cr);
    }
  }
}

void draw_collision_dots(cairo_t* cr, const Rect& r, const Axis& x, const Axis& y,
                         const std::vector<Point>& points) {
  std::set<std::pair<long, long>> drawn;  // one dot per pixel
  for (const Point& p : points) {
    if (!p.collides) continue;
    const double px = r.px(x, p.t), py = r.py(y, p.y);
    const std::pair<long, long> cell{std::lround(px), std::lround(py)};
    if (!drawn.insert(cell).second) continue;
    cairo_arc(cr, px, py, 3.6, 0, 2 * std::numbers::pi);
    set_colour(cr, kRed);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
  }
}

void draw_grid(cairo_t* cr, const Rect& r, const std::vector<Tick>& x_ticks,
               const std::vector<Tick>& y_ticks) {
  cairo_set_line_width(cr, 1);
  for (bool major : {false, true}) {
    set_colour(cr, major ? kGrid : kMinorGrid);
    for (const Tick& t : y_ticks) {
      if (t.label.empty() == major || t.frac < 0 || t.frac > 1) continue;
      const double py = std::round(r.y + r.h - t.frac * r.h) + 0.5;
      cairo_move_to(cr, r.x, py);
      cairo_line_to(cr, r.x + r.w, py);
    }
    if (major) {
      for (const Tick& t : x_ticks) {
        if (t.frac < 0 || t.frac > 1) continue;
        const double px = std::round(r.x + t.frac * r.w) + 0.5;
        cairo_move_to(cr, px, r.y);
        cairo_line_to(cr, px, r.y + r.h);
      }
    }
    cairo_stroke(cr);
  }
}

void draw_frame_and_ticks(cairo_t* cr, const Rect& r, const std::vector<Tick>& x_ticks,
                          const std::vector<Tick>& y_ticks, bool x_labels) {
  set_colour(cr, kInk);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, std::round(r.x) + 0.5, std::round(r.y) + 0.5, std::round(r.w),
                  std::round(r.h));
  cairo_stroke(cr);
  set_font(cr, 11.5);
  for (const Tick& t : y_ticks) {
    if (t.frac < -1e-9 || t.frac > 1 + 1e-9) continue;
    const double py = std::round(r.y + r.h - t.frac * r.h) + 0.5;
    cairo_move_to(cr, r.x - (t.label.empty() ? 3 : 5), py);
    cairo_line_to(cr, r.x, py);
    cairo_stroke(cr);
    if (!t.label.empty()) draw_text(cr, r.x - 8, py, t.label, 1.0);
  }
  for (const Tick& t : x_ticks) {
    if (t.frac < -1e-9 || t.frac > 1 + 1e-9) continue;
    const double px = std::round(r.x + t.frac * r.w) + 0.5;
    cairo_move_to(cr, px, r.y + r.h);
    cairo_line_to(cr, px, r.y + r.h + 5);
    cairo_stroke(cr);
    if (x_labels) draw_text(cr, px, r.y + r.h + 16, t.label, 0.5);
  }
}

void draw_y_title(cairo_t* cr, double x, const Rect& r, const std::string& title) {
  set_font(cr, 12.5);
  set_colour(cr, kInk);
  cairo_save(cr);
  cairo_translate(cr, x, r.y + r.h / 2);
  cairo_rotate(cr, -std::numbers::pi / 2);
  draw_text(cr, 0, 0, fitted(cr, title, r.h - 4), 0.5);
  cairo_restore(cr);
}

void draw_note(cairo_t* cr, const Rect& r, const std::string& note) {
  set_font(cr, 13);
  set_colour(cr, kGrey);
  draw_text(cr, r.x + r.w / 2, r.y + r.h / 2, note, 0.5);
}

// X ticks whose labels do not collide: fewer and fewer until they fit.
std::vector<Tick> fitting_x_ticks(cairo_t* cr, const Axis& x, double width) {
  set_font(cr, 11.5);
  std::vector<Tick> ticks;
  for (int target : {10, 8, 6, 5, 4, 3, 2, 1}) {
    ticks = linear_ticks(x, target);
    bool fits = true;
    for (std::size_t i = 1; i < ticks.size() && fits; ++i) {
      const double room = (ticks[i].frac - ticks[i - 1].frac) * width;
      fits = (text_width(cr, ticks[i].label) + text_width(cr, ticks[i - 1].label)) / 2 + 14 < room;
    }
    if (fits) break;
  }
  return ticks;
}

std::string headline(const PathSummary& s) {
  std::string line = count_of(s.segments, "segment", "segments") + ": " + std::to_string(s.free) +
                     " free, " + std::to_string(s.colliding) +
                     (s.colliding == 1 ? " collides, " : " collide, ") +
                     std::to_string(s.undecided) + " undecided; ";
  if (s.first_collision_t) {
    line += "first collision t=" + fmt(*s.first_collision_t);
    if (!s.first_collision_object.empty()) {
      line += " (" + clean_text(s.first_collision_object);
      if (!s.first_collision_with.empty()) line += " with " + clean_text(s.first_collision_with);
      line += ")";
    }
  } else {
    line += "no collision";
  }
  return line;
}

std::string details(const PathSummary& s) {
  const std::string dot = "  \xC2\xB7  ";
  std::string line = count_of(s.waypoints, "waypoint", "waypoints") + " (" +
                     std::to_string(s.colliding_waypoints) + " colliding)";
  if (!std::isnan(s.worst_clearance)) {
    line += dot + "least distance " + fmt(s.worst_clearance);
    if (std::isfinite(s.worst_clearance_t)) line += " at t=" + fmt(s.worst_clearance_t);
    if (!s.worst_clearance_object.empty()) {
      line += " (" + clean_text(s.worst_clearance_object);
      if (!s.worst_clearance_with.empty())
        line += " \xE2\x80\x93 " + clean_text(s.worst_clearance_with);
      line += ")";
    }
  }
  line += dot + (s.continuous ? "continuous check" : "discrete check");
  if (s.clearance > 0) line += ", clearance " + fmt(s.clearance);
  if (s.continuous && s.time_tolerance > 0) line += ", time tolerance " + fmt(s.time_tolerance);
  line += dot + fmt(s.time_s, 4) + " s on " + count_of(s.threads, "thread", "threads");
  return line;
}

struct LegendEntry {
  enum Kind { line, band_red, band_orange, hit_line, dot, dashed } kind;
  std::uint32_t object = 0;
  std::string text;
};

void draw_legend(cairo_t* cr, double x, double y, double width, double bottom,
                 const std::vector<LegendEntry>& entries) {
  constexpr double kRow = 20;
  set_font(cr, 12);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double cy = y + kRow * static_cast<double>(i) + kRow / 2;
    const LegendEntry& e = entries[i];
    if (cy + kRow > bottom && i + 1 < entries.size()) {
      set_colour(cr, kGrey);
      draw_text(cr, x, cy, "\xE2\x80\xA6 " + std::to_string(entries.size() - i) + " more", 0);
      return;
    }
    switch (e.kind) {
      case LegendEntry::line:
        set_series_style(cr, e.object);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + 24, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
        break;
      case LegendEntry::band_red:
      case LegendEntry::band_orange:
        set_colour(cr, e.kind == LegendEntry::band_red ? kRed : kOrange, 0.25);
        cairo_rectangle(cr, x, cy - 6, 24, 12);
        cairo_fill(cr);
        break;
      case LegendEntry::hit_line:
        set_colour(cr, kRed, 0.85);
        cairo_set_line_width(cr, 1.4);
        cairo_move_to(cr, x + 12.5, cy - 8);
        cairo_line_to(cr, x + 12.5, cy + 8);
        cairo_stroke(cr);
        break;
      case LegendEntry::dot:
        cairo_arc(cr, x + 12, cy, 3.6, 0, 2 * std::numbers::pi);
        set_colour(cr, kRed);
        cairo_fill(cr);
        break;
      case LegendEntry::dashed: {
        static constexpr double kDash[2] = {5, 3};
        set_colour(cr, kGrey);
        cairo_set_line_width(cr, 1.2);
        cairo_set_dash(cr, kDash, 2, 0);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + 24, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
        break;
      }
    }
    set_colour(cr, kInk);
    draw_text(cr, x + 32, cy, fitted(cr, e.text, width - 32), 0);
  }
}

void draw_plot(cairo_t* cr, const PathReport& report) {
  const std::vector<Series> series = series_of(report);
  const Bands bands = bands_of(report);
  const PathSummary& summary = report.summary;
  const bool has_clearance = summary.clearance > 0 && summary.clearance < kHuge;

  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);

  // Legend entries, which size the right column.
  std::vector<LegendEntry> legend;
  bool any_collision_sample = false;
  for (const Series& s : series) {
    legend.push_back({LegendEntry::line, s.object, object_name(report, s.object)});
    for (const Point& p : s.time) any_collision_sample |= p.collides;
    for (const Point& p : s.distance) any_collision_sample |= p.collides;
  }
  if (!bands.colliding.empty()) legend.push_back({LegendEntry::band_red, 0, "colliding segment"});
  if (!bands.hits.empty()) legend.push_back({LegendEntry::hit_line, 0, "first contact (t_hit)"});
  if (!bands.undecided.empty()) {
    legend.push_back({LegendEntry::band_orange, 0, "undecided segment"});
  }
  if (any_collision_sample) legend.push_back({LegendEntry::dot, 0, "colliding sample"});
  if (has_clearance) legend.push_back({LegendEntry::dashed, 0, "clearance"});

  set_font(cr, 12);
  double legend_width = 0;
  for (const LegendEntry& e : legend) legend_width = std::max(legend_width, text_width(cr, e.text));
  legend_width = std::clamp(legend_width + 32, 120.0, 230.0);

  // Vertical layout: titles, two panels, x labels.
  constexpr double kTop = 70, kBottom = 58, kGap = 20;
  const double panels_h = kHeight - kTop - kBottom - kGap;
  Panel top, bottom;
  top.rect = {0, kTop, 0, std::floor(panels_h * 0.5)};
  bottom.rect = {0, top.rect.y + top.rect.h + kGap, 0, panels_h - top.rect.h};
  top.y = query_time_axis(series);
  bottom.y = distance_axis(series, summary.clearance);
  top.y_ticks = ticks_of(top.y, static_cast<int>(top.rect.h / 45));
  bottom.y_ticks = ticks_of(bottom.y, static_cast<int>(bottom.rect.h / 45));
  top.title = top.y.log ? "query time (\xC2\xB5s, log scale)" : "query time (\xC2\xB5s)";
  bottom.title = "least distance";

  // Horizontal layout: y title, y labels, plot, legend.
  set_font(cr, 11.5);
  double label_w = 0;
  for (const Panel* p : {&top, &bottom}) {
    for (const Tick& t : p->y_ticks) label_w = std::max(label_w, text_width(cr, t.label));
  }
  label_w = std::min(label_w, 160.0);
  const double left = 16 + 16 + 10 + label_w + 8;
  const double right = legend.empty() ? 24 : legend_width + 40;
  for (Panel* p : {&top, &bottom}) {
    p->rect.x = left;
    p->rect.w = kWidth - left - right;
  }
  const Axis x = time_axis(report);
  const std::vector<Tick> x_ticks = fitting_x_ticks(cr, x, top.rect.w);

  for (Panel* p : {&top, &bottom}) {
    const Rect& r = p->rect;
    draw_grid(cr, r, x_ticks, p->y_ticks);
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    cairo_clip(cr);
    draw_bands(cr, r, x, bands);
    if (p == &bottom && has_clearance) {
      static constexpr double kDash[2] = {5, 3};
      set_colour(cr, kGrey);
      cairo_set_line_width(cr, 1.2);
      cairo_set_dash(cr, kDash, 2, 0);
      const double py = std::round(r.py(p->y, summary.clearance)) + 0.5;
      cairo_move_to(cr, r.x, py);
      cairo_line_to(cr, r.x + r.w, py);
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0);
    }
    bool any = false;
    for (const Series& s : series) {
      const std::vector<Point>& points = p == &top ? s.time : s.distance;
      any |= !points.empty();
      draw_series(cr, r, x, p->y, points, s.object);
    }
    for (const Series& s : series) {
      draw_collision_dots(cr, r, x, p->y, p == &top ? s.time : s.distance);
    }
    cairo_restore(cr);
    if (!any) {
      draw_note(cr, r,
                report.samples.empty() ? "no samples"
                                       : (p == &top ? "no query times" : "no distances computed"));
    }
    draw_frame_and_ticks(cr, r, x_ticks, p->y_ticks, p == &bottom);
    draw_y_title(cr, 16 + 8, r, p->title);
  }

  // X axis title, centred under the plots.
  set_font(cr, 12.5);
  set_colour(cr, kInk);
  draw_text(cr, bottom.rect.x + bottom.rect.w / 2, kHeight - 17, "t (trajectory time)", 0.5);

  // Titles, left-aligned with the plots.
  const double title_w = kWidth - left - 24;
  set_font(cr, 16, true);
  set_colour(cr, kInk);
  draw_text(cr, left, 24, fitted(cr, headline(summary), title_w), 0);
  set_font(cr, 12.5);
  set_colour(cr, kGrey);
  draw_text(cr, left, 48, fitted(cr, details(summary), title_w), 0);

  if (!legend.empty()) {
    const double lx = kWidth - right + 20;
    draw_legend(cr, lx, top.rect.y, legend_width, bottom.rect.y + bottom.rect.h, legend);
  }
}

// ---- files -----------------------------------------------------------------------------------

struct SurfaceDeleter {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
  void operator()(cairo_t* cr) const { cairo_destroy(cr); }
};
using SurfacePtr = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using ContextPtr = std::unique_ptr<cairo_t, ContextDeleter>;

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void check(cairo_status_t status, const std::string& path) {
  if (status != CAIRO_STATUS_SUCCESS) {
    throw IoError::in_file(
        path, std::string("cannot draw the plot (cairo: ") + cairo_status_to_string(status) + ")");
  }
}

void render(cairo_surface_t* surface, const PathReport& report, const std::string& path) {
  check(cairo_surface_status(surface), path);
  const ContextPtr cr(cairo_create(surface));
  draw_plot(cr.get(), report);
  check(cairo_status(cr.get()), path);
}

// The summary and the object names as SVG <title> and <desc>: cairo writes text as outlines.
void add_svg_metadata(std::string& svg, const PathReport& report) {
  const std::size_t open = svg.find("<svg");
  const std::size_t end = open == std::string::npos ? open : svg.find('>', open);
  if (end == std::string::npos) return;
  std::string desc = details(report.summary) + ". Objects:";
  for (std::size_t i = 0; i < report.objects.size(); ++i) {
    desc += (i == 0 ? " " : ", ") + clean_text(report.objects[i]);
  }
  svg.insert(end + 1, "\n<title>" + xml_escaped(headline(report.summary)) + "</title>\n<desc>" +
                          xml_escaped(desc) + "</desc>");
}

std::string svg_bytes(const PathReport& report, const std::string& path) {
  std::string bytes;
  {
    const SurfacePtr surface(
        cairo_svg_surface_create_for_stream(append_bytes, &bytes, kWidth, kHeight));
    check(cairo_surface_status(surface.get()), path);
    cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
    render(surface.get(), report, path);
    cairo_surface_finish(surface.get());
    check(cairo_surface_status(surface.get()), path);
  }
  add_svg_metadata(bytes, report);
  return bytes;
}

std::string png_bytes(const PathReport& report, const std::string& path) {
  const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, kWidth, kHeight));
  render(surface.get(), report, path);
  cairo_surface_flush(surface.get());
  std::string bytes;
  check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes), path);
  return bytes;
}

}  // namespace

void write_path_plot(const PathReport& report, const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& ch : extension) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (extension != ".svg" && extension != ".png") {
    throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                    : "unknown extension '" + extension + "'") +
                                     " (expected .svg or .png)");
  }
  const std::string bytes = extension == ".svg" ? svg_bytes(report, path) : png_bytes(report, path);
  AtomicFileWriter file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace kdop
