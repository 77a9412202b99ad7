#pragma once
// A file name's extension in lower case (".csv" for "R.CSV", "" for none): what every writer and
// reader that picks a format by name compares.
#include <cctype>
#include <filesystem>
#include <string>

namespace kdop {

inline std::string lowercase_extension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& ch : extension) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return extension;
}

}  // namespace kdop
