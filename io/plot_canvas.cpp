// The shared pieces of the plots: text, axes, panel frames and the SVG/PNG writer.
#include "io/plot_canvas.hpp"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <memory>
#include <numbers>

#include "io/atomic_file.hpp"
#include "io/file_extension.hpp"
#include "io/io_error.hpp"
#include "io/result_file.hpp"

namespace kdop::plot {
namespace {

constexpr const char* kFont = "DejaVu Sans";

}  // namespace

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
std::string fmt(double v, int digits) {
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

void set_colour(cairo_t* cr, Rgb c, double alpha) {
  cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void set_font(cairo_t* cr, double size, bool bold) {
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

double Axis::frac(double v) const {
  double x;
  if (log) {
    x = v > 0 ? (std::log10(v) - lo) / (hi - lo) : -1.0;
  } else {
    x = (v - lo) / (hi - lo);
  }
  if (std::isnan(x)) return 0.5;
  return std::clamp(x, -1.0, 2.0);
}

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

std::vector<Tick> ticks_of(const Axis& a, int target) {
  return a.log ? log_ticks(a, target) : linear_ticks(a, target);
}

// ---- panels ----------------------------------------------------------------------------------

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
std::vector<Tick> fitting_x_ticks(cairo_t* cr, const Axis& x, double width,
                                  const std::function<std::string(double)>& relabel) {
  set_font(cr, 11.5);
  std::vector<Tick> ticks;
  for (int target : {10, 8, 6, 5, 4, 3, 2, 1}) {
    ticks = linear_ticks(x, target);
    if (relabel) {
      for (Tick& t : ticks) t.label = relabel(x.lo + t.frac * (x.hi - x.lo));
    }
    bool fits = true;
    for (std::size_t i = 1; i < ticks.size() && fits; ++i) {
      const double room = (ticks[i].frac - ticks[i - 1].frac) * width;
      fits = (text_width(cr, ticks[i].label) + text_width(cr, ticks[i - 1].label)) / 2 + 14 < room;
    }
    if (fits) break;
  }
  return ticks;
}

// ---- files -----------------------------------------------------------------------------------

namespace {

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

void render(cairo_surface_t* surface, const std::function<void(cairo_t*)>& draw,
            const std::string& path) {
  check(cairo_surface_status(surface), path);
  const ContextPtr cr(cairo_create(surface));
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  draw(cr.get());
  check(cairo_status(cr.get()), path);
}

std::string svg_bytes(const std::function<void(cairo_t*)>& draw, const std::string& path) {
  std::string bytes;
  const SurfacePtr surface(
      cairo_svg_surface_create_for_stream(append_bytes, &bytes, kWidth, kHeight));
  check(cairo_surface_status(surface.get()), path);
  cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
  render(surface.get(), draw, path);
  cairo_surface_finish(surface.get());
  check(cairo_surface_status(surface.get()), path);
  return bytes;
}

std::string png_bytes(const std::function<void(cairo_t*)>& draw, const std::string& path) {
  const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, kWidth, kHeight));
  render(surface.get(), draw, path);
  cairo_surface_flush(surface.get());
  std::string bytes;
  check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes), path);
  return bytes;
}

}  // namespace

PlotFormat plot_format_from_path(const std::string& path) {
  const std::string extension = lowercase_extension(path);
  if (extension == ".svg") return PlotFormat::svg;
  if (extension == ".png") return PlotFormat::png;
  if (is_stream_without_extension(path)) return PlotFormat::svg;
  throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                  : "unknown extension '" + extension + "'") +
                                   " (expected .svg or .png)");
}

void write_plot(AtomicFileWriter& file, const std::function<void(cairo_t*)>& draw,
                const std::string& title, const std::string& desc) {
  const std::string& path = file.path();
  std::string bytes;
  if (plot_format_from_path(path) == PlotFormat::svg) {
    bytes = svg_bytes(draw, path);
    // cairo writes text as outlines, so the words go into <title> and <desc> as well.
    const std::size_t open = bytes.find("<svg");
    const std::size_t end = open == std::string::npos ? open : bytes.find('>', open);
    if (end != std::string::npos) {
      bytes.insert(end + 1, "\n<title>" + xml_escaped(clean_text(title)) + "</title>\n<desc>" +
                                xml_escaped(clean_text(desc)) + "</desc>");
    }
  } else {
    bytes = png_bytes(draw, path);
  }
  file.write(bytes);
}

}  // namespace kdop::plot
