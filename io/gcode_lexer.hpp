#pragma once
// Splitting one line of a G-code program into words (io/gcode_program.hpp has the dialect).
// Blanks are dropped everywhere outside comments, as LinuxCNC does, so `G 0 1 X 1 .5` is G01
// X1.5; letters are upper-cased; numbers are an optional sign, digits and at most one dot
// (`-75.`, `.5`), never an exponent, parsed with std::from_chars (no locale).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kdop::gcode {

struct Word {
  char letter = 0;  // 'A'..'Z'
  double value = 0;
};

struct LexedLine {
  bool percent = false;       // a '%' delimiter line
  bool block_delete = false;  // the line starts with '/'
  std::vector<Word> words;    // in line order; empty for blank and comment-only lines
};

struct LexLimits {
  std::size_t max_line_chars = 4096;
  std::size_t max_number_chars = 40;
  double max_abs_value = 1e9;
};

// Lexes `line` (without its '\n'; a trailing '\r' is dropped) into `out`. Throws IoError
// "<file>: line <line_no>: ..." for unclosed or nested comments, '#' parameters, '[ ]'
// expressions, O-words, a letter without a number, malformed or too long numbers and characters
// that belong to no word.
void lex_line(std::string_view line, const std::string& file, std::uint64_t line_no,
              const LexLimits& limits, LexedLine& out);

}  // namespace kdop::gcode
