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

// The last `Content-Length` header of a header block: where its name
// starts (npos if there is none) and its value, if napkin takes it. The
// last, and anywhere in a line: before it may be what a bad frame left.
struct LengthHeader {
  std::size_t at = std::string_view::npos;
  std::optional<std::size_t> length;
};

LengthHeader length_header(std::string_view block) {
  static constexpr std::string_view name = "content-length";
  LengthHeader h;
  for (std::size_t i = 0; i + name.size() <= block.size(); ++i) {
    if (!iequal(block.substr(i, name.size()), name)) continue;
    std::size_t colon = i + name.size();
    while (colon < block.size() && (block[colon] == ' ' || block[colon] == '\t')) ++colon;
    if (colon < block.size() && block[colon] == ':') h.at = i;
  }
  if (h.at == std::string_view::npos) return h;
  std::string_view v = block.substr(h.at);
  v = v.substr(v.find(':') + 1);
  v = trim(v.substr(0, v.find("\r\n")));
  std::size_t n = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec == std::errc{} && p == v.data() + v.size() && n <= kMaxBody) h.length = n;
  return h;
}

}  // namespace

std::optional<std::string> Reader::next() {
  for (;;) {
    const std::size_t end = buf_.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (buf_.size() > kMaxHeader) {
        buf_.erase(0, buf_.size() - kHeaderTail);
        ++dropped_;
      }
      return std::nullopt;
    }
    const LengthHeader h = length_header(std::string_view(buf_.data(), end));
    const std::size_t body = end + 4;
    if (!h.length) {
      buf_.erase(0, body);
      ++dropped_;
      continue;
    }
    if (h.at > 0 && buf_[h.at - 1] != '\n') {  // the header starts mid-line: what is before it is not a header
      buf_.erase(0, h.at);
      ++dropped_;
      continue;
    }
    if (buf_.size() - body < *h.length) return std::nullopt;
    std::string out = buf_.substr(body, *h.length);
    buf_.erase(0, body + *h.length);
    return out;
  }
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace napkin::lsp
