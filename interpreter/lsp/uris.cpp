#include "uris.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "interpreter/io/atomic_write.hpp"
#include "napkin/version.hpp"

namespace napkin::lsp {

std::string path_to_uri(const std::string& path) {
  std::string out = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string uri_to_path(const std::string& uri) {
  if (uri.rfind("file://", 0) != 0) return "";
  std::string out;
  for (std::size_t i = 7; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string default_std_dir() {
  namespace fs = std::filesystem;
  fs::path base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = fs::path(h) / ".cache";
  else
    base = fs::temp_directory_path();
  return (base / "napkin" / "std" / kVersion).generic_string();
}

bool std_module_name(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t begin = 0; begin <= name.size();) {
    const std::size_t end = std::min(name.find('/', begin), name.size());
    const std::string_view part = name.substr(begin, end - begin);
    if (part.empty() || part.front() == '.') return false;  // `a//b`, `/abs`, `..`, `.` and hidden names
    for (unsigned char c : part)
      if (!std::isalnum(c) && c != '_' && c != '-' && c != '.') return false;
    begin = end + 1;
  }
  return true;
}

std::string std_file_uri(const SourceFile& module, const std::string& dir) {
  namespace fs = std::filesystem;
  if (module.name.rfind("std/", 0) != 0 || !std_module_name(std::string_view(module.name).substr(4))) return "";
  const fs::path path = fs::path(dir) / (module.name.substr(4) + ".napkin");
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  std::stringstream now;
  if (in) now << in.rdbuf();
  if (!in || now.str() != module.text) {
    fs::create_directories(path.parent_path(), ec);
    try {
      atomic_write(path.string(), module.text);
    } catch (const std::exception&) {
      return "";
    }
  }
  return path_to_uri(fs::absolute(path).lexically_normal().generic_string());
}

}  // namespace napkin::lsp
