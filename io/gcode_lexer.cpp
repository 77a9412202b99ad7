// G-code lexer: one pass over the line, comments skipped, blanks ignored inside words.
#include "io/gcode_lexer.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include "io/io_error.hpp"
#include "io/text_scanner.hpp"

namespace kdop::gcode {
namespace {

bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}
bool is_digit(char ch) {
  return ch >= '0' && ch <= '9';
}
bool is_letter(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}
char upper(char ch) {
  return ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
}

class LineLexer {
 public:
  LineLexer(std::string_view line, const std::string& file, std::uint64_t line_no,
            const LexLimits& limits)
      : s_(line), file_(file), line_no_(line_no), limits_(limits) {}

  void run(LexedLine& out) {
    out.percent = false;
    out.block_delete = false;
    out.words.clear();
    if (s_.size() > limits_.max_line_chars) {
      fail("line longer than " + std::to_string(limits_.max_line_chars) + " characters");
    }
    bool first = true;  // nothing but blanks and comments seen yet
    for (;;) {
      skip_blanks_and_comments();
      if (i_ >= s_.size()) break;
      const char ch = s_[i_];
      if (ch == '%') {
        ++i_;
        skip_blanks_and_comments();
        if (!first || i_ < s_.size()) fail("'%' must stand alone on its line");
        out.percent = true;
        return;
      }
      if (ch == '/' && first) {
        out.block_delete = true;
        ++i_;
        first = false;
        continue;
      }
      first = false;
      if (ch == '#') fail("'#' parameters are not supported");
      if (ch == '[' || ch == ']') fail("'[ ]' expressions are not supported");
      if (!is_letter(ch)) fail("unexpected character " + text::quote(s_.substr(i_, 1)));
      const char letter = upper(ch);
      ++i_;
      if (letter == 'O') fail("O-words (subroutines, loops, conditions) are not supported");
      out.words.push_back({letter, read_number(letter)});
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(file_, line_no_, what);
  }

  void skip_blanks_and_comments() {
    while (i_ < s_.size()) {
      const char ch = s_[i_];
      if (is_space(ch)) {
        ++i_;
      } else if (ch == ';') {
        i_ = s_.size();
      } else if (ch == '(') {
        const std::size_t close = s_.find_first_of("()", i_ + 1);
        if (close == std::string_view::npos) fail("comment '(' not closed on its line");
        if (s_[close] == '(') fail("nested comment ('(' inside a comment)");
        i_ = close + 1;
      } else if (ch == ')') {
        fail("')' without '('");
      } else {
        return;
      }
    }
  }

  // After a letter: [blanks] [sign] digits and one dot, blanks allowed in between (LinuxCNC
  // drops them before reading), comments not.
  double read_number(char letter) {
    char buf[64];
    std::size_t n = 0, digits = 0, dots = 0;
    auto skip_spaces = [&] {
      while (i_ < s_.size() && is_space(s_[i_])) ++i_;
    };
    skip_spaces();
    if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
      if (s_[i_] == '-') buf[n++] = '-';
      ++i_;
      skip_spaces();
    }
    for (;;) {
      skip_spaces();
      if (i_ >= s_.size()) break;
      const char ch = s_[i_];
      if (is_digit(ch)) {
        ++digits;
      } else if (ch == '.') {
        if (++dots > 1) fail(std::string("two decimal points in the number after ") + letter);
      } else {
        break;
      }
      if (n + 1 > limits_.max_number_chars || n + 1 >= sizeof buf) {
        fail(std::string("number after ") + letter + " longer than " +
             std::to_string(limits_.max_number_chars) + " characters");
      }
      buf[n++] = ch;
      ++i_;
    }
    if (digits == 0) {
      if (i_ < s_.size() && s_[i_] == '#') fail("'#' parameters are not supported");
      if (i_ < s_.size() && s_[i_] == '[') fail("'[ ]' expressions are not supported");
      fail(std::string("expected a number after ") + letter +
           (i_ < s_.size() ? ", got " + text::quote(s_.substr(i_, 1)) : ", found end of line"));
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(buf, buf + n, value);
    if (ec != std::errc() || end != buf + n || !std::isfinite(value) ||
        std::fabs(value) > limits_.max_abs_value) {
      fail(std::string("number after ") + letter + " out of range (|value| <= " +
           std::to_string(static_cast<long long>(limits_.max_abs_value)) + ")");
    }
    return value == 0 ? 0.0 : value;  // no -0
  }

  std::string_view s_;
  const std::string& file_;
  std::uint64_t line_no_;
  const LexLimits& limits_;
  std::size_t i_ = 0;
};

}  // namespace

void lex_line(std::string_view line, const std::string& file, std::uint64_t line_no,
              const LexLimits& limits, LexedLine& out) {
  LineLexer(line, file, line_no, limits).run(out);
}

}  // namespace kdop::gcode
