// PLY 1.0 reader: ascii, binary_little_endian and binary_big_endian. The header declares
// elements, each a count and a list of scalar or list properties. Only `vertex` (x, y, z) and
// `face` (a list named vertex_indices or vertex_index) are kept; every other property and
// element is walked over with the same code, so skipping is as well checked as reading.
//
// Before anything is allocated, the header's counts are checked against the bytes that follow
// it: a binary element needs at least its fixed-size part, an ascii value at least one digit
// and one separator.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "geometry/coordinate_range.hpp"
#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

enum class Scalar : std::uint8_t { i8, u8, i16, u16, i32, u32, f32, f64 };
enum class Encoding { ascii, little_endian, big_endian };

struct ScalarName {
  std::string_view name;
  Scalar type;
};
constexpr ScalarName kScalarNames[] = {
    {"char", Scalar::i8},    {"uchar", Scalar::u8},   {"short", Scalar::i16},
    {"ushort", Scalar::u16}, {"int", Scalar::i32},    {"uint", Scalar::u32},
    {"float", Scalar::f32},  {"double", Scalar::f64}, {"int8", Scalar::i8},
    {"uint8", Scalar::u8},   {"int16", Scalar::i16},  {"uint16", Scalar::u16},
    {"int32", Scalar::i32},  {"uint32", Scalar::u32}, {"float32", Scalar::f32},
    {"float64", Scalar::f64}};

std::size_t size_of(Scalar t) {
  switch (t) {
    case Scalar::i8:
    case Scalar::u8:
      return 1;
    case Scalar::i16:
    case Scalar::u16:
      return 2;
    case Scalar::i32:
    case Scalar::u32:
    case Scalar::f32:
      return 4;
    case Scalar::f64:
      return 8;
  }
  return 0;
}

bool is_integer(Scalar t) {
  return t != Scalar::f32 && t != Scalar::f64;
}

bool integer_in_range(Scalar t, std::int64_t v) {
  switch (t) {
    case Scalar::i8:
      return v >= -128 && v <= 127;
    case Scalar::u8:
      return v >= 0 && v <= 255;
    case Scalar::i16:
      return v >= -32768 && v <= 32767;
    case Scalar::u16:
      return v >= 0 && v <= 65535;
    case Scalar::i32:
      return v >= std::numeric_limits<std::int32_t>::min() &&
             v <= std::numeric_limits<std::int32_t>::max();
    case Scalar::u32:
      return v >= 0 && v <= std::numeric_limits<std::uint32_t>::max();
    default:
      return true;
  }
}

struct Property {
  std::string name;
  bool is_list = false;
  Scalar type = Scalar::f32;       // the value type (the item type of a list)
  Scalar count_type = Scalar::u8;  // lists only
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::uint64_t line = 0;  // header line declaring it
  std::vector<Property> properties;
};

struct Header {
  Encoding encoding = Encoding::ascii;
  std::vector<Element> elements;
  std::size_t data_offset = 0;  // first byte after end_header
  std::uint64_t data_line = 0;  // line number of the first data line (ascii)
};

// Where the parts the mesh needs sit in the header.
struct Layout {
  const Element* vertex = nullptr;
  std::size_t xyz[3] = {0, 0, 0};  // property positions of x, y, z
  const Element* face = nullptr;
  std::size_t indices = 0;  // property position of the index list
};

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

