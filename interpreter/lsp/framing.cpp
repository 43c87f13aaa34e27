#include "framing.hpp"

#include <cctype>
#include <charconv>

namespace napkin::lsp {
namespace {

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string> Reader::next() {
  for (;;) {
    const std::size_t end = buf_.find("\r\n\r\n");
    if (end == std::string::npos) {
      // Headers are short: a long run of bytes with no blank line is noise.
      if (buf_.size() > 64 * 1024) {
        buf_.clear();
        ++dropped_;
      }
      return std::nullopt;
    }
    std::optional<std::size_t> length;
    std::string_view headers(buf_.data(), end);
    while (!headers.empty()) {
      const std::size_t nl = headers.find("\r\n");
      const std::string_view line = headers.substr(0, nl);
      headers = nl == std::string_view::npos ? std::string_view{} : headers.substr(nl + 2);
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos || !iequal(trim(line.substr(0, colon)), "content-length")) continue;
      const std::string_view v = trim(line.substr(colon + 1));
      std::size_t n = 0;
      const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec == std::errc{} && p == v.data() + v.size() && n <= kMaxBody) length = n;
    }
    const std::size_t body = end + 4;
    if (!length) {
      buf_.erase(0, body);
      ++dropped_;
      continue;
    }
    if (buf_.size() - body < *length) return std::nullopt;
    std::string out = buf_.substr(body, *length);
    buf_.erase(0, body + *length);
    return out;
  }
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace napkin::lsp