Header parse_header(std::string_view bytes, const std::string& name) {
  text::LineScanner lines(bytes);
  lines.next_line();
  if (lines.token() != "ply" || !lines.at_line_end()) {
    throw IoError::at_line(name, 1, "bad magic: expected 'ply' on the first line");
  }
  Header header;
  bool have_format = false;
  for (;;) {
    if (!lines.next_line()) {
      throw IoError::at_line(name, lines.line(), "unexpected end of file: expected 'end_header'");
    }
    const std::uint64_t line = lines.line();
    const std::string_view keyword = lines.token();
    auto fail = [&](const std::string& what) { throw IoError::at_line(name, line, what); };
    if (keyword.empty() || keyword == "comment" || keyword == "obj_info") continue;
    if (keyword == "end_header") {
      if (!have_format) fail("expected a 'format' line before 'end_header'");
      header.data_offset = lines.next_offset();
      header.data_line = line + 1;
      return header;
    }
    if (keyword == "format") {
      const std::string_view encoding = lines.token();
      const std::string_view version = lines.token();
      if (encoding == "ascii") {
        header.encoding = Encoding::ascii;
      } else if (encoding == "binary_little_endian") {
        header.encoding = Encoding::little_endian;
      } else if (encoding == "binary_big_endian") {
        header.encoding = Encoding::big_endian;
      } else {
        fail("unsupported format " + text::quote(encoding) +
             " (expected ascii, binary_little_endian or binary_big_endian)");
      }
      double v = 0;
      if (!text::parse_double(version, v) || v != 1.0 || !lines.at_line_end()) {
        fail("unsupported format version " + text::quote(version) + " (expected 1.0)");
      }
      have_format = true;
    } else if (keyword == "element") {
      Element element;
      element.name = std::string(lines.token());
      element.line = line;
      const std::string_view count = lines.token();
      if (element.name.empty() || !text::parse_uint(count, element.count) || !lines.at_line_end()) {
        fail("expected 'element <name> <count>'");
      }
      header.elements.push_back(std::move(element));
    } else if (keyword == "property") {
      if (header.elements.empty()) fail("'property' before any 'element'");
      auto scalar = [&](std::string_view tok) {
        if (tok.empty()) fail("expected a property type, found end of line");
        for (const ScalarName& s : kScalarNames) {
          if (s.name == tok) return s.type;
        }
        fail("unknown property type " + text::quote(tok) +
             " (expected char, uchar, short, ushort, int, uint, float, double or a sized alias)");
        return Scalar::u8;
      };
      Property property;
      std::string_view tok = lines.token();
      if (tok == "list") {
        property.is_list = true;
        property.count_type = scalar(lines.token());
        if (!is_integer(property.count_type)) fail("list count type must be an integer type");
        tok = lines.token();
      }
      property.type = scalar(tok);
      property.name = std::string(lines.token());
      if (property.name.empty() || !lines.at_line_end()) {
        fail("expected 'property <type> <name>' or 'property list <count type> <type> <name>'");
      }
      header.elements.back().properties.push_back(std::move(property));
    } else {
      fail("unknown header keyword " + text::quote(keyword) +
           " (expected format, element, property, comment, obj_info or end_header)");
    }
  }
}

Layout find_layout(const Header& header, const std::string& name) {
  Layout layout;
  for (const Element& element : header.elements) {
    if (element.name == "vertex" && layout.vertex == nullptr) {
      layout.vertex = &element;
      const char* axes[3] = {"x", "y", "z"};
      for (int d = 0; d < 3; ++d) {
        const auto& props = element.properties;
        auto it = std::find_if(props.begin(), props.end(),
                               [&](const Property& p) { return p.name == axes[d]; });
        if (it == props.end()) {
          throw IoError::at_line(name, element.line,
                                 std::string("element vertex has no property ") + axes[d]);
        }
        if (it->is_list) {
          throw IoError::at_line(name, element.line,
                                 std::string("vertex property ") + axes[d] + " must not be a list");
        }
        layout.xyz[d] = static_cast<std::size_t>(it - props.begin());
      }
      if (element.count > std::numeric_limits<std::uint32_t>::max()) {
        throw IoError::at_line(name, element.line, "too many vertices for 32-bit indices");
      }
    } else if (element.name == "face" && layout.face == nullptr) {
      layout.face = &element;
      const auto& props = element.properties;
      auto it = std::find_if(props.begin(), props.end(), [](const Property& p) {
        return p.name == "vertex_indices" || p.name == "vertex_index";
      });
      if (it == props.end() || !it->is_list) {
        throw IoError::at_line(name, element.line,
                               "element face has no list property vertex_indices or vertex_index");
      }
      if (!is_integer(it->type)) {
        throw IoError::at_line(name, element.line, "face vertex indices must have an integer type");
      }
      layout.indices = static_cast<std::size_t>(it - props.begin());
    }
  }
  if (layout.vertex == nullptr) throw IoError::in_file(name, "header has no element vertex");
  if (layout.face == nullptr) {
    throw IoError::in_file(name, "no triangles (header has no element face)");
  }
  return layout;
}

// Least number of data bytes an element instance can take.
std::uint64_t min_bytes(const Element& element, Encoding encoding) {
  std::uint64_t bytes = 0;
  for (const Property& p : element.properties) {
    // ascii: one digit and one separator per value; a list needs at least its count.
    bytes += encoding == Encoding::ascii ? 2 : size_of(p.is_list ? p.count_type : p.type);
  }
  return bytes;
}

// Collects one face's corners and fans them into triangles, checking every index.
class FaceSink {
 public:
  FaceSink(Mesh& mesh, std::uint64_t vertex_count) : mesh_(mesh), vertex_count_(vertex_count) {}

  void begin() { corners_.clear(); }

  // Returns an error text, or an empty string if the index is acceptable.
  std::string add(std::int64_t index) {
    if (index < 0) return "negative vertex index " + std::to_string(index);
    if (static_cast<std::uint64_t>(index) >= vertex_count_) {
      return "face index " + std::to_string(index) + " out of range (file has " +
             count_of(vertex_count_, "vertex", "vertices") + ")";
    }
    corners_.push_back(static_cast<std::uint32_t>(index));
    return {};
  }

  void end() {
    for (std::size_t i = 1; i + 1 < corners_.size(); ++i) {
      mesh_.add_triangle(corners_[0], corners_[i], corners_[i + 1]);
    }
  }

 private:
  Mesh& mesh_;
  std::uint64_t vertex_count_;
  std::vector<std::uint32_t> corners_;
};

std::string corners_error(std::int64_t n) {
  return "face has " + std::to_string(n) + " corners, expected at least 3";
}

std::string ordinal(const Element& element, std::uint64_t i) {
  return "element " + element.name + " " + std::to_string(i + 1) + " of " +
         std::to_string(element.count);
}

// ---- ascii ----------------------------------------------------------------------------------

class AsciiReader {
 public:
  AsciiReader(std::string_view bytes, const Header& header, const std::string& name)
      : lines_(bytes, header.data_offset, header.data_line), name_(name) {}

  // Moves to the next non-blank line, which must hold instance i of the element.
  void begin(const Element& element, std::uint64_t i) {
    do {
      if (!lines_.next_line()) {
        throw IoError::at_line(name_, lines_.line(),
                               "unexpected end of file: expected " + ordinal(element, i));
      }
    } while (lines_.at_line_end());
  }

  // A list's values are checked one by one: a short line ends it early.
  void expect_values(Scalar, std::uint64_t) {}

  void end(const Element& element) {
    if (!lines_.at_line_end()) {
      fail("unexpected value " + text::quote(lines_.token()) + " after the properties of element " +
           element.name);
    }
  }

  void finish() {
    while (lines_.next_line()) {
      if (!lines_.at_line_end()) fail("unexpected data after the last element");
    }
  }

  double real(Scalar type, bool coordinate) {
    const std::string_view tok = lines_.token();
    if (coordinate) {
      if (is_integer(type)) return static_cast<double>(integer(type));
      return text::parse_coordinate(tok, name_, lines_.line());
    }
    if (is_integer(type)) return static_cast<double>(integer_token(tok, type));
    double v = 0;
    if (!text::parse_double(tok, v)) fail(expected_got("a number", tok));
    return v;
  }

  std::int64_t integer(Scalar type) { return integer_token(lines_.token(), type); }

  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(name_, lines_.line(), what);
  }

 private:
  std::int64_t integer_token(std::string_view tok, Scalar type) const {
    std::int64_t v = 0;
    if (!text::parse_int(tok, v) || !integer_in_range(type, v)) {
      fail(expected_got("an integer of the declared type", tok));
    }
    return v;
  }

  static std::string expected_got(const std::string& what, std::string_view tok) {
    return "expected " + what + ", " +
           (tok.empty() ? "found end of line" : "got " + text::quote(tok));
  }

  text::LineScanner lines_;
  const std::string& name_;
};

// ---- binary ---------------------------------------------------------------------------------

class BinaryReader {
 public:
  BinaryReader(std::string_view bytes, const Header& header, const std::string& name)
      : bytes_(bytes),
        at_(header.data_offset),
        swap_((header.encoding == Encoding::big_endian) !=
              (std::endian::native == std::endian::big)),
        name_(name) {}

  std::uint64_t remaining_bytes() const { return bytes_.size() - at_; }

  void begin(const Element& element, std::uint64_t i) {
    element_ = &element;
    index_ = i;
  }
  void end(const Element&) {}

  void finish() {
    if (at_ != bytes_.size()) {
      throw IoError::at_byte(name_, at_,
                             "unexpected " + count_of(bytes_.size() - at_, "byte", "bytes") +
                                 " after the last element");
    }
  }

  double real(Scalar type, bool coordinate) {
    const std::size_t at = at_;
    const double v = load_real(type);
    if (coordinate && !std::isfinite(v)) {
      throw IoError::at_byte(name_, at, "non-finite coordinate in " + ordinal(*element_, index_));
    }
    if (coordinate && !coordinate_in_range(v)) {
      throw IoError::at_byte(name_, at,
                             beyond_coordinate_range(v) + " (" + ordinal(*element_, index_) + ")");
    }
    return v;
  }

  std::int64_t integer(Scalar type) {
    need(size_of(type));
    last_ = at_;
    const char* p = bytes_.data() + at_;
    at_ += size_of(type);
    switch (type) {
      case Scalar::i8:
        return static_cast<std::int8_t>(*p);
      case Scalar::u8:
        return static_cast<std::uint8_t>(*p);
      case Scalar::i16:
        return static_cast<std::int16_t>(load<std::uint16_t>(p));
      case Scalar::u16:
        return load<std::uint16_t>(p);
      case Scalar::i32:
        return static_cast<std::int32_t>(load<std::uint32_t>(p));
      case Scalar::u32:
        return load<std::uint32_t>(p);
      default:
        return 0;  // unreachable: the header admits only integer count and index types
    }
  }

  // Checks that n values of the type fit before a list is read, so a corrupt length fails
  // at once.
  void expect_values(Scalar type, std::uint64_t n) const { need(saturating_mul(n, size_of(type))); }

  // Skips n values at once (a skipped property or list).
  void skip(Scalar type, std::uint64_t n) {
    expect_values(type, n);
    at_ += n * size_of(type);
  }

  // Reports a bad value at the offset where it starts.
  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_byte(name_, last_, what);
  }

 private:
  template <class U>
  U load(const char* p) const {
    U v;
    std::memcpy(&v, p, sizeof v);
    if (swap_) {
      U r = 0;
      for (std::size_t i = 0; i < sizeof v; ++i)
        r = static_cast<U>((r << 8) | ((v >> (8 * i)) & 0xFF));
      v = r;
    }
    return v;
  }

  double load_real(Scalar type) {
    if (is_integer(type)) return static_cast<double>(integer(type));
    need(size_of(type));
    last_ = at_;
    const char* p = bytes_.data() + at_;
    at_ += size_of(type);
    if (type == Scalar::f32) return std::bit_cast<float>(load<std::uint32_t>(p));
    return std::bit_cast<double>(load<std::uint64_t>(p));
  }

  void need(std::uint64_t n) const {
    if (n > remaining_bytes()) {
      throw IoError::at_byte(name_, at_,
                             "file truncated: expected " + std::to_string(n) + " more bytes for " +
                                 ordinal(*element_, index_) + ", file has " +
                                 std::to_string(remaining_bytes()));
    }
  }

  std::string_view bytes_;
  std::size_t at_;
  std::size_t last_ = 0;  // offset of the last value read
  bool swap_;
  const std::string& name_;
  const Element* element_ = nullptr;
  std::uint64_t index_ = 0;
};

// ---- the walk shared by both encodings ------------------------------------------------------

template <class Reader>
void skip_values(Reader& reader, Scalar type, std::uint64_t n) {
  if constexpr (std::is_same_v<Reader, BinaryReader>) {
    reader.skip(type, n);
  } else {
    for (std::uint64_t i = 0; i < n; ++i) reader.real(type, false);
  }
}

template <class Reader>
std::uint64_t list_count(Reader& reader, const Property& p) {
  const std::int64_t n = reader.integer(p.count_type);
  if (n < 0) reader.fail("negative list length " + std::to_string(n) + " for property " + p.name);
  return static_cast<std::uint64_t>(n);
}

template <class Reader>
Mesh read_body(Reader& reader, const Header& header, const Layout& layout, const std::string& name,
               std::uint64_t data_bytes) {
  // Fail fast, before allocating, if the counts cannot fit in the bytes that follow.
  std::uint64_t needed = 0;
  for (const Element& e : header.elements) {
    needed = saturating_add(needed, saturating_mul(e.count, min_bytes(e, header.encoding)));
  }
  // The last ascii value needs no separator.
  if (header.encoding == Encoding::ascii && needed > 0) --needed;
  if (needed > data_bytes) {
    std::string counts;
    for (const Element& e : header.elements) {
      // As the header spells them ("element vertex 3"): element names have no plural.
      counts += (counts.empty() ? "" : ", ") + std::string("element ") + e.name + " " +
                std::to_string(e.count);
    }
    const std::string what = "header declares " + counts + " (at least " +
                             count_of(needed, "byte", "bytes") + " of data) but only " +
                             count_of(data_bytes, "byte follows", "bytes follow") + " the header";
    if (header.encoding == Encoding::ascii) throw IoError::at_line(name, header.data_line, what);
    throw IoError::at_byte(name, header.data_offset, what);
  }

  Mesh mesh;
  const std::uint64_t nv = layout.vertex->count;
  mesh.x.reserve(nv);
  mesh.y.reserve(nv);
  mesh.z.reserve(nv);
  const std::uint64_t nf = layout.face->count;
  mesh.a.reserve(nf);
  mesh.b.reserve(nf);
  mesh.c.reserve(nf);
  FaceSink faces(mesh, nv);

  for (const Element& element : header.elements) {
    const bool is_vertex = &element == layout.vertex;
    const bool is_face = &element == layout.face;
    if (element.properties.empty()) continue;  // no data, however large its count
    for (std::uint64_t i = 0; i < element.count; ++i) {
      reader.begin(element, i);
      double xyz[3] = {0, 0, 0};
      for (std::size_t k = 0; k < element.properties.size(); ++k) {
        const Property& p = element.properties[k];
        if (is_face && k == layout.indices) {
          const std::uint64_t n = list_count(reader, p);
          if (n < 3) reader.fail(corners_error(static_cast<std::int64_t>(n)));
          reader.expect_values(p.type, n);
          faces.begin();
          for (std::uint64_t j = 0; j < n; ++j) {
            const std::string error = faces.add(reader.integer(p.type));
            if (!error.empty()) reader.fail(error);
          }
          faces.end();
        } else if (p.is_list) {
          skip_values(reader, p.type, list_count(reader, p));
        } else if (is_vertex && (k == layout.xyz[0] || k == layout.xyz[1] || k == layout.xyz[2])) {
          const int d = k == layout.xyz[0] ? 0 : k == layout.xyz[1] ? 1 : 2;
          xyz[d] = reader.real(p.type, true);
        } else {
          skip_values(reader, p.type, 1);
        }
      }
      reader.end(element);
      if (is_vertex) mesh.add_vertex(xyz[0], xyz[1], xyz[2]);
    }
  }
  reader.finish();
  if (mesh.triangle_count() == 0) throw IoError::in_file(name, "no triangles");
  return mesh;
}

}  // namespace

Mesh parse_ply(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw IoError::in_file(name, "empty file");
  const Header header = parse_header(bytes, name);
  const Layout layout = find_layout(header, name);
  const std::uint64_t data_bytes = bytes.size() - header.data_offset;
  if (header.encoding == Encoding::ascii) {
    AsciiReader reader(bytes, header, name);
    return read_body(reader, header, layout, name, data_bytes);
  }
  BinaryReader reader(bytes, header, name);
  return read_body(reader, header, layout, name, data_bytes);
}

}  // namespace kdop
